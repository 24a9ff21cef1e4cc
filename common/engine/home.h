/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Guest accounts on the host's disk: the skeleton a tmpfs home is seeded
 * from, and the persistent instances of private temporary directories.
 * Both run as root while the sandbox is built, before the user has any
 * process in it, and never follow a symlink. */
#ifndef COCOON_HOME_H
#define COCOON_HOME_H

#include <sys/types.h>

#include "error.h"

/* Directories deeper than this below the skeleton are refused. */
#define SKEL_MAX_DEPTH 16

/* Open the skeleton directory PATH (O_PATH): it and every directory above
 * it must pass the policy files' trust rule (root-owned, not writable by
 * group or others), since one guest must not plant files for the next. */
int home_skel_open(const char *path, struct cc_error *err);

/* Copy the tree under SKEL (from home_skel_open) into the directory DST:
 * directories, regular files and symlinks (as symlinks); devices, fifos
 * and sockets are skipped. Every entry must be root's and not writable by
 * group or others. The copies belong to UID:GID; set-id bits are dropped.
 * Running out of space is an error naming the file. */
int home_skel_copy(int skel, const char *path, int dst, uid_t uid, gid_t gid,
		   struct cc_error *err);

/* The persistent instance SOURCE, which must read
 * COCOON_PRIVATE_TMP_DIR/UID/NAME: every level made (or found) through
 * descriptors with O_NOFOLLOW and checked with fstat: the state
 * directory and private-tmp root's 0755, UID's directory root's 0700 (the
 * user can never reach the chain), the instance root's 01777. Returns an
 * O_PATH descriptor of the instance. */
int home_private_tmp_instance(const char *source, uid_t uid, struct cc_error *err);

#endif
