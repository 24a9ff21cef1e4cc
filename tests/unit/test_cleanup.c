// SPDX-License-Identifier: GPL-2.0-or-later
/* util.h's cleanup idiom: what the AUTOCLOSE family closes and frees on
 * the way out of a scope, what steal_fd and steal_ptr hand on, and that
 * errno survives the cleanup. Also dir_stream and ARRAY_SIZE. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "tap.h"
#include "util.h"

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* Opens a descriptor, fails with ENOENT and returns it closed, or handed
 * on when KEEP. */
static int scoped_fd(bool keep, int *seen)
{
	int fd AUTOCLOSE = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*seen = fd;
	if (keep)
		return steal_fd(&fd);
	errno = ENOENT;
	return -1;
}

static void test_fds(void)
{
	int seen;
	tap_ok(scoped_fd(false, &seen) == -1 && errno == ENOENT,
	       "a failing function returns with its own errno after the close");
	tap_ok(seen >= 0 && !fd_open(seen), "AUTOCLOSE closed the descriptor");
	int kept = scoped_fd(true, &seen);
	tap_ok(kept == seen && fd_open(kept), "steal_fd handed it on open");
	close(kept);
	int none = -1;
	tap_ok(steal_fd(&none) == -1, "stealing -1 gives -1");
}

static FILE *scoped_file(bool keep, int *fd)
{
	FILE *f AUTOFCLOSE = fopen("/dev/null", "re");
	*fd = f ? fileno(f) : -1;
	return keep ? steal_ptr(&f) : NULL;
}

static DIR *scoped_dir(bool keep, int *fd)
{
	DIR *d AUTOCLOSEDIR = opendir("/");
	*fd = d ? dirfd(d) : -1;
	return keep ? steal_ptr(&d) : NULL;
}

static void test_streams(void)
{
	int fd;
	tap_ok(!scoped_file(false, &fd) && fd >= 0 && !fd_open(fd),
	       "AUTOFCLOSE closed the stream");
	FILE *f = scoped_file(true, &fd);
	tap_ok(f && fileno(f) == fd && fd_open(fd), "steal_ptr handed the stream on");
	if (f)
		fclose(f);
	tap_ok(!scoped_dir(false, &fd) && fd >= 0 && !fd_open(fd),
	       "AUTOCLOSEDIR closed the directory");
	DIR *d = scoped_dir(true, &fd);
	tap_ok(d && dirfd(d) == fd && fd_open(fd), "steal_ptr handed the directory on");
	if (d)
		closedir(d);
}

/* The sanitizers' leak check (make sanitize) sees what is not freed. */
static char *scoped_text(bool keep)
{
	char *text AUTOFREE = xstrdup("kept");
	char *other AUTOFREE = NULL;
	(void)other;
	errno = EPERM;
	return keep ? steal_ptr(&text) : NULL;
}

static void test_memory(void)
{
	tap_ok(!scoped_text(false) && errno == EPERM, "AUTOFREE frees, errno kept");
	char *text = scoped_text(true);
	tap_is_str(text, "kept", "steal_ptr handed the memory on");
	char *owned = steal_ptr(&text);
	tap_ok(owned && !text, "stealing again leaves NULL behind");
	free(owned);
}

static void test_dir_stream(void)
{
	int root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dir_stream(root);
	tap_ok(d && dirfd(d) != root && fd_open(root), "dir_stream has a descriptor of its own");
	if (d)
		closedir(d);
	tap_ok(fd_open(root), "and the directory stays open after the stream closes");
	close(root);
	errno = 0;
	tap_ok(!dir_stream(-1) && errno == EBADF, "no directory: NULL with errno");
}

static void test_array_size(void)
{
	static const char *const names[] = { "a", "b", "c" };
	struct { int x[7]; } s;
	tap_ok(ARRAY_SIZE(names) == 3 && ARRAY_SIZE(s.x) == 7, "ARRAY_SIZE counts elements");
}

int main(void)
{
	test_fds();
	test_streams();
	test_memory();
	test_dir_stream();
	test_array_size();
	return tap_done();
}
