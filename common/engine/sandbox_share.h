/* SPDX-License-Identifier: GPL-2.0-or-later */
/* share-sandbox on the host: how a login finds the shared sandbox of its
 * user and plan, joins it, or, being the first, creates it while the
 * others wait (cocoon.conf(5), share-sandbox).
 *
 * A shared sandbox is known by (uid, plan hash): a lock and a socket in
 * the record directory (root's, 0700), ".share-UID-HASH.lock" and
 * ".share-UID-HASH.sock". The socket's listener is the sandbox's pid 1,
 * cocoon-init, which counts the logins attached (session_init.h); a
 * socket nobody listens on is what an ended sandbox leaves. The lock is
 * held from the look for a live sandbox until the login has joined or
 * has built one whose pid 1 listens: two first logins make one sandbox. */
#ifndef COCOON_SANDBOX_SHARE_H
#define COCOON_SANDBOX_SHARE_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"

struct share_slot {
	int dir;  /* the record directory; -1: no slot */
	int lock; /* held (flock) while open */
	char name[64]; /* ".share-UID-HASH", without the suffix */
};

/* Open and lock the slot of UID's sandbox of plan HASH. */
int share_slot_open(uid_t uid, const char *hash, struct share_slot *slot,
		    struct cc_error *err);
/* Unlock and close (idempotent). */
void share_slot_close(struct share_slot *slot);

/* What a live shared sandbox tells a login that joins it. */
struct share_joined {
	int init_pidfd;     /* its pid 1's */
	char id[65];        /* its id, its first login's session id */
	long long deadline; /* max-session-time's CLOCK_BOOTTIME second (0: none) */
};
/* Attach the service behind SERVICE_PIDFD to the slot's live sandbox:
 * 1 with *JOINED filled, 0 when none lives (or it is ending). */
int share_join(const struct share_slot *slot, int service_pidfd,
	       struct share_joined *joined, struct cc_error *err);

/* A new listening socket in the slot for the pid 1 about to be made;
 * close-on-exec (the engine hands it over). */
int share_listen(const struct share_slot *slot, struct cc_error *err);

/* Hand the slot's live sandbox, just created, the template of its end
 * record and the log socket LOG_FD (session_init.h, SHARE_RECORD). */
int share_give_record(const struct share_slot *slot, int log_fd, const char *template,
		      struct cc_error *err);

/* The slot files of UID's sandbox of plan HASH in the record directory
 * DIR removed, once that sandbox has ended (its record is stale): not
 * while a login holds the lock (it is creating or joining one) nor while
 * a sandbox listens on the socket. share_slot_open, which may have
 * opened the lock file just before, takes the new one. */
void share_slot_remove(int dir, uid_t uid, const char *hash);

/* What the live sandbox of UID and HASH says of itself: its logins, and
 * the seconds left of its linger (-1: none running). 1 when it answered,
 * 0 when none lives. */
int share_status(uid_t uid, const char *hash, size_t *logins, long long *linger_left,
		 struct cc_error *err);

#endif
