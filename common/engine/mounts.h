/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building a sandbox's root: a tmpfs, the plan's operations run on it in
 * order, then pivot_root. Runs as root in the session process, inside a
 * fresh mount namespace whose propagation is already private. */
#ifndef COCOON_MOUNTS_H
#define COCOON_MOUNTS_H

#include "error.h"
#include "plan.h"

/* Mount the root tmpfs and run every operation of PLAN on it. On success
 * *rootfd is the topmost mount at the sandbox's root (what pivot_root
 * makes the new root). Expects creds_build_begin() to have run: the
 * user's file-system identity is the default while building. A `dev`
 * gets a devpts of at most PTYS ptys (the session's grant, pty_quota.h;
 * 0 fails). Then, in every mode, /var/run leads to /run where the plan
 * made a /var without one. */
#define MOUNTS_SERVICE 1u /* a root service process will live in the result */
int mounts_build(const struct plan *plan, unsigned flags, unsigned ptys, int *rootfd,
		 struct cc_error *err);

/* Service mode, after mounts_build: what a PAM service inside needs.
 * The host's login records (/run/utmp, /var/log/{w,b}tmp, lastlog) and
 * /dev/log bound when the host has them (missing parents made, root's);
 * a read-only tmpfs at /run/cocoon holding `launch` (the launcher's
 * settings), `seccomp.bpf`, `id` (the session's id) and `shell` (the real
 * shell, bound from inside the new root); the
 * launcher bound over the login shell's path. Runs with root's
 * file-system identity. */
struct service_setup {
	const char *launch;      /* text of /run/cocoon/launch */
	const char *id;          /* text of /run/cocoon/id (0444); NULL: none */
	const void *bpf;         /* the exported filter; NULL: none */
	size_t bpf_len;
	const char *launcher;    /* cocoon-launch, a host path */
	const char *login_shell; /* path inside the sandbox the launcher covers */
	const char *real_shell;  /* path inside the sandbox of the real shell */
};
int mounts_service_setup(const struct plan *plan, int rootfd,
			 const struct service_setup *s, struct cc_error *err);

/* Run mode, after mounts_build: a read-only tmpfs of root's at
 * /run/cocoon holding `session` (0444): what confines the session with
 * id ID (plan_print_session), for `cocoonctl why`, out of the user's
 * reach to change. /run/cocoon is made only in the sandbox's own
 * memory (the root tmpfs, or a `tmpfs`); a plan where it is missing
 * elsewhere, or cannot be made (a read-only /run), gets none. Service mode writes the same file beside
 * its own (mounts_service_setup). */
int mounts_session_info(const struct plan *plan, int rootfd, const char *id,
			struct cc_error *err);

/* Make ROOTFD the root and detach the old one. Afterwards nothing of the
 * host's tree is reachable by path. */
int mounts_pivot(int rootfd, struct cc_error *err);

/* In a process alone in a fresh mount namespace, run before anything
 * else there: when the process's root is not the namespace's (the caller
 * runs chrooted), make a copy of that root, with its mounts, the
 * namespace's root and detach the rest, so that whoever joins the
 * namespace later (setns resets the root to the namespace's) lands in
 * what the chroot showed, never in the tree around it. Returns 1 when it
 * did so, 0 when the root was already the namespace's (the working
 * directory is then "/"), -1 with ERR (an error number, not its text).
 * System calls only. */
int mounts_chroot_to_namespace(struct cc_error *err);
/* Whether the calling process's root is its mount namespace's (false
 * when that cannot be told): it is not chrooted. A vfork'd child looks. */
bool mounts_root_is_namespaces(void);

/* The login's terminal, stdin, by name in the sandbox's /dev
 * (mounts_terminal.c). Copy: in the host's namespace, *TREE a detached
 * copy of its node's mount, or -1 when stdin is no terminal this
 * namespace can name. Attach: in the sandbox's namespace, as root, that
 * copy bound on /dev/NAME, a new entry. Detach: unbound and removed. */
int mounts_terminal_copy(int *tree, struct cc_error *err);
int mounts_terminal_attach(int tree, const char *name, struct cc_error *err);
void mounts_terminal_detach(const char *name);

#endif
