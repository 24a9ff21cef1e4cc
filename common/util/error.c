// SPDX-License-Identifier: GPL-2.0-or-later
/* Errors as values (struct cc_error) and diagnostics at file:line. */
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int fail_v(struct cc_error *err, int errnum, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static int fail_v(struct cc_error *err, int errnum, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	err->cause = CC_FAILED;
	err->errnum = errnum;
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (errnum && n >= 0 && (size_t)n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - (size_t)n, ": %s",
			 strerror(errnum));
	return -1;
}

int cc_fail_number(struct cc_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(err, 0, fmt, ap);
	va_end(ap);
	if (err) {
		size_t n = strlen(err->msg);
		snprintf(err->msg + n, sizeof(err->msg) - n, ": error %d", errnum);
		err->errnum = errnum;
	}
	return -1;
}

int cc_fail(struct cc_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(err, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int cc_fail_errno(struct cc_error *err, const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;
	va_start(ap, fmt);
	fail_v(err, errnum, fmt, ap);
	va_end(ap);
	errno = errnum;
	return -1;
}

int cc_fail_errnum(struct cc_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(err, errnum, fmt, ap);
	va_end(ap);
	return -1;
}

int cc_fail_cause(struct cc_error *err, enum cc_cause cause, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(err, 0, fmt, ap);
	va_end(ap);
	if (err)
		err->cause = cause;
	return -1;
}

int cc_prefix(struct cc_error *err, const char *fmt, ...)
{
	if (!err)
		return -1;
	char prefix[512], old[sizeof(err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old);
	return -1;
}

void diag_add(struct diag_list *list, enum diag_level level, const char *file,
	      int line, const char *fmt, ...)
{
	struct diag *d = ARRAY_PUSH(list->items, list->count, list->cap);
	va_list ap;
	char buf[1024];
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d->level = level;
	d->file = file ? xstrdup(file) : NULL;
	d->line = line;
	d->msg = xstrdup(buf);
}

void diag_add_once(struct diag_list *list, enum diag_level level, const char *file,
		   int line, const char *msg)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct diag *d = &list->items[i];
		if (d->level == level && d->line == line && strcmp(d->msg, msg) == 0 &&
		    ((!d->file && !file) || (d->file && file && strcmp(d->file, file) == 0)))
			return;
	}
	diag_add(list, level, file, line, "%s", msg);
}

size_t diag_count(const struct diag_list *list, enum diag_level level)
{
	size_t n = 0;
	for (size_t i = 0; i < list->count; i++)
		n += list->items[i].level == level;
	return n;
}

int diag_first_error(const struct diag_list *list, struct cc_error *err)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct diag *d = &list->items[i];
		if (d->level != DIAG_ERROR)
			continue;
		if (d->file)
			return cc_fail(err, "%s:%d: %s", d->file, d->line, d->msg);
		return cc_fail(err, "%s", d->msg);
	}
	return 0;
}

void diag_free(struct diag_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		free(list->items[i].file);
		free(list->items[i].msg);
	}
	free(list->items);
	memset(list, 0, sizeof(*list));
}
