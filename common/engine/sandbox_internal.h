/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the engine's three parts share (sandbox.c, the caller's common
 * steps; session_setup.c, the session process; sandbox_run.c and
 * sandbox_service.c, the two modes). Not for callers outside the engine:
 * they use sandbox.h. */
#ifndef COCOON_SANDBOX_INTERNAL_H
#define COCOON_SANDBOX_INTERNAL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/keyctl.h>
#include <locale.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "credentials.h"
#include "error.h"
#include "fault.h"
#include "forced_command.h"
#include "landlock.h"
#include "launch_settings.h"
#include "mounts.h"
#include "plan.h"
#include "plan_check.h"
#include "pty_quota.h"
#include "records.h"
#include "report.h"
#include "rlimits.h"
#include "sandbox.h"
#include "seccomp_filter.h"
#include "session_init.h"
#include "syscalls.h"
#include "util.h"

/* The signals the caller relays while the session runs (TERM, HUP, and
 * INT and QUIT sent by a process), and which of them are pending. */
#define NFORWARDED 4
extern const int sandbox_forwarded[NFORWARDED];
extern volatile sig_atomic_t sandbox_pending[NFORWARDED];

struct saved_signals {
	sigset_t mask;
	struct sigaction act[NFORWARDED];
	struct sigaction chld;
};

/* What both modes share with the children they start: the session
 * process's build, up to the pivot, and pid 1's start. A mode's own
 * fields are in its own struct (run_supervised, run_service) and are
 * seen only by the functions that take it. */
struct run {
	const struct sandbox_request *req;
	const struct plan *plan;
	/* The user, groups looked up when the caller did it (run mode
	 * without a pid namespace); else plan->who, completed by the
	 * session process if need be. */
	const struct identity *who;
	int sock;       /* the children's end of the report socket */
	bool pid_ns;    /* the session has a pid namespace: pid 1 below */
	/* With a pid namespace, pid 1 creates the other namespaces (these
	 * CLONE_NEW* flags) after forking the session process, which joins
	 * them once it needs them. */
	unsigned long late_ns;
	/* Session process: pid 1 writes REPORT_NAMESPACES_MADE once late_ns
	 * exist (REPORT_NAMESPACES_FAILED if it could not), then the end of file
	 * comes once pid 1 reads no more host files (run mode: at once;
	 * service mode: once cocoon-init runs). -1 without a pid namespace. */
	int ready;
	bool joined;    /* session process: the byte was read */
	/* Session limits: its cgroup (NULL: none), and the CLOCK_BOOTTIME
	 * second at which pid 1 ends it (0: never). */
	struct cgroup *cgroup;
	long long deadline;
	/* The ptys the session's devpts may hold: its share of the user's
	 * total, granted before the clone (pty_quota.h). */
	unsigned ptys;
};

/* The plan's session-time-warnings, for pid 1. */
void sandbox_init_warnings(const struct plan *plan, struct session_init_notices *notices);

/* Run mode's (sandbox_run.c): the caller supervises the session, and
 * the session process goes on from the pivot to the command. */
struct run_supervised {
	struct run run;
	struct seccomp_filter *filter; /* built before the clone */
	struct saved_signals saved;
	mode_t umask;   /* the caller's, for the command */
	pid_t caller;   /* the caller's pid */
	/* With a pid namespace and no cgroup: the write end of a pipe on
	 * which pid 1 reports the session's status once it has reaped every
	 * other process (-1: none; the caller then waits for pid 1 itself). */
	int status_fd;
};

/* Service mode's (sandbox_service.c): the session process builds,
 * pivots, reports REPORT_BUILT and exits; cocoon-init holds the
 * namespaces and the service joins them. */
struct run_service {
	struct run run;
	const struct service_setup *setup; /* what the build adds */
	int initfd;     /* cocoon-init opened on the host */
	/* A pidfd of the service process, handed to cocoon-init, which
	 * ends the session when the service dies without closing it. */
	int service_pidfd;
	/* The caller runs chrooted: the namespace's first process made the
	 * chroot the namespace's root (mounts_chroot_to_namespace). */
	bool chrooted;
	/* share-sandbox: the socket cocoon-init listens on for the logins
	 * that join (-1: not shared), and how long it lingers. */
	int share_listen;
	long long linger_ms;
};

/* The session process (session_setup.c), in each mode: never returns. */
_Noreturn void sandbox_session(struct run_supervised *sup);
_Noreturn void sandbox_session_service(struct run_service *svc);

void sandbox_signals_take(struct saved_signals *saved);
void sandbox_signals_restore(const struct saved_signals *saved);
long long sandbox_boottime(void);
int sandbox_limits_prepare(struct run *run, bool make_cgroup, struct cc_error *err);
_Noreturn void sandbox_child_fail(const struct run *run, const struct cc_error *err);
int sandbox_child_begin(struct cc_error *err);
int sandbox_open_init(const char *path, struct cc_error *err);
int sandbox_check_single_threaded(struct cc_error *err);
pid_t sandbox_clone_child(unsigned long long flags, int *pidfd);
int sandbox_take_ptys(struct run *run, struct pty_quota *quota, struct cc_error *err);
int sandbox_open_reports(struct run *run, int sv[2], struct cc_error *err);
unsigned long sandbox_other_namespaces(const struct plan *plan);

#endif
