/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation that cannot fail silently, and small string helpers. */
#ifndef COCOON_UTIL_H
#define COCOON_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* write() until all of DATA is out (EINTR retried); -1 on an error. */
int write_full(int fd, const void *data, size_t len);
/* The pid a pidfd stands for (its /proc/self/fdinfo), or -1. */
pid_t pidfd_pid(int pidfd);

/* The number of elements of an array (not of a pointer: it has none). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Append an element to a growable array (items, count, cap). */
#define ARRAY_PUSH(items, count, cap)                                          \
	(((count) == (cap) ?                                                   \
		  ((cap) = (cap) ? (cap) * 2 : 8,                              \
		   (items) = xreallocarray((items), (cap), sizeof(*(items))))  \
			   : (items)),                                         \
	 &(items)[(count)++])

bool str_starts_with(const char *s, const char *prefix);
/* true when path equals dir or lies below it ("/a/b" is under "/a"). */
bool path_is_under(const char *path, const char *dir);

/* A growable string. */
struct strbuf {
	char *data;
	size_t len, cap;
};
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_addn(struct strbuf *sb, const char *s, size_t n);
/* Append s quoted for a POSIX shell, only where it needs quoting. */
void sb_add_shell_word(struct strbuf *sb, const char *s);
/* Append s as a JSON string literal. */
void sb_add_json_string(struct strbuf *sb, const char *s);
char *sb_steal(struct strbuf *sb);
void sb_free(struct strbuf *sb);

#endif
