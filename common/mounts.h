/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building a sandbox's root: a tmpfs, the plan's operations run on it in
 * order, then pivot_root. Runs as root in the session process, inside a
 * fresh mount namespace whose propagation is already private. */
#ifndef COCOON_MOUNTS_H
#define COCOON_MOUNTS_H

#include "error.h"
#include "plan.h"

/* Reject what the engine cannot run safely before anything is created:
 * destinations that are not absolute and normalised, bind sources that
 * are not absolute, operations that need a namespace the plan lacks. */
int mounts_check_plan(const struct plan *plan, struct cc_error *err);

/* Mount the root tmpfs and run every operation of PLAN on it. On success
 * *rootfd is the topmost mount at the sandbox's root (what pivot_root
 * makes the new root). Expects creds_build_begin() to have run: the
 * user's file-system identity is the default while building. */
int mounts_build(const struct plan *plan, int *rootfd, struct cc_error *err);

/* Make ROOTFD the root and detach the old one. Afterwards nothing of the
 * host's tree is reachable by path. */
int mounts_pivot(int rootfd, struct cc_error *err);

#endif
