/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The session's system call filter: a deny-list built with libseccomp.
 *
 * Everything that can fail slowly or needs the policy (reading and
 * checking a `seccomp = FILE`, building the BPF program) happens in
 * seccomp_prepare, before the sandbox exists. Loading is one system call.
 *
 * Loading order: the filter never turns no_new_privs on by itself, so
 * the plan's `no_new_privs` keeps its meaning. The kernel accepts a
 * filter from a process that has no_new_privs set or that holds
 * CAP_SYS_ADMIN in its user namespace. The engine should therefore load
 * it as the last privileged step of the session process, after the last
 * mount and just before setgroups/setresgid/setresuid: that works with
 * no_new_privs on or off, and the filter then also binds setuid programs
 * run inside (sudo with no_new_privs = off). Loading after the switch to
 * the user works only when no_new_privs was set first; otherwise it fails
 * with a message saying so. The filter refuses nothing the identity
 * switch or the final execve needs.
 *
 * The filter covers the calling thread only (no TSYNC): the session
 * process is single-threaded when it loads it. */
#ifndef COCOON_SECCOMP_H
#define COCOON_SECCOMP_H

#include "error.h"
#include "plan.h"

/* A ready-to-load filter (opaque). */
struct seccomp_filter;

/* Build the filter the plan asks for. SECCOMP_DEFAULT copies the program
 * generated at build time (no libseccomp work). With SECCOMP_FILE, the
 * file must be absolute, owned by root and not writable by group or
 * others, as must every directory above it; its rules add to the default
 * ones. With SECCOMP_NONE the result loads nothing. Returns NULL with err
 * set on failure; a bad line is reported as "FILE:LINE: message". */
struct seccomp_filter *seccomp_prepare(const struct plan *plan,
				       struct cc_error *err);

/* Install the filter on the calling thread (see the loading order above).
 * Allocates nothing: on success it is one system call, so it is fit for
 * a child forked from a multithreaded process. */
int seccomp_load_filter(struct seccomp_filter *filter, struct cc_error *err);

void seccomp_filter_free(struct seccomp_filter *filter);

/* The prepared BPF program (struct sock_filter array) and its size in
 * bytes, for a loader in another process (cocoon-launch); *data NULL and
 * *len 0 when the filter loads nothing. */
int seccomp_filter_program(const struct seccomp_filter *filter, const void **data,
			   size_t *len);

/* The `seccomp = default` filter built by libseccomp now, never the copy
 * generated at build time that seccomp_prepare uses: for the generator
 * (tools/gen-seccomp.c) and the test that the two are the same program.
 * NULL with err set on failure. */
struct seccomp_filter *seccomp_build_default(struct cc_error *err);

#endif
