// SPDX-License-Identifier: GPL-2.0-or-later
/* Allocation that cannot fail silently, and small string helpers. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Out of memory in a login path: stop rather than continue half-done.
 * The caller's process ends, which refuses the session. */
static void out_of_memory(void)
{
	static const char msg[] = "cocoon: out of memory\n";
	ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)ignored;
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		out_of_memory();
	size_t bytes = count * size;
	void *p = realloc(ptr, bytes ? bytes : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		out_of_memory();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	char *p;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory();
	return p;
}

int write_full(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

bool str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static void sb_reserve(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	sb->data = xreallocarray(sb->data, cap, 1);
	sb->cap = cap;
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	sb_reserve(sb, n);
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_reserve(sb, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void sb_add_shell_word(struct strbuf *sb, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789/._-=:,+%@", *p) != NULL;
	if (plain) {
		sb_addn(sb, s, strlen(s));
		return;
	}
	sb_addn(sb, "'", 1);
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			sb_addn(sb, "'\\''", 4);
		else
			sb_addn(sb, p, 1);
	}
	sb_addn(sb, "'", 1);
}

void sb_add_json_string(struct strbuf *sb, const char *s)
{
	sb_addn(sb, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_addf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			sb_addf(sb, "\\u%04x", *p);
		else
			sb_addn(sb, (const char *)p, 1);
	}
	sb_addn(sb, "\"", 1);
}

char *sb_steal(struct strbuf *sb)
{
	char *s = sb->data ? sb->data : xstrdup("");
	sb->data = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void sb_free(struct strbuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

DIR *dir_stream(int dir)
{
	int fd AUTOCLOSE = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (d)
		(void)steal_fd(&fd); /* the stream owns it now */
	return d;
}

pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[2048];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = strstr(buf, "\nPid:\t");
	return p ? (pid_t)strtol(p + 6, NULL, 10) : -1;
}

void signals_hold_for_helper(struct sigaction *old_chld, sigset_t *old_mask)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, old_chld);
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, old_mask);
}
