/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Errors as values: a function that can fail returns -1 and fills a
 * struct cc_error; the entry point decides where the message goes. */
#ifndef COCOON_ERROR_H
#define COCOON_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* What failed, for the few callers that branch on it (most print msg):
 * an account that does not exist is not a name service that could not
 * be asked (name_service.h). cc_fail and cc_fail_errno set CC_FAILED. */
enum cc_cause { CC_FAILED, CC_NOT_FOUND, CC_UNREACHABLE };

struct cc_error {
	char msg[1024];
	enum cc_cause cause;
	/* The errno that cc_fail_errno reported (0 from cc_fail and
	 * cc_fail_cause; cc_prefix keeps it): callers branch on it, not on
	 * errno, which anything after the failure may have changed. */
	int errnum;
};

/* Fill err with a formatted message; returns -1 so callers can
 * `return cc_fail(err, ...)`. */
int cc_fail(struct cc_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Same, with ": strerror(errno)" appended; errno is kept in errnum. */
int cc_fail_errno(struct cc_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cc_fail_errno with an errno saved earlier (ERRNUM 0: as cc_fail). */
int cc_fail_errnum(struct cc_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* For a vfork child or one that shares its parent's memory: ERRNUM kept
 * and written as "error N", without strerror, which may load a locale's
 * catalogue. */
int cc_fail_number(struct cc_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* cc_fail with a CAUSE. */
int cc_fail_cause(struct cc_error *err, enum cc_cause cause, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Put "context: " in front of an existing message. */
int cc_prefix(struct cc_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

enum diag_level { DIAG_ERROR, DIAG_WARNING };

/* One finding of `check`, tied to a place in a policy file. */
struct diag {
	enum diag_level level;
	char *file; /* may be NULL for findings without a place */
	int line;
	char *msg;
};

struct diag_list {
	struct diag *items;
	size_t count, cap;
	/* Findings about names a name service could not be asked for
	 * (check's own exit status). */
	size_t unreachable;
};

void diag_add(struct diag_list *list, enum diag_level level, const char *file,
	      int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* MSG as it is, unless the same finding is there already (a profile
 * shared by many rules reports once). */
void diag_add_once(struct diag_list *list, enum diag_level level, const char *file,
		   int line, const char *msg);
size_t diag_count(const struct diag_list *list, enum diag_level level);
/* The first error as "file:line: message" into err; -1 if there is one. */
int diag_first_error(const struct diag_list *list, struct cc_error *err);
void diag_free(struct diag_list *list);

#endif
