/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether a plan is safe to build (plan_check.c): every judgement of
 * that kind, over one list of the host's system paths. */
#ifndef COCOON_PLAN_CHECK_H
#define COCOON_PLAN_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "plan.h"

/* Reject what the engine cannot run safely before anything is created:
 * destinations that are not absolute and normalised, bind sources that
 * are not absolute, operations that need a namespace the plan lacks. */
int plan_check_shape(const struct plan *plan, struct cc_error *err);

/* After plan_expand: mark each bind whose source a non-root uid can
 * write, and refuse a plan where root would create inside one. */
int plan_check_expanded(struct plan *plan, struct cc_error *err);

/* The first op that root would create inside a bind whose source a
 * non-root uid can write (symbolic: judge sources as written, with
 * tokens; else use op->source_user_writable), and that bind. */
const struct fs_op *plan_find_unsafe_creation(const struct plan *plan,
					      bool symbolic,
					      const struct fs_op **bind);
void plan_describe_unsafe_creation(const struct fs_op *later, const struct fs_op *bind,
				   char *buf, size_t size);
/* A bind source written with tokens is the user's (their home, their
 * name); any other is judged by plan_path_user_writable. */
bool plan_source_writable_symbolic(const char *source);
/* True when a non-root uid can write PATH, a directory its resolution
 * passes through, or a symlink it follows. */
bool plan_path_user_writable(const char *path);

/* A hostname without a uts namespace would rename the host: judged here
 * only. The merge reports it at the directive's line; every mode refuses
 * it with plan_check_hostname. */
bool plan_hostname_renames_host(const struct plan *plan);
int plan_check_hostname(const struct plan *plan, struct cc_error *err);

/* Refuse a plan that service mode (pam_cocoon) cannot run: no sandbox,
 * a user namespace (it cannot hold a root service), no pid namespace (it
 * ends the session), a seccomp filter without no_new_privs (the user's
 * launcher loads it), a hostname without a uts namespace. */
int plan_check_service_mode(const struct plan *plan, struct cc_error *err);
/* plan_check_service_mode, then refuse a plan whose system paths (/,
 * /etc, /usr, /lib*, /bin, /sbin, /dev, /run, /var) come from a source a
 * non-root uid can write or from a user-owned `dir`, or that fails
 * plan_check_code_paths: a root service reads them. */
int plan_check_service(const struct plan *plan, struct cc_error *err);
/* The first system path plan_check_service judges that OP's destination
 * is at, above or below, or NULL. */
const char *plan_op_service_path(const struct fs_op *op);
/* The system paths plan_check_service judges, by index; NULL past the
 * last. */
const char *plan_service_system_path(size_t i);
/* Refuse a plan that lets the session's user write below /etc, /usr,
 * /lib*, /bin, /sbin, /run/nscd, /run/systemd or /run/dbus (a `dir`, a
 * tmpfs home, a tmpfs, file or chmod that others may write, a symlink
 * leading elsewhere), where READER, a root process in the session's
 * tree, reads configuration, runs code (/etc/pam.d, update-motd.d,
 * profile.d) and asks the name service. */
int plan_check_code_paths(const struct plan *plan, const char *reader,
			  struct cc_error *err);

/* The mode a tmpfs op's root gets: its mode=, else 0755, or in service
 * mode (SERVICE), where it is root's, 01777 but at a system path. */
unsigned plan_tmpfs_mode(const struct fs_op *op, bool service);

#endif
