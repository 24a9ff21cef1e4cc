/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Credentials of the engine's session process: whose file-system identity
 * the build uses, and the final switch to the user. */
#ifndef COCOON_CREDENTIALS_H
#define COCOON_CREDENTIALS_H

#include <stdbool.h>

#include "error.h"
#include "identity.h"

/* File-system identity during the build. The build runs with the user's
 * supplementary groups and, by default, the user's fsuid/fsgid: what it
 * creates belongs to the user (as with bubblewrap) and what it opens in
 * the user's directories is only what the user could open, through NFS
 * root squashing too. Mounting needs CAP_SYS_ADMIN, which the fsuid does
 * not touch. creds_fs_root() gives root's identity back for the few opens
 * of root-controlled paths that need it. */
int creds_build_begin(const struct identity *who, struct cc_error *err);
int creds_fs_user(const struct identity *who, struct cc_error *err);
int creds_fs_root(struct cc_error *err);

/* For a judgement made ahead of a session (cocoonctl check opening a
 * bind source as the session will): the user's fsuid, fsgid and
 * supplementary groups, the caller's groups kept in SAVED; and back to
 * root's ids and the saved groups, which also frees SAVED. */
struct creds_saved {
	gid_t *groups;
	int ngroups;
};
int creds_open_as_user(const struct identity *who, struct creds_saved *saved,
		       struct cc_error *err);
int creds_open_as_root(struct creds_saved *saved, struct cc_error *err);

/* The switch to the user, after pivot_root: ambient capabilities and the
 * bounding set dropped, setgroups, setresgid, setresuid, dumpable off,
 * every capability set emptied, and a check that root cannot be
 * regained. */
int creds_become_user(const struct identity *who, struct cc_error *err);
/* The ids alone switched to the user's, with the same read-back and
 * check that root cannot be regained: an unconfined login (sandbox =
 * none) keeps its capability bounding set, for the setuid programs it
 * may run, as a login without cocoon would. */
int creds_switch_user(const struct identity *who, struct cc_error *err);
/* Every uid and gid 0, checked: a setuid entry point's real ids are the
 * caller's, who could otherwise signal or trace the privileged setup. */
int creds_take_root(struct cc_error *err);
/* The bounding set emptied (again, in a new user namespace). */
int creds_drop_bounding(struct cc_error *err);
/* Every capability set emptied, and checked (again, in a new user
 * namespace). */
int creds_drop_all(struct cc_error *err);

#endif
