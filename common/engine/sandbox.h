/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine: execute a plan. Runs as root; builds the namespaces and the
 * new root, starts cocoon-init as pid 1, switches to the user and execs
 * the command. */
#ifndef COCOON_SANDBOX_H
#define COCOON_SANDBOX_H

#include <stdbool.h>
#include <sys/resource.h>

#include "error.h"
#include "plan.h"

struct sandbox_request {
	const struct plan *plan;
	const char *path;    /* executable to run inside the sandbox */
	char *const *argv;   /* its argv (argv[0] may start with '-') */
	char *const *envp;   /* its complete environment */
	const char *init_path; /* cocoon-init on the host (service mode) */
	/* Service mode: the real shell the front door chose (admission.h's
	 * shell), which the sandbox holds where the login shell's path
	 * runs cocoon-launch. */
	const char *real_shell;
	/* When set (RLIM_NLIMITS entries), applied to the session process
	 * just before exec: the caller's own limits, which a setuid entry
	 * point replaced with known ones for its privileged work. */
	const struct rlimit *session_rlimits;
	/* Service mode (sandbox_enter) only: cocoon-launch on the host, and
	 * the session's id, written to the sandbox's /run/cocoon/id (NULL:
	 * none). */
	const char *launcher_path;
	const char *session_id;
	/* Session limits: service mode under systemd, where pam_systemd
	 * applies the cgroup limits, makes no cgroup of its own; when set,
	 * *expired tells whether max-session-time ended the session
	 * (sandbox_run). */
	bool systemd_cgroup;
	bool *expired;
	/* Under systemd, what makes a shared sandbox's scope
	 * (systemd_scope_start, which needs libsystemd); NULL: a login under
	 * systemd with SYSTEMD_CGROUP builds a sandbox of its own,
	 * share-sandbox or not. */
	int (*start_scope)(const char *unit, uid_t uid, const struct session_limits *limits,
			   struct cc_error *err);
	/* Run mode: a login's session (cocoon-shell), which ends when the
	 * login does: when LOGIN_PARENT (the process that started the
	 * caller, read before anything else: sshd's session child, su,
	 * login; 0: unknown) ends, when the caller gets SIGHUP or SIGTERM,
	 * or when its controlling terminal hangs up (sandbox_run.c, A
	 * LOGIN'S END). Its command starts with every signal disposition
	 * default and none blocked, whatever the caller ignores. */
	bool login;
	pid_t login_parent;
	/* Service mode, share-sandbox: the audit record of the shared
	 * sandbox's own end, for its pid 1 to write if this login creates it
	 * (session_init.h, SHARE_RECORD): its template (NULL: none, and
	 * END_RECORD_LOG is not read) and a log socket connected on the
	 * host. The caller keeps both. */
	int end_record_log;
	const char *end_record;
};

/* Build the sandbox, run the command in it and wait for it. On success
 * returns 0 with *status the command's exit status (128+N when killed by
 * signal N); nothing of the sandbox remains afterwards but, with a pid
 * namespace and no cgroup, its pid 1, which has reaped every other
 * process and is exiting (its mounts go with it): the caller's child,
 * a zombie until the caller reaps it or ends. A caller that goes on
 * must expect it (a waitpid(-1) collects it); cocoonctl and cocoon-shell
 * exit at once. On failure returns -1 with err set and nothing
 * half-built left behind (the same pid 1 aside). */
int sandbox_run(const struct sandbox_request *req, int *status,
		struct cc_error *err);

/* ---- Service mode: a PAM service moves into the sandbox ----
 *
 * sandbox_enter builds the plan's sandbox around cocoon-init as pid 1 (in
 * "hold" mode: it only reaps, and ends when killed or when the caller
 * dies without ending it), which is not the
 * caller's child, and moves the caller (root, single-threaded) into its
 * namespaces: the mount namespace now, the pid namespace for the
 * caller's future children. The caller stays root there; no seccomp
 * filter or no_new_privs is put on it: cocoon-launch, bound over the
 * user's login shell, puts them on what the user runs. NS_USER plans
 * are refused. */
struct sandbox_handle;
int sandbox_enter(const struct sandbox_request *req, struct sandbox_handle **out,
		  struct cc_error *err);
/* Back to the host's namespaces and working directory (idempotent; a
 * no-op in any process but the one that entered). */
int sandbox_return(struct sandbox_handle *handle, struct cc_error *err);
/* In the process that entered: kill the session's pid namespace (without
 * waiting). In any process: release the handle. NULL is fine. */
void sandbox_end(struct sandbox_handle *handle);
/* cocoon-shell's login under share-sandbox: sandbox_enter (joining or
 * creating the user's shared sandbox), then the login's program forked
 * in it as the user, through the login shell's path (cocoon-launch and
 * its walls) with ARGV and REQ's environment, waited for with the
 * terminal's signals passed on. *STATUS is its exit status (128+N when
 * killed by N); the login then leaves the sandbox, which goes on by its
 * linger. Needs REQ's init_path, launcher_path and session_rlimits. */
struct sandbox_login_hook {
	/* Called once the login is in the sandbox, before its program
	 * starts: the sandbox's id (NULL: none) and whether it joined. */
	void (*entered)(const char *sandbox_id, bool joined, void *data);
	void *data;
};
int sandbox_login_run(const struct sandbox_request *req, char *const *argv,
		      const struct sandbox_login_hook *hook, int *status,
		      struct cc_error *err);
/* share-sandbox: whether the login's sandbox is shared; then *ID is the
 * sandbox's (its first login's session id; NULL: none was given) and
 * *JOINED whether another login made it. */
bool sandbox_shared(const struct sandbox_handle *handle, const char **id, bool *joined);
/* The session's max-session-time has passed. */
bool sandbox_expired(const struct sandbox_handle *handle);
/* The process that entered has not gone back (a forked child: had not
 * when it was forked, so it is inside too). */
bool sandbox_inside(const struct sandbox_handle *handle);

#endif
