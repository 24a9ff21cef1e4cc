/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A session's share of the host's ptys (pty_quota.c).
 *
 * Every devpts instance but the host's draws on one pool,
 * kernel.pty.max - kernel.pty.reserve, and devpts can bound each
 * instance (max=) but not a user. So a session gets its own bound, its
 * grant: min(pty-max, pty-max-user - what the user's other live sessions
 * were granted), kept in its record. Grants are counted and written
 * under a lock of the user's (a file in the record directory) that is
 * taken before the grant is counted and let go once the session's
 * record exists, so that two logins of one user cannot both count
 * before either is written; the record's publication takes it again.
 * Stale records count for nothing. */
#ifndef COCOON_PTY_QUOTA_H
#define COCOON_PTY_QUOTA_H

#include <sys/types.h>

#include "error.h"
#include "plan.h"
#include "records.h"

/* How long a login waits for the user's other logins to be written
 * before it is refused. One holds the lock for milliseconds, but 100
 * logins of one user at once on two busy cores queue for 4 s (measured);
 * a holder stopped for longer (the user can stop a setuid cocoon-shell,
 * whose real uid is theirs) harms only that user's logins. */
#define PTY_QUOTA_WAIT_MS 30000

struct pty_quota {
	int lock;      /* the user's lock, held; -1: none */
	uid_t uid;
	unsigned ptys; /* the grant: what the session's devpts may hold */
};

/* Grant PLAN's session its ptys, holding the user's lock until
 * pty_quota_release. ID is the session's (its record will hold the
 * grant); without one nothing is recorded, so a plan with a total is
 * refused. Refused (-1, why in err) when the user's live sessions hold
 * the whole pty-max-user already. */
int pty_quota_take(const struct plan *plan, const char *id, struct pty_quota *q,
		   struct cc_error *err);
/* Let the lock go (the record is written, or the session failed).
 * Idempotent. */
void pty_quota_release(struct pty_quota *q);
/* Publish a session's record (record_publish) holding the user's lock
 * again: a count reads the record directory, and readdir may pass over
 * an entry renamed while it runs (Linux 6.1's tmpfs did: a fourth
 * session of four at once under pty-max-user = 3), and a count that
 * saw the temporary name may find it gone. On failure the record is
 * discarded, as record_publish does. */
int pty_quota_publish(uid_t uid, struct record_pending *pending, struct cc_error *err);

#endif
