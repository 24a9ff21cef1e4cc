// SPDX-License-Identifier: GPL-2.0-or-later
/* share-sandbox on the host: find, join or create a user's shared sandbox. */
#include "sandbox_share.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "records.h"
#include "report.h"
#include "session_init.h"
#include "util.h"

/* How long pid 1 may take to answer: it serves one request at a time,
 * each bounded by a second (session_init.c). */
#define SHARE_ANSWER_MS 5000
/* How many times a login takes the lock again when the slot's files were
 * removed under it (share_slot_remove): once is the usual. */
#define SHARE_LOCK_TRIES 100

static bool hash_valid(const char *hash)
{
	size_t n = strlen(hash);
	return n > 0 && n <= 16 && strspn(hash, "0123456789abcdef") == n;
}

int share_slot_open(uid_t uid, const char *hash, struct share_slot *slot,
		    struct cc_error *err)
{
	slot->dir = slot->lock = -1;
	if (!hash_valid(hash))
		return cc_fail(err, "share-sandbox: the plan has no hash");
	snprintf(slot->name, sizeof(slot->name), ".share-%u-%s", (unsigned)uid, hash);
	int dir AUTOCLOSE = record_dir_open(true, err);
	if (dir < 0)
		return -1;
	char lock_name[80];
	snprintf(lock_name, sizeof(lock_name), "%s.lock", slot->name);
	int lock AUTOCLOSE = -1;
	/* share_slot_remove unlinks the lock file under its lock: one opened
	 * just before and locked after names nothing any more, and guards
	 * nothing. The lock is the file the name still has once held. */
	for (int tries = 0;; tries++) {
		autoclose_fd(&lock);
		lock = openat(dir, lock_name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (lock < 0)
			return cc_fail_errno(err, "share-sandbox: %s/%s", COCOON_RUNDIR, lock_name);
		int rc;
		while ((rc = flock(lock, LOCK_EX)) < 0 && errno == EINTR)
			;
		if (rc < 0)
			return cc_fail_errno(err, "share-sandbox: locking %s/%s", COCOON_RUNDIR,
					     lock_name);
		struct stat held, named;
		if (fstat(lock, &held) < 0)
			return cc_fail_errno(err, "share-sandbox: %s/%s", COCOON_RUNDIR, lock_name);
		if (fstatat(dir, lock_name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
		    stat_same_file(&held, &named))
			break;
		if (tries == SHARE_LOCK_TRIES)
			return cc_fail(err, "share-sandbox: %s/%s is removed each time it is "
				       "locked", COCOON_RUNDIR, lock_name);
	}
	slot->dir = steal_fd(&dir);
	slot->lock = steal_fd(&lock);
	return 0;
}

void share_slot_close(struct share_slot *slot)
{
	autoclose_fd(&slot->lock);
	autoclose_fd(&slot->dir);
}

/* The socket's address, through the directory's descriptor: no path of
 * the record directory is walked again, and its length is bounded. */
static void slot_address(int dir, const char *name, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof(sa->sun_path), "/proc/self/fd/%d/%s.sock", dir, name);
}

/* A connection to the live sandbox's pid 1: the socket, or -1 with errno
 * ECONNREFUSED or ENOENT when none listens. */
static int connect_slot(int dir, const char *name)
{
	struct sockaddr_un sa;
	slot_address(dir, name, &sa);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* pid 1's answer on CONN into BUF: its length, 0 when it closed without
 * one (it is ending), -1 on an error. */
static ssize_t answer(int conn, char *buf, size_t size, int *fd, struct cc_error *err)
{
	struct pollfd p = { conn, POLLIN, 0 };
	int n;
	while ((n = poll(&p, 1, SHARE_ANSWER_MS)) < 0 && errno == EINTR)
		;
	if (n == 0)
		return cc_fail(err, "share-sandbox: the shared sandbox did not answer");
	ssize_t got = n < 0 ? -1 : report_recv(conn, 0, buf, size, fd);
	if (got < 0 && errno == ECONNRESET)
		return 0;
	if (got < 0)
		return cc_fail_errno(err, "share-sandbox: the shared sandbox's answer");
	return got;
}

int share_join(const struct share_slot *slot, int service_pidfd,
	       struct share_joined *joined, struct cc_error *err)
{
	joined->init_pidfd = -1;
	joined->id[0] = '\0';
	joined->deadline = 0;
	int conn AUTOCLOSE = connect_slot(slot->dir, slot->name);
	if (conn < 0 && (errno == ECONNREFUSED || errno == ENOENT))
		return 0;
	if (conn < 0)
		return cc_fail_errno(err, "share-sandbox: connecting to %s/%s.sock",
				     COCOON_RUNDIR, slot->name);
	if (report_send_fd(conn, (enum report_msg)SHARE_JOIN, service_pidfd) < 0)
		return errno == EPIPE || errno == ECONNRESET ? 0 :
		       cc_fail_errno(err, "share-sandbox: joining");
	char buf[80];
	int fd = -1;
	ssize_t got = answer(conn, buf, sizeof(buf), &fd, err);
	if (got < 0)
		return -1;
	char *space = got > 0 ? strchr(buf + 1, ' ') : NULL;
	if (space) {
		*space = '\0';
		joined->deadline = strtoll(space + 1, NULL, 10);
	}
	snprintf(joined->id, sizeof(joined->id), "%s", got > 0 ? buf + 1 : "");
	if (got == 0 || buf[0] != SHARE_JOINED || fd < 0) {
		if (fd >= 0)
			close(fd);
		/* Ending, or full (SHARE_LOGINS_MAX): not a sandbox to join. */
		return got == 0 ? 0 : cc_fail(err, "share-sandbox: the shared sandbox "
					     "refused the login (%d logins at most)",
					     SHARE_LOGINS_MAX);
	}
	joined->init_pidfd = fd;
	return 1;
}

int share_listen(const struct share_slot *slot, struct cc_error *err)
{
	char sock_name[80];
	snprintf(sock_name, sizeof(sock_name), "%s.sock", slot->name);
	if (unlinkat(slot->dir, sock_name, 0) < 0 && errno != ENOENT)
		return cc_fail_errno(err, "share-sandbox: %s/%s", COCOON_RUNDIR, sock_name);
	int fd AUTOCLOSE = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa;
	slot_address(slot->dir, slot->name, &sa);
	/* Root's alone, in a directory of root's alone; pid 1 checks the
	 * asker's uid as well. */
	mode_t old = umask(0177);
	int rc = fd < 0 ? -1 : bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc < 0 || listen(fd, 64) < 0)
		return cc_fail_errno(err, "share-sandbox: listening on %s/%s", COCOON_RUNDIR,
				     sock_name);
	return steal_fd(&fd);
}

int share_give_record(const struct share_slot *slot, int log_fd, const char *template,
		      struct cc_error *err)
{
	int conn AUTOCLOSE = connect_slot(slot->dir, slot->name);
	if (conn < 0)
		return cc_fail_errno(err, "share-sandbox: connecting to %s/%s.sock",
				     COCOON_RUNDIR, slot->name);
	if (report_send_fd(conn, (enum report_msg)SHARE_RECORD, log_fd) < 0 ||
	    write_full(conn, template, strlen(template)) < 0 || shutdown(conn, SHUT_WR) < 0)
		return cc_fail_errno(err, "share-sandbox: handing over the end record");
	char buf[8];
	int fd = -1;
	ssize_t got = answer(conn, buf, sizeof(buf), &fd, err);
	if (fd >= 0)
		close(fd);
	if (got < 0)
		return -1;
	if (got == 0 || buf[0] != SHARE_RECORDED)
		return cc_fail(err, "share-sandbox: the shared sandbox did not take its end record");
	return 0;
}

void share_slot_remove(int dir, uid_t uid, const char *hash)
{
	if (!hash_valid(hash))
		return;
	char name[64], lock_name[80], sock_name[80];
	snprintf(name, sizeof(name), ".share-%u-%s", (unsigned)uid, hash);
	snprintf(lock_name, sizeof(lock_name), "%s.lock", name);
	snprintf(sock_name, sizeof(sock_name), "%s.sock", name);
	int lock AUTOCLOSE = openat(dir, lock_name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	/* A login holds it (it joins or creates): the slot is in use. */
	if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) < 0)
		return;
	struct stat held, named;
	if (fstat(lock, &held) < 0 || fstatat(dir, lock_name, &named, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !stat_same_file(&held, &named))
		return;
	/* A later sandbox of the same plan lives on in the slot. */
	int conn AUTOCLOSE = connect_slot(dir, name);
	if (conn >= 0 || (errno != ECONNREFUSED && errno != ENOENT))
		return;
	/* The socket first: a lock file with no socket is a slot with no
	 * sandbox, as a new one is. */
	unlinkat(dir, sock_name, 0);
	unlinkat(dir, lock_name, 0);
}

int share_status(uid_t uid, const char *hash, size_t *logins, long long *linger_left,
		 struct cc_error *err)
{
	*logins = 0;
	*linger_left = -1;
	if (!hash_valid(hash))
		return 0;
	char name[64];
	snprintf(name, sizeof(name), ".share-%u-%s", (unsigned)uid, hash);
	int dir AUTOCLOSE = record_dir_open(false, err);
	if (dir < 0)
		return -1;
	int conn AUTOCLOSE = connect_slot(dir, name);
	if (conn < 0)
		return 0;
	if (report_send(conn, (enum report_msg)SHARE_STATUS) < 0)
		return 0;
	char buf[64];
	int fd = -1;
	ssize_t got = answer(conn, buf, sizeof(buf), &fd, err);
	if (fd >= 0)
		close(fd);
	unsigned long long n;
	long long left;
	if (got <= 0 || sscanf(buf, "%llu %lld", &n, &left) != 2)
		return got < 0 ? -1 : 0;
	*logins = (size_t)n;
	*linger_left = left;
	return 1;
}
