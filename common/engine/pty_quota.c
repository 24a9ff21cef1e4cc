// SPDX-License-Identifier: GPL-2.0-or-later
/* The user's pty total shared out among their live sessions. */
/* A new session's share of the user's pty total, counted under the
 * user's lock from the records of the user's live sessions. */
#include "pty_quota.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"
#include "records.h"
#include "util.h"

static void lock_name(char *buf, size_t size, uid_t uid)
{
	/* A dot name: `list` and the sweep of stale records pass it by. */
	snprintf(buf, size, ".ptys-%u.lock", (unsigned)uid);
}

/* The lock file stays only while held: its holder removes it before
 * letting go, so whoever was waiting may hold a file no longer there
 * and must take the one that is. */
static int lock_user(int dir, uid_t uid, struct cc_error *err)
{
	char name[32];
	lock_name(name, sizeof(name), uid);
	const struct timespec pause = { 0, 10 * 1000 * 1000 };
	for (int waited = 0;;) {
		int fd AUTOCLOSE = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW |
					  O_CLOEXEC, 0600);
		if (fd < 0)
			return cc_fail_errno(err, "the pty lock %s/%s", COCOON_RUNDIR, name);
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			struct stat held, now;
			if (fstat(fd, &held) == 0 &&
			    fstatat(dir, name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
			    stat_same_file(&held, &now))
				return steal_fd(&fd);
		} else if (errno != EWOULDBLOCK && errno != EINTR)
			return cc_fail_errno(err, "locking %s/%s", COCOON_RUNDIR, name);
		autoclose_fd(&fd); /* not during the pause */
		if (waited >= PTY_QUOTA_WAIT_MS)
			return cc_fail(err, "another session of uid %u has been starting for "
				       "%d s (it holds %s/%s): refusing this one",
				       (unsigned)uid, PTY_QUOTA_WAIT_MS / 1000, COCOON_RUNDIR,
				       name);
		nanosleep(&pause, NULL);
		waited += 10;
	}
}

int pty_quota_take(const struct plan *plan, const char *id, struct pty_quota *q,
		   struct cc_error *err)
{
	q->lock = -1;
	q->uid = plan->who.uid;
	q->ptys = plan->pty_max;
	/* devpts reads max=0 as no limit at all. */
	if (!plan->pty_max)
		return cc_fail(err, "pty-max is 0: the session's devpts would have no limit");
	if (!id) {
		if (plan->pty_max_user)
			return cc_fail(err, "pty-max-user is counted from the sessions' "
				       "records, and this session has none");
		return 0;
	}
	if (FAULT("granting ptys", err) < 0)
		return -1;
	int dir = record_dir_open(true, err);
	if (dir < 0)
		return -1;
	/* Even without a total of its own, the session's record is written
	 * under the lock: a total counts it, whole. */
	q->lock = lock_user(dir, plan->who.uid, err);
	int rc = q->lock < 0 ? -1 : 0;
	unsigned long long held = 0;
	size_t sessions = 0;
	if (rc == 0 && plan->pty_max_user &&
	    (rc = records_ptys_held(dir, plan->who.uid, &held, &sessions, err)) == 0) {
		unsigned long long left = held >= plan->pty_max_user
						  ? 0 : plan->pty_max_user - held;
		if (!left)
			rc = cc_fail(err, "%s's %zu live session%s hold%s %llu ptys, and "
				     "pty-max-user is %u: refusing a new session",
				     plan->who.user, sessions, sessions == 1 ? "" : "s",
				     sessions == 1 ? "s" : "", held, plan->pty_max_user);
		else if (left < q->ptys)
			q->ptys = (unsigned)left;
	}
	if (rc < 0)
		pty_quota_release(q);
	close(dir);
	return rc;
}

void pty_quota_release(struct pty_quota *q)
{
	if (q->lock < 0)
		return;
	/* Removed while held (see lock_user), through the record directory
	 * opened again: the children cloned meanwhile get no descriptor of
	 * a host directory. */
	struct cc_error ignored;
	int dir = record_dir_open(false, &ignored);
	if (dir >= 0) {
		char name[32];
		lock_name(name, sizeof(name), q->uid);
		unlinkat(dir, name, 0);
		close(dir);
	}
	flock(q->lock, LOCK_UN);
	close(q->lock);
	q->lock = -1;
}

int pty_quota_publish(uid_t uid, struct record_pending *pending, struct cc_error *err)
{
	if (pending->dir < 0)
		return 0;
	/* The directory the record was prepared in, still open. */
	struct pty_quota q = { .uid = uid, .lock = lock_user(pending->dir, uid, err) };
	if (q.lock < 0) {
		record_discard(pending);
		return -1;
	}
	int rc = record_publish(pending, err);
	pty_quota_release(&q);
	return rc;
}
