/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation that cannot fail silently, and small string helpers. */
#ifndef COCOON_UTIL_H
#define COCOON_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* write() until all of DATA is out (EINTR retried); -1 on an error. */
int write_full(int fd, const void *data, size_t len);
/* A stream over the directory DIR with a descriptor of its own, so DIR
 * stays open for the caller; NULL with errno. */
DIR *dir_stream(int dir);
/* The pid a pidfd stands for (its /proc/self/fdinfo), or -1. */
pid_t pidfd_pid(int pidfd);
/* Before forking a helper that the caller reaps itself: SIGCHLD at its
 * default (the caller's own handler, sudo's that reaps, must not take
 * it) and every signal blocked. The caller puts back *OLD_MASK with
 * sigprocmask once forked and *OLD_CHLD with sigaction once it reaped. */
void signals_hold_for_helper(struct sigaction *old_chld, sigset_t *old_mask);

/* Whether two stat results name one file: the same device and inode. */
static inline bool stat_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The number of elements of an array (not of a pointer: it has none). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Append an element to a growable array (items, count, cap). */
#define ARRAY_PUSH(items, count, cap)                                          \
	(((count) == (cap) ?                                                   \
		  ((cap) = (cap) ? (cap) * 2 : 8,                              \
		   (items) = xreallocarray((items), (cap), sizeof(*(items))))  \
			   : (items)),                                         \
	 &(items)[(count)++])

/* The one cleanup idiom: a variable declared with one of these is closed
 * or freed on every way out of its scope, unless steal_fd or steal_ptr
 * handed it on first. errno survives the cleanup, so a failing function
 * returns with the errno of its failure. A goto ladder is left only where
 * the order of the steps matters or no attribute can go. */
static inline void autoclose_fd(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
	*fd = -1;
}
static inline void autoclose_file(FILE **f)
{
	if (*f) {
		int saved = errno;
		fclose(*f);
		errno = saved;
	}
	*f = NULL;
}
static inline void autoclose_dir(DIR **d)
{
	if (*d) {
		int saved = errno;
		closedir(*d);
		errno = saved;
	}
	*d = NULL;
}
/* PTR points to a pointer (of any type) that malloc gave. */
static inline void autofree_ptr(void *ptr)
{
	void **p = ptr;
	int saved = errno;
	free(*p);
	errno = saved;
	*p = NULL;
}
#define AUTOCLOSE __attribute__((cleanup(autoclose_fd)))
#define AUTOFCLOSE __attribute__((cleanup(autoclose_file)))
#define AUTOCLOSEDIR __attribute__((cleanup(autoclose_dir)))
#define AUTOFREE __attribute__((cleanup(autofree_ptr)))

/* Hand an owned descriptor on: its value, with -1 left behind. */
static inline int steal_fd(int *fd)
{
	int owned = *fd;
	*fd = -1;
	return owned;
}
/* Hand an owned pointer on: its value, with NULL left behind. */
#define steal_ptr(pp)                                                          \
	({                                                                     \
		__typeof__(*(pp)) owned_ = *(pp);                              \
		*(pp) = NULL;                                                  \
		owned_;                                                        \
	})

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
