// SPDX-License-Identifier: GPL-2.0-or-later
/* The engine: execute a plan.
 *
 * Process tree, with a pid namespace (the usual case):
 *
 *   caller (root, on the host)   sandbox_run(): builds the seccomp filter,
 *     |                          waits, relays signals, writes a user
 *     |                          namespace's id maps
 *     +- pid 1   clone3(NEWNS|NEWPID): forks the session process, creates
 *          |     the other namespaces (net, ipc, uts, cgroup), closes every
 *          |     descriptor but the status pipe's and becomes the
 *          |     namespace's init (session_init.c) in the caller's own
 *          |     image: no exec
 *          +- pid 2   the session process: builds the new root, joins pid
 *                     1's namespaces, pivots, becomes the user, execs the
 *                     command
 *
 * Without a pid namespace the caller's child, cloned into all the
 * namespaces at once, is the session process. Service mode (below) runs
 * pid 1 differently: it runs in the service's memory only to clone the
 * session process and then executes cocoon-init, so that it holds none
 * of the service's memory; cocoon-init creates the other namespaces.
 *
 * The session process, in order: dumpable off; mount propagation
 * private; the user's groups and fsuid/fsgid for the build; the root
 * tmpfs and the plan's operations (mounts.c); the other namespaces
 * joined, loopback up, hostname; pivot_root and the old root detached;
 * the caller's resource limits; the Landlock wall (landlock.c) and a new
 * session keyring, as root; the seccomp filter (as root, unless a
 * user namespace comes); ambient and bounding capabilities dropped,
 * setgroups, setresgid, setresuid, capabilities emptied, root checked
 * unreachable (credentials.c); the user namespace; no_new_privs; chdir;
 * setsid when asked; the caller's umask and signal state; every
 * descriptor above 2 closed on exec; execve.
 *
 * Pid 1 reads no file once the root may pivot: in run mode it never
 * execs (an exec after the pivot would have the dynamic loader read the
 * sandbox's /etc/ld.so.preload and libraries, which the user shapes,
 * while pid 1 is root with every capability). Cocoon-init, in service
 * mode, is exec'd from a descriptor opened on the host before the root
 * is built. Linked statically (musl) it loads nothing; linked against
 * glibc (no musl-gcc at build time) it loads the host's libraries. Either
 * way the session process pivots only once pid 1 has closed its
 * descriptors (the end of file on a pipe). Pid 1 (in service mode
 * cocoon-init, once executed) creates the other namespaces (half a
 * millisecond for a network namespace) while the session process builds
 * the root, on the other CPU.
 *
 * Undoing a failure: everything is built inside namespaces that only
 * these processes hold. A failing step makes the session process report
 * its message over the socket and exit; pid 1 (or the caller,
 * without a pid namespace) then sees it end, the namespaces die with
 * their last process and the mounts with them. The host's own mount
 * table is never touched: propagation is made private before the first
 * mount. The caller returns only after its child is reaped, or, in run
 * mode with a pid namespace, once pid 1 has reaped the others. What the
 * build created inside a writable bind of a host directory (mount
 * points, as the user) stays, as with bubblewrap; the planner refuses
 * creating below a bind the user can write.
 *
 * Reports travel on a SOCK_SEQPACKET pair, close-on-exec in the children:
 * an error (the first one wins), a request for the user namespace's maps,
 * and the end of file, once both children have exec'd, which means the
 * command runs; report.h has every message.
 *
 * The caller must be single-threaded (checked): in run mode the first
 * child is made with a raw clone3, which copies the caller as it is,
 * locks other threads held included, and it allocates memory (libcap)
 * before its exec; in service mode pid 2 is such a copy. */
#include "sandbox.h"

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
#include "fault.h"
#include "forced_command.h"
#include "landlock.h"
#include "launch_settings.h"
#include "mounts.h"
#include "plan_check.h"
#include "records.h"
#include "report.h"
#include "rlimits.h"
#include "seccomp_filter.h"
#include "session_init.h"
#include "syscalls.h"
#include "util.h"

/* ---- Signals in the caller ----
 *
 * While the session runs, the caller relays TERM and HUP (a service
 * stopping, a connection hanging up) and INT and QUIT sent by a process.
 * A terminal sends INT and QUIT to its foreground process group, which
 * holds the session as well: those are not sent a second time. */
static const int forwarded[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))
static volatile sig_atomic_t pending[NFORWARDED];

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if ((sig == SIGINT || sig == SIGQUIT) && si->si_code == SI_KERNEL)
		return;
	for (size_t i = 0; i < NFORWARDED; i++)
		if (forwarded[i] == sig)
			pending[i] = 1;
}

struct saved_signals {
	sigset_t mask;
	struct sigaction act[NFORWARDED];
	struct sigaction chld;
};

static void signals_take(struct saved_signals *saved)
{
	sigset_t block;
	sigemptyset(&block);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&block, forwarded[i]);
	sigprocmask(SIG_BLOCK, &block, &saved->mask);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NFORWARDED; i++) {
		pending[i] = 0;
		sigaction(forwarded[i], &sa, &saved->act[i]);
	}
	/* The caller must not reap (or auto-reap, with SIG_IGN) our child. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, &saved->chld);
}

static void signals_restore(const struct saved_signals *saved)
{
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &saved->act[i], NULL);
	sigaction(SIGCHLD, &saved->chld, NULL);
	sigprocmask(SIG_SETMASK, &saved->mask, NULL);
}

/* For the command: what the caller had, as if it had exec'd the command
 * itself. A handler of the caller's becomes SIG_DFL here rather than at
 * exec, so that a signal pending since the setup cannot run caller code
 * in this process. */
static void signals_for_command(const struct saved_signals *saved)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	for (size_t i = 0; i <= NFORWARDED; i++) {
		const struct sigaction *old = i < NFORWARDED ? &saved->act[i]
							     : &saved->chld;
		int sig = i < NFORWARDED ? forwarded[i] : SIGCHLD;
		sa.sa_handler = old->sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL;
		sigaction(sig, &sa, NULL);
	}
	sigprocmask(SIG_SETMASK, &saved->mask, NULL);
}

/* ---- State shared by the caller and its children ---- */

struct run {
	const struct sandbox_request *req;
	const struct plan *plan;
	struct seccomp_filter *filter; /* built before the clone */
	struct saved_signals saved;
	mode_t umask;   /* the caller's, for the command */
	pid_t caller;   /* the caller's pid */
	int sock;       /* the children's end of the report socket */
	bool pid_ns;    /* the session has a pid namespace: pid 1 below */
	/* The user with the groups looked up, when the caller did it (NULL:
	 * plan->who, completed by the session process if need be). */
	const struct identity *who;
	int initfd;     /* service mode: cocoon-init opened on the host */
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
	/* Service mode: the session process builds, pivots, reports
	 * REPORT_BUILT and exits; cocoon-init holds the namespaces. */
	const struct service_setup *service;
	/* Service mode: a pidfd of the service process, handed to
	 * cocoon-init, which ends the session when the service dies
	 * without closing it. */
	int service_pidfd;
	/* Session limits: its cgroup (NULL: none), and the CLOCK_BOOTTIME
	 * second at which cocoon-init ends it (0: never). */
	struct cgroup *cgroup;
	long long deadline;
	/* Run mode, with a pid namespace and no cgroup: the write end of a
	 * pipe on which pid 1 reports the session's status once it has
	 * reaped every other process (-1: none; the caller then waits for
	 * pid 1 itself). */
	int status_fd;
};

/* ---- Session limits ---- */

static long long boottime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec;
}

/* The session's cgroup and deadline, before any of its processes. */
static int limits_prepare(struct run *run, bool make_cgroup, struct cc_error *err)
{
	const struct session_limits *l = &run->plan->limits;
	if (l->max_session_time)
		run->deadline = boottime() + (long long)l->max_session_time;
	return make_cgroup ? cgroup_create(l, run->req->session_id, &run->cgroup, err) : 0;
}

static _Noreturn void child_fail(const struct run *run, const struct cc_error *err)
{
	report_error(run->sock, err);
	_exit(127);
}

/* First steps of the caller's child. */
static int child_begin(struct cc_error *err)
{
	/* Messages are formatted in the C locale: strerror in another one
	 * would read translation catalogues, from the sandbox after the
	 * pivot. */
	setlocale(LC_ALL, "C");
	/* A setuid entry point leaves the real uid the user's, which would
	 * let the user signal (stop, kill) root's setup and cocoon-init. */
	if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
		return cc_fail_errno(err, "becoming fully root");
	return 0;
}

/* ---- The session process ---- */

static int loopback_up(struct cc_error *err)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return cc_fail_errno(err, "socket for the loopback interface");
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	int rc = 0;
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		rc = cc_fail_errno(err, "reading the loopback interface's flags");
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (rc == 0 && ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		rc = cc_fail_errno(err, "bringing the loopback interface up");
	close(s);
	return rc;
}

/* Enter the namespaces pid 1 created (setns on a pidfd enters them all
 * at once). Creating a network namespace takes half a millisecond, which
 * pid 1 spends while this process builds the root. */
static int join_namespaces(struct run *run, struct cc_error *err)
{
	if (run->ready < 0 || run->joined)
		return 0;
	run->joined = true;
	char c = 0;
	if (report_read_byte(run->ready, &c) != 1)
		return cc_fail(err, "pid 1 did not create the namespaces");
	if (c == REPORT_NAMESPACES_FAILED) {
		/* cocoon-init's failure, and the error number. */
		char number[16] = "";
		ssize_t n = read(run->ready, number, sizeof(number) - 1);
		int e = n > 0 ? atoi(number) : 0;
		return cc_fail(err, "pid 1 could not create the namespaces: %s",
			       e > 0 ? strerror(e) : "no reason given");
	}
	if (c != REPORT_NAMESPACES_MADE)
		return cc_fail(err, "pid 1 did not create the namespaces");
	if (!run->late_ns)
		return 0;
	int pidfd = sys_pidfd_open(1, 0);
	if (pidfd < 0)
		return cc_fail_errno(err, "pidfd_open 1");
	int rc = setns(pidfd, (int)run->late_ns);
	close(pidfd);
	if (rc < 0)
		return cc_fail_errno(err, "joining pid 1's namespaces");
	return 0;
}

/* pivot_root changes the root of every process whose root is the old
 * one, pid 1 included: in service mode a cocoon-init linked against glibc
 * (no musl at build time) has its loader read the host's libraries first.
 * Pid 1 closes every descriptor once it reads no more files. */
static int wait_for_init(struct run *run, struct cc_error *err)
{
	if (run->ready < 0)
		return 0;
	char c;
	ssize_t n = report_read_byte(run->ready, &c);
	close(run->ready);
	run->ready = -1;
	if (n != 0)
		return cc_fail(err, "waiting for pid 1: unexpected %s",
			       n < 0 ? strerror(errno) : "data");
	return 0;
}

static bool plan_has(const struct plan *plan, enum op_type type)
{
	for (size_t i = 0; i < plan->nops; i++)
		if (plan->ops[i].type == type)
			return true;
	return false;
}

static int apply_rlimits(const struct rlimit *lim, struct cc_error *err)
{
	for (int r = 0; r < RLIM_NLIMITS; r++)
		if (setrlimit(r, &lim[r]) < 0)
			return cc_fail_errno(err, "restoring resource limit %d", r);
	return 0;
}

/* The user namespace comes last, after the switch to the user: it maps
 * only the user's uid and gid, is owned by the user, and owns none of the
 * sandbox's other namespaces, so the capabilities it grants reach
 * nothing. The caller, root in the parent namespace, writes the maps:
 * this process can no longer open its own map files (they belong to root
 * while it is not dumpable), and making it dumpable would let the user
 * ptrace a process that still holds the caller's memory. */
static int user_namespace(const struct run *run, struct cc_error *err)
{
	if (unshare(CLONE_NEWUSER) < 0)
		return cc_fail_errno(err, "unshare user namespace");
	int pidfd = sys_pidfd_open(getpid(), 0);
	if (pidfd < 0)
		return cc_fail_errno(err, "pidfd_open");
	int sent = report_send_fd(run->sock, REPORT_USERNS_MAPS, pidfd);
	close(pidfd);
	if (sent < 0)
		return cc_fail_errno(err, "asking for the user namespace's maps");
	char reply = 0;
	ssize_t n = report_read_byte(run->sock, &reply);
	if (n == 1 && reply == REPORT_MAPS_FAILED)
		_exit(127); /* the caller holds the reason */
	if (n != 1 || reply != REPORT_MAPS_WRITTEN)
		return cc_fail(err, "the user namespace's maps were not written");
	return 0;
}

static int enter_dir(const struct plan *plan, struct cc_error *err)
{
	if (plan->chdir) {
		if (chdir(plan->chdir) < 0)
			return cc_fail_errno(err, "chdir %s", plan->chdir);
		return 0;
	}
	const char *home = plan->who.home;
	if (home && home[0] == '/' && chdir(home) == 0)
		return 0;
	if (chdir("/") < 0)
		return cc_fail_errno(err, "chdir /");
	return 0;
}

/* execve, searching the environment's PATH (as execvp would) when the
 * command names no directory. Runs as the user, inside the sandbox. */
static void exec_command(const struct sandbox_request *req, struct cc_error *err)
{
	if (strchr(req->path, '/')) {
		execve(req->path, req->argv, req->envp);
		cc_fail_errno(err, "exec %s", req->path);
		return;
	}
	const char *path = "/usr/local/bin:/usr/bin:/bin";
	for (char *const *e = req->envp; *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	int first_errno = ENOENT;
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		char file[PATH_MAX];
		int n = snprintf(file, sizeof(file), "%.*s%s%s", (int)(end - p), p,
				 end > p ? "/" : "", req->path);
		if (n > 0 && (size_t)n < sizeof(file)) {
			execve(file, req->argv, req->envp);
			if (errno != ENOENT && errno != ENOTDIR && first_errno == ENOENT)
				first_errno = errno;
		}
		if (!*end)
			break;
		p = end;
	}
	errno = first_errno;
	cc_fail_errno(err, "exec %s", req->path);
}

/* A session keyring of the session's own, empty: the caller's (the
 * user's own keys under cocoon-shell, root's or another user's through
 * cocoonctl) would otherwise be inherited, and possessing it lets the
 * command search and use every key in it. Joined here, as root, because
 * the seccomp filter refuses keyctl and, without a user namespace, is
 * loaded before the switch to the user (loading it later would need
 * no_new_privs, which the plan may turn off). A keyring joined as root
 * belongs to root and is charged to root's quota: it is given to the
 * user at once, which only CAP_SYS_ADMIN may do. */
static int new_keyring(const struct identity *who, struct cc_error *err)
{
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0) {
		if (errno == ENOSYS) /* a kernel without keys: none to inherit */
			return 0;
		return cc_fail_errno(err, "joining a new session keyring");
	}
	if (syscall(SYS_keyctl, KEYCTL_CHOWN, KEY_SPEC_SESSION_KEYRING, who->uid,
		    who->gid) < 0)
		return cc_fail_errno(err, "giving the session keyring to %s", who->user);
	return 0;
}

/* Whether the build needs the user's groups: always when it runs as the
 * user; in service mode, which builds as root and whose pid 2 exits once
 * built, only to open a bind source the user can write. */
static bool build_needs_groups(const struct run *run)
{
	if (!run->service)
		return true;
	for (size_t i = 0; i < run->plan->nops; i++) {
		const struct fs_op *op = &run->plan->ops[i];
		if ((op->type == OP_BIND || op->type == OP_RO_BIND ||
		     op->type == OP_DEV_BIND) && op->source_user_writable)
			return true;
	}
	return false;
}

/* What the session process's steps share. */
struct setup {
	struct run *run;
	const struct plan *plan;
	const struct identity *who; /* the user, groups looked up */
	struct identity full;       /* who, when the groups were looked up here */
	bool user_build;            /* the build runs as the user */
	int rootfd;                 /* the new root, until the pivot */
};

static int step_undumpable(struct setup *s, struct cc_error *err)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return cc_fail_errno(err, "PR_SET_DUMPABLE");
	(void)s;
	return 0;
}

/* Groups the caller left for later are looked up here, on the host and
 * (with a pid namespace, whose pid 1 makes the others later) in its
 * network namespace, before anything is built: the NSS modules then load
 * into this process, which execs, and not into the caller, which waits
 * out the session. */
static int step_groups(struct setup *s, struct cc_error *err)
{
	s->user_build = build_needs_groups(s->run);
	if (!s->user_build || !s->who->groups_later)
		return 0;
	identity_copy(&s->full, s->who);
	if (FAULT("groups", err) < 0 || identity_complete(&s->full, err) < 0)
		return -1;
	s->who = &s->full;
	return 0;
}

/* Before any mount: nothing done here may reach the host, and no host
 * mount event may reach in (a mount propagated into a read-only bind
 * would come with the host's flags). An mqueue file system belongs to
 * the ipc namespace of whoever mounts it: join before building in that
 * (rare) case. */
static int step_private_mounts(struct setup *s, struct cc_error *err)
{
	umask(0); /* modes in the plan are exact */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return cc_fail_errno(err, "making mount propagation private");
	if (plan_has(s->plan, OP_MQUEUE) && join_namespaces(s->run, err) < 0)
		return -1;
	return 0;
}

static int step_build(struct setup *s, struct cc_error *err)
{
	if (FAULT("namespaces", err) < 0 ||
	    (s->user_build && creds_build_begin(s->who, err) < 0) ||
	    mounts_build(s->plan, s->run->service ? MOUNTS_SERVICE : 0, &s->rootfd, err) < 0)
		return -1;
	if (s->run->service && mounts_service_setup(s->plan, s->rootfd, s->run->service, err) < 0)
		return -1;
	return 0;
}

static int step_join(struct setup *s, struct cc_error *err)
{
	if (FAULT("joining namespaces", err) < 0 || join_namespaces(s->run, err) < 0)
		return -1;
	if ((s->plan->namespaces & NS_NET) && loopback_up(err) < 0)
		return -1;
	const char *name = s->plan->hostname;
	if (name && sethostname(name, strlen(name)) < 0)
		return cc_fail_errno(err, "sethostname %s", name);
	return 0;
}

/* From here on the only file system is the sandbox's, parts of which the
 * user shapes. Nothing after reads a file while privileged: no NSS (who
 * was resolved before), no locale (C, set at the start), no dlopen; the
 * seccomp filter was built before the clone. In service mode the
 * process's work ends here: the service joins through pid 1, which holds
 * it all. */
static int step_pivot(struct setup *s, struct cc_error *err)
{
	if (wait_for_init(s->run, err) < 0 || FAULT("pivot_root", err) < 0 ||
	    mounts_pivot(s->rootfd, err) < 0)
		return -1;
	close(s->rootfd);
	s->rootfd = -1;
	if (s->run->service)
		_exit(report_send(s->run->sock, REPORT_BUILT) < 0 ? 127 : 0);
	return 0;
}

static int step_rlimits(struct setup *s, struct cc_error *err)
{
	const struct rlimit *saved = s->run->req->session_rlimits;
	if (saved && apply_rlimits(saved, err) < 0)
		return -1;
	return rlimits_apply(&s->plan->limits, err);
}

/* As root, which landlock_restrict_self accepts without no_new_privs
 * (CAP_SYS_ADMIN): the wall then binds whatever the plan says. */
static int step_landlock(struct setup *s, struct cc_error *err)
{
	int wall = landlock_wall(s->plan->namespaces & NS_IPC, s->plan->landlock_scope);
	if (wall < 0)
		return cc_fail_errno(err, "landlock");
	if (wall == 0 && s->plan->landlock_required)
		return cc_fail(err, "landlock = required, and this kernel offers no "
			       "Landlock (ABI 2 or later)");
	return 0;
}

static int step_keyring(struct setup *s, struct cc_error *err)
{
	return new_keyring(s->who, err);
}

/* Loading a filter needs no_new_privs or CAP_SYS_ADMIN. Without a user
 * namespace it is loaded here, as root, the last privileged step: that
 * works whatever no_new_privs says, and it then binds setuid programs
 * run inside too. The filter refuses new user namespaces, so with one it
 * is loaded inside it (step_user_namespace), where the process holds
 * every capability (of that namespace only) until creds_drop_all. */
static int step_filter_as_root(struct setup *s, struct cc_error *err)
{
	if (s->plan->namespaces & NS_USER)
		return 0;
	return seccomp_load_filter(s->run->filter, err);
}

static int step_become_user(struct setup *s, struct cc_error *err)
{
	return creds_become_user(s->who, err);
}

static int step_user_namespace(struct setup *s, struct cc_error *err)
{
	if (!(s->plan->namespaces & NS_USER))
		return 0;
	if (user_namespace(s->run, err) < 0 || creds_drop_bounding(err) < 0 ||
	    seccomp_load_filter(s->run->filter, err) < 0 || creds_drop_all(err) < 0)
		return -1;
	return 0;
}

static int step_no_new_privs(struct setup *s, struct cc_error *err)
{
	if (s->plan->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return cc_fail_errno(err, "PR_SET_NO_NEW_PRIVS");
	return 0;
}

/* Without a pid namespace nothing ends the session when the caller is
 * killed; PR_SET_PDEATHSIG does, as cocoon-init's death would. */
static int step_process(struct setup *s, struct cc_error *err)
{
	if (enter_dir(s->plan, err) < 0)
		return -1;
	if (s->plan->new_session && setsid() < 0)
		return cc_fail_errno(err, "setsid");
	if (!s->run->pid_ns && (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
				getppid() != s->run->caller))
		return cc_fail(err, "the caller is gone");
	umask(s->run->umask);
	signals_for_command(&s->run->saved);
	/* The command gets 0, 1 and 2; the report socket stays open until
	 * the exec succeeds. */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		return cc_fail_errno(err, "close_range");
	return 0;
}

/* The session process's setup, in order. ROOT: runs with the caller's
 * root credentials (the host's, in the session's mount namespace and,
 * once joined, its others); USER: as the session's user. */
enum step_privilege { ROOT, USER };
static const struct setup_step {
	const char *name;
	enum step_privilege privilege;
	int (*run)(struct setup *s, struct cc_error *err);
} setup_steps[] = {
	{ "undumpable", ROOT, step_undumpable },
	{ "groups", ROOT, step_groups },
	{ "private mounts", ROOT, step_private_mounts },
	{ "build the root", ROOT, step_build }, /* as the user's fsuid, or root's */
	{ "join namespaces", ROOT, step_join },
	{ "pivot_root", ROOT, step_pivot }, /* service mode ends here */
	{ "rlimits", ROOT, step_rlimits },
	{ "landlock", ROOT, step_landlock },
	{ "keyring", ROOT, step_keyring },
	{ "seccomp", ROOT, step_filter_as_root },
	{ "become the user", ROOT, step_become_user },
	{ "user namespace", USER, step_user_namespace },
	{ "no_new_privs", USER, step_no_new_privs },
	{ "process", USER, step_process },
};

static _Noreturn void session(struct run *run)
{
	struct setup s = { .run = run, .plan = run->plan, .rootfd = -1,
			   .who = run->who ? run->who : &run->plan->who };
	struct cc_error err = { "" };
	for (size_t i = 0; i < sizeof(setup_steps) / sizeof(setup_steps[0]); i++) {
		const struct setup_step *step = &setup_steps[i];
		/* Fail closed should a step before have left root's uid. */
		if (step->privilege == USER && geteuid() == 0)
			cc_fail(&err, "the setup step '%s' would run as root", step->name);
		else if (step->run(&s, &err) == 0)
			continue;
		child_fail(run, &err);
	}
	exec_command(run->req, &err);
	child_fail(run, &err);
}

/* ---- pid 1 ---- */

/* Run mode's pid 1 (service mode's is cocoon-init, see start_helper). */
static _Noreturn void pid1(struct run *run)
{
	struct cc_error err = { "" };
	if (child_begin(&err) < 0)
		child_fail(run, &err);
	/* The session ends with the caller. The caller may have died before
	 * this: its end of the socket is then closed. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) {
		cc_fail_errno(&err, "PR_SET_PDEATHSIG");
		child_fail(run, &err);
	}
	struct pollfd hup = { .fd = run->sock, .events = 0, .revents = 0 };
	if (poll(&hup, 1, 0) > 0 && (hup.revents & (POLLHUP | POLLERR)))
		_exit(127);

	int ready[2];
	if (pipe2(ready, O_CLOEXEC) < 0) {
		cc_fail_errno(&err, "pipe");
		child_fail(run, &err);
	}
	pid_t pid = fork();
	if (pid < 0) {
		cc_fail_errno(&err, "fork");
		child_fail(run, &err);
	}
	if (pid == 0) {
		close(ready[1]);
		run->ready = ready[0];
		session(run);
	}
	close(ready[0]);
	if (run->late_ns && unshare((int)run->late_ns) < 0) {
		cc_fail_errno(&err, "creating the namespaces");
		child_fail(run, &err);
	}
	char made = REPORT_NAMESPACES_MADE;
	if (write(ready[1], &made, 1) != 1) {
		cc_fail_errno(&err, "telling the session process");
		child_fail(run, &err);
	}
	/* Out of the caller's process group, pid 1 gets none of the
	 * terminal's signals. Signals stay blocked from here on: a
	 * namespace's init drops what it does not handle, and it only takes
	 * them (with sigwaitinfo) once ready. Blocked, those sent meanwhile
	 * wait. */
	if (setpgid(0, 0) < 0 || chdir("/") < 0) {
		cc_fail_errno(&err, "preparing pid 1");
		child_fail(run, &err);
	}
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	/* This image, a copy of the caller's, is pid 1; no exec, so nothing
	 * is loaded and the session process may pivot at once: closing
	 * every descriptor (the ready pipe's end among them) tells it so,
	 * once pid 1 is not dumpable. Named as in service mode (ps, pgrep);
	 * its command line stays the caller's. */
	prctl(PR_SET_NAME, "cocoon-init", 0, 0, 0);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	session_init_close_all_but(run->status_fd);
	session_init(pid, -1, run->deadline, run->status_fd);
}

/* ---- The caller ---- */

static int open_init(const char *path, struct cc_error *err)
{
	if (!path)
		return cc_fail(err, "a pid namespace needs cocoon-init, and none was given");
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "cocoon-init %s", path);
	/* It runs as root with every capability: only root may have
	 * written it. */
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return cc_fail(err, "cocoon-init %s: not a regular file that only "
			       "root can write", path);
	}
	return fd;
}

/* raw clone without CLONE_VM copies the process as it is: a lock that
 * another thread held stays held in the child (glibc's fork would reset
 * malloc's; this does not). unshare(CLONE_NEWNS) refuses threaded
 * callers for a similar reason. */
static int check_single_threaded(struct cc_error *err)
{
	struct stat st;
	/* /proc/PID/task links: ".", ".." and one per thread. */
	if (stat("/proc/self/task", &st) == 0 && st.st_nlink > 3)
		return cc_fail(err, "the caller runs %lu threads; building a "
			       "sandbox needs a single-threaded process",
			       (unsigned long)st.st_nlink - 2);
	return 0;
}

static pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[2048];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = strstr(buf, "\nPid:\t");
	return p ? (pid_t)strtol(p + 6, NULL, 10) : -1;
}

static int write_proc(int dir, const char *name, const char *text,
		      struct cc_error *err)
{
	int fd = openat(dir, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "user namespace: open %s", name);
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	if (n != (ssize_t)strlen(text)) {
		errno = n < 0 ? e : EIO;
		return cc_fail_errno(err, "user namespace: write %s", name);
	}
	return 0;
}

/* Map the user's own uid and gid (and nothing else) in the session
 * process's new user namespace, and deny setgroups there so that nobody
 * holding that namespace can drop the user's groups. */
static int write_maps(int pidfd, const struct identity *who, struct cc_error *err)
{
	pid_t pid = pidfd_pid(pidfd);
	if (pid <= 0)
		return cc_fail(err, "user namespace: the session process is gone");
	char path[64], uid_map[64], gid_map[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	int dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* If the process behind the pidfd still runs, the directory opened
	 * is its own and not that of a process that reused the pid. */
	if (dir < 0 || sys_pidfd_send_signal(pidfd, 0) < 0) {
		if (dir >= 0)
			close(dir);
		return cc_fail(err, "user namespace: the session process is gone");
	}
	snprintf(uid_map, sizeof(uid_map), "%u %u 1\n", (unsigned)who->uid,
		 (unsigned)who->uid);
	snprintf(gid_map, sizeof(gid_map), "%u %u 1\n", (unsigned)who->gid,
		 (unsigned)who->gid);
	int rc = 0;
	if (write_proc(dir, "setgroups", "deny", err) < 0 ||
	    write_proc(dir, "uid_map", uid_map, err) < 0 ||
	    write_proc(dir, "gid_map", gid_map, err) < 0)
		rc = -1;
	close(dir);
	return rc;
}

enum msg_result { MSG_DONE, MSG_NONE, MSG_EOF, MSG_FAIL };

struct supervisor {
	const struct identity *who;
	int sock;
	bool have_error;
	struct cc_error first;
	/* The session's record, written while the sandbox is built (rather
	 * than beside the command's start) and published once it is whole:
	 * the end of the report socket, which every process of the setup
	 * holds until it execs. Published earlier, `cocoonctl enter` could
	 * join a session still on the host's root, before its pivot. */
	const struct plan *plan;
	const char *session_id;
	struct record_pending record;
	bool prepared, recorded;
	struct cc_error record_err;
};

static enum msg_result read_message(struct supervisor *s)
{
	char buf[1 + sizeof(s->first.msg)];
	int fd;
	ssize_t n = report_recv(s->sock, MSG_DONTWAIT, buf, sizeof(buf), &fd);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? MSG_NONE : MSG_FAIL;
	if (n == 0)
		return MSG_EOF;

	if (buf[0] == REPORT_ERROR && !s->have_error) {
		snprintf(s->first.msg, sizeof(s->first.msg), "%s", buf + 1);
		s->have_error = true;
	} else if (buf[0] == REPORT_USERNS_MAPS) {
		struct cc_error merr;
		enum report_msg reply = REPORT_MAPS_WRITTEN;
		if (fd < 0 || write_maps(fd, s->who, &merr) < 0) {
			reply = REPORT_MAPS_FAILED;
			if (fd < 0)
				cc_fail(&merr, "user namespace: no pidfd received");
			if (!s->have_error) {
				s->first = merr;
				s->have_error = true;
			}
		}
		if (report_send(s->sock, reply) < 0) {
			/* The session process is gone; its end shows why. */
		}
	}
	if (fd >= 0)
		close(fd);
	return MSG_DONE;
}

/* Wait for the child while relaying messages and signals; returns its
 * wait status. With STATUS_FD (-1: none), the status pid 1 reports there
 * once every other process is reaped ends the wait: pid 1's own end,
 * which tears its mount namespace down (an RCU grace period, half a
 * millisecond), is then not waited for. */
static int supervise(struct run *run, struct supervisor *s, pid_t pid,
		     int pidfd, int status_fd, int *wstatus, struct cc_error *err)
{
	sigset_t wait_mask = run->saved.mask;
	for (size_t i = 0; i < NFORWARDED; i++)
		sigdelset(&wait_mask, forwarded[i]);
	struct pollfd pfd[3] = { { s->sock, POLLIN, 0 }, { pidfd, POLLIN, 0 },
				 { status_fd, POLLIN, 0 } };
	bool exited = false, reported = false;
	int rc = 0;
	/* Without its record a session is not run: a failure kills it
	 * before anything of it execs. One that already failed (pid 1 ended
	 * early) has its own reason, which wins. */
	s->prepared = record_prepare(s->plan, s->session_id, pid, pidfd, &s->record,
				     &s->record_err) == 0;
	if (!s->prepared)
		sys_pidfd_send_signal(pidfd, SIGKILL);
	while (!exited) {
		pfd[0].revents = pfd[1].revents = pfd[2].revents = 0;
		if (ppoll(pfd, 3, NULL, &wait_mask) < 0 && errno != EINTR) {
			rc = cc_fail_errno(err, "waiting for the sandbox");
			sys_pidfd_send_signal(pidfd, SIGKILL);
			break;
		}
		for (size_t i = 0; i < NFORWARDED; i++)
			if (pending[i]) {
				pending[i] = 0;
				sys_pidfd_send_signal(pidfd, forwarded[i]);
			}
		if (pfd[0].fd >= 0 && pfd[0].revents) {
			enum msg_result m = read_message(s);
			if (m == MSG_EOF || m == MSG_FAIL)
				pfd[0].fd = -1;
			if (m == MSG_FAIL && !s->have_error) {
				/* Whether the setup is whole is not known: as if it
				 * had failed. */
				cc_fail_errno(&s->record_err, "reading the sandbox's reports");
				sys_pidfd_send_signal(pidfd, SIGKILL);
			} else if (m == MSG_EOF && !s->have_error && !pfd[1].revents &&
				   !pfd[2].revents) {
				s->recorded = s->prepared &&
					      record_publish(&s->record, &s->record_err) == 0;
				if (!s->recorded)
					sys_pidfd_send_signal(pidfd, SIGKILL);
			}
		}
		if (pfd[2].fd >= 0 && pfd[2].revents) {
			unsigned char status;
			ssize_t n = read(status_fd, &status, 1);
			if (n == 1) {
				*wstatus = W_EXITCODE(status, 0);
				reported = exited = true;
			} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
				pfd[2].fd = -1; /* pid 1 died without a word */
			}
		}
		if (pfd[1].revents)
			exited = true;
	}
	/* Reported: pid 1 is on its way out. Not waited for, it stays this
	 * process's child, a zombie until this process reaps it or ends
	 * (cocoonctl and cocoon-shell exit at once; see sandbox.h). */
	while (!reported && waitpid(pid, wstatus, 0) < 0)
		if (errno != EINTR)
			return cc_fail_errno(err, "waitpid");
	if (reported)
		waitpid(pid, NULL, WNOHANG); /* reaped if gone already */
	/* What was sent just before the end is still queued. */
	while (pfd[0].fd >= 0 && read_message(s) == MSG_DONE)
		;
	return rc;
}

static pid_t clone_child(unsigned long long flags, int *pidfd)
{
	struct cc_clone_args args = {
		.flags = flags | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
	};
	pid_t pid = (pid_t)sys_clone3(&args);
	if (pid >= 0 || errno != ENOSYS)
		return pid;
	/* clone3 filtered out (some container runtimes): the old clone,
	 * without a stack it works like fork; argument order differs
	 * between architectures but all but the flags are zero. */
	pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
	if (pid > 0 && (*pidfd = sys_pidfd_open(pid, 0)) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* The children's report socket (sv[1] is theirs), and the caller's umask
 * for the command. */
static int open_reports(struct run *run, int sv[2], struct cc_error *err)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return cc_fail_errno(err, "socketpair");
	run->sock = sv[1];
	run->umask = umask(0);
	umask(run->umask);
	return 0;
}

/* The plan's namespaces besides mount and pid, as CLONE_NEW* flags. */
static unsigned long other_namespaces(const struct plan *plan)
{
	unsigned long flags = 0;
	if (plan->namespaces & NS_NET)
		flags |= CLONE_NEWNET;
	if (plan->namespaces & NS_IPC)
		flags |= CLONE_NEWIPC;
	if (plan->namespaces & NS_UTS)
		flags |= CLONE_NEWUTS;
	if (plan->namespaces & NS_CGROUP)
		flags |= CLONE_NEWCGROUP;
	return flags;
}

static int run_sandbox(const struct sandbox_request *req,
		       const struct identity *who, int *status,
		       struct cc_error *err)
{
	const struct plan *plan = req->plan;
	if (!plan || !plan->sandboxed)
		return cc_fail(err, "the plan has no sandbox (sandbox = none)");
	if (!req->path || !*req->path || !req->argv || !req->argv[0] || !req->envp)
		return cc_fail(err, "no command to run");
	if (geteuid() != 0)
		return cc_fail(err, "building a sandbox needs root");
	if (plan->hostname && !(plan->namespaces & NS_UTS))
		return cc_fail(err, "'hostname' needs a uts namespace: it would "
			       "rename the host");
	if (plan_check_shape(plan, err) < 0 || check_single_threaded(err) < 0)
		return -1;

	struct run run = { .req = req, .plan = plan, .caller = getpid(),
			   .sock = -1, .initfd = -1, .ready = -1, .who = who,
			   .status_fd = -1 };
	/* The filter is built here, as root on the host: a `seccomp = FILE`
	 * is read from the host, and its errors come before any namespace
	 * exists. Loading it later is one system call. */
	if (!(run.filter = seccomp_prepare(plan, err)))
		return -1;
	int sv[2] = { -1, -1 }, ended[2] = { -1, -1 };
	run.pid_ns = plan->namespaces & NS_PID;
	if (open_reports(&run, sv, err) < 0 || limits_prepare(&run, true, err) < 0 ||
	    FAULT("clone", err) < 0)
		goto early_fail;
	/* A cgroup can only be removed once pid 1 has left it: then its
	 * end is waited for. */
	if (run.pid_ns && !run.cgroup) {
		if (pipe2(ended, O_CLOEXEC) < 0) {
			cc_fail_errno(err, "pipe");
			goto early_fail;
		}
		run.status_fd = ended[1];
	}

	unsigned long others = other_namespaces(plan);
	unsigned long long flags = CLONE_NEWNS;
	if (plan->namespaces & NS_PID) {
		flags |= CLONE_NEWPID;
		run.late_ns = others;
	} else {
		flags |= others;
	}

	signals_take(&run.saved);
	int pidfd = -1;
	pid_t pid = clone_child(flags, &pidfd);
	if (pid == 0) {
		close(sv[0]);
		if (ended[0] >= 0)
			close(ended[0]);
		struct cc_error cgerr = { "" };
		if (cgroup_enter_self(run.cgroup, &cgerr) < 0)
			child_fail(&run, &cgerr);
		if (run.pid_ns)
			pid1(&run);
		struct cc_error cerr = { "" };
		if (child_begin(&cerr) < 0)
			child_fail(&run, &cerr);
		session(&run);
	}
	close(sv[1]);
	if (ended[1] >= 0)
		close(ended[1]);
	/* The child moved itself in with its own copies. */
	cgroup_close_procs(run.cgroup);

	int rc = -1, wstatus = 0;
	struct supervisor s = { .who = &plan->who, .sock = sv[0], .plan = plan,
				.session_id = req->session_id, .record = { .dir = -1 } };
	if (pid < 0)
		cc_fail_errno(err, "clone");
	else
		rc = supervise(&run, &s, pid, pidfd, ended[0], &wstatus, err);
	record_end(&s.record, req->session_id);
	if (pid > 0 && !s.recorded && !s.have_error && s.record_err.msg[0]) {
		*err = s.record_err;
		rc = -1;
	}
	signals_restore(&run.saved);
	close(sv[0]);
	if (ended[0] >= 0)
		close(ended[0]);
	if (pidfd >= 0)
		close(pidfd);
	seccomp_filter_free(run.filter);
	cgroup_destroy(run.cgroup);
	if (req->expired)
		*req->expired = run.deadline && boottime() >= run.deadline;
	if (rc < 0)
		return -1;
	if (s.have_error) {
		*err = s.first;
		return -1;
	}
	if (WIFEXITED(wstatus))
		*status = WEXITSTATUS(wstatus);
	else if (WIFSIGNALED(wstatus))
		*status = 128 + WTERMSIG(wstatus);
	else
		*status = 255;
	return 0;

early_fail:
	if (sv[0] >= 0) {
		close(sv[0]);
		close(sv[1]);
	}
	if (ended[0] >= 0) {
		close(ended[0]);
		close(ended[1]);
	}
	seccomp_filter_free(run.filter);
	cgroup_destroy(run.cgroup);
	return -1;
}

int sandbox_run(const struct sandbox_request *req, int *status,
		struct cc_error *err)
{
	const struct plan *plan = req->plan;
	/* Without a pid namespace the session process is born in the new
	 * network namespace, where an NSS source on the network (NIS, LDAP)
	 * is out of reach and getgrouplist would quietly return fewer
	 * groups: the caller looks them up, on the host's network. */
	if (plan && plan->sandboxed && !(plan->namespaces & NS_PID) &&
	    plan->who.groups_later) {
		struct identity full;
		identity_copy(&full, &plan->who);
		int rc = identity_complete(&full, err) < 0
				 ? -1 : run_sandbox(req, &full, status, err);
		identity_free(&full);
		return rc;
	}
	return run_sandbox(req, NULL, status, err);
}

/* ---- Service mode ----
 *
 *   service (root, a PAM module's caller)   sandbox_enter()
 *     +- helper       vfork; starts pid 1, waits for its exec, sends
 *          |          its pidfd, exits
 *          +- pid 1   clone(VM|NEWNS|NEWPID), in the service's memory:
 *               |     clones pid 2, then executes "cocoon-init hold FD
 *               |     ...", which creates the other namespaces (no main
 *               |     process: it reaps, and ends when killed or when the
 *               |     service, whose pidfd FD is, dies)
 *               +- pid 2  builds the root in service mode (root-owned,
 *                         mounts_service_setup), pivots, reports it,
 *                         exits
 *
 * pid 1 is then nobody's child that the service could wait for (login
 * and su wait for any child). The service saves descriptors of its own
 * namespaces and working directory, then enters pid 1's namespaces with
 * one setns on the pidfd: its mount namespace now, its pid namespace for
 * the children the service forks from then on. */

static const struct {
	const char *name;
	int type;
	unsigned ns; /* plan bit; 0: always */
} saved_ns[] = {
	{ "mnt", CLONE_NEWNS, 0 },
	{ "pid_for_children", CLONE_NEWPID, 0 },
	{ "net", CLONE_NEWNET, NS_NET },
	{ "ipc", CLONE_NEWIPC, NS_IPC },
	{ "uts", CLONE_NEWUTS, NS_UTS },
	{ "cgroup", CLONE_NEWCGROUP, NS_CGROUP },
};
#define NSAVED (sizeof(saved_ns) / sizeof(saved_ns[0]))

struct sandbox_handle {
	pid_t owner; /* the process that entered */
	int pidfd;   /* pid 1 */
	int ns[NSAVED];
	char *cwd; /* the service's, to return to */
	bool inside;
	struct cgroup *cgroup; /* the service is in it while inside */
	long long deadline;
	char *recorded; /* the session id whose record was written */
};

static void handle_close(struct sandbox_handle *h)
{
	for (size_t i = 0; i < NSAVED; i++)
		if (h->ns[i] >= 0)
			close(h->ns[i]);
	free(h->cwd);
	if (h->pidfd >= 0)
		close(h->pidfd);
	/* In the process that entered, after pid 1 was killed: waits for
	 * the session to be gone and removes its cgroup. */
	cgroup_destroy(h->cgroup);
	free(h->recorded);
	free(h);
}


static int service_check(const struct sandbox_request *req, struct cc_error *err)
{
	const struct plan *plan = req->plan;
	if (!plan || !plan->sandboxed)
		return cc_fail(err, "the plan has no sandbox (sandbox = none)");
	if (plan->namespaces & NS_USER)
		return cc_fail(err, "a user namespace cannot hold a root service: "
			       "'unshare = user' is refused for PAM sessions");
	if (!(plan->namespaces & NS_PID))
		return cc_fail(err, "a PAM session needs a pid namespace "
			       "('unshare = pid'): it is what ends the session");
	if (plan->seccomp != SECCOMP_NONE && !plan->no_new_privs)
		return cc_fail(err, "a PAM session with a seccomp filter needs "
			       "'no-new-privs = yes': the user's launcher cannot "
			       "load the filter otherwise");
	if (!req->init_path || !req->launcher_path)
		return cc_fail(err, "service mode needs cocoon-init and cocoon-launch");
	if (geteuid() != 0)
		return cc_fail(err, "building a sandbox needs root");
	if (plan->hostname && !(plan->namespaces & NS_UTS))
		return cc_fail(err, "'hostname' needs a uts namespace: it would "
			       "rename the host");
	/* cocoon-launch tells its first run from a nested one by the filter
	 * or no_new_privs it finds: a service that already carries either
	 * (systemd's NoNewPrivileges= or SystemCallFilter=, a container's
	 * profile) would make every launch look nested, and skip them all. */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2 || prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return cc_fail(err, "the service already runs with a seccomp filter or "
			       "no_new_privs (systemd's SystemCallFilter= or NoNewPrivileges=?): "
			       "cocoon-launch could not tell the session's first program from "
			       "a nested one");
	if (plan_check_shape(plan, err) < 0 || check_single_threaded(err) < 0)
		return -1;
	return 0;
}

/* Reads the reports until pid 1's pidfd (REPORT_PID1, from the helper)
 * or the end of the build (REPORT_BUILT, from pid 2) comes, whichever is
 * first; the caller calls again for the other. An error ends it. */
static int service_wait(int sock, int *pidfd, bool *built, struct cc_error *err)
{
	for (;;) {
		struct pollfd pfd = { sock, POLLIN, 0 };
		int n = poll(&pfd, 1, 60000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return cc_fail(err, "building the sandbox: %s",
				       n == 0 ? "timed out" : strerror(errno));
		char buf[1 + sizeof(err->msg)];
		int fd;
		ssize_t got = report_recv(sock, 0, buf, sizeof(buf), &fd);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return cc_fail(err, "building the sandbox: it ended without "
				       "a report");
		if (fd >= 0 && buf[0] == REPORT_PID1 && *pidfd < 0)
			*pidfd = fd;
		else if (fd >= 0)
			close(fd);
		if (buf[0] == REPORT_ERROR)
			return cc_fail(err, "%s", buf + 1);
		if (buf[0] == REPORT_BUILT) {
			*built = true;
			return 0;
		}
		if (buf[0] == REPORT_PID1 && *pidfd >= 0)
			return 0;
	}
}

/* The pidfd the helper sent, from what is left in the socket (none:
 * *PIDFD stays -1). */
static void take_pidfd(int sock, int *pidfd)
{
	char buf[64];
	int fd;
	while (report_recv(sock, MSG_DONTWAIT, buf, sizeof(buf), &fd) > 0) {
		if (buf[0] == REPORT_PID1 && fd >= 0 && *pidfd < 0)
			*pidfd = fd;
		else if (fd >= 0)
			close(fd);
	}
}

/* Service mode's pid 1 until it executes cocoon-init: a clone that
 * shares the helper's memory (the service's), on a stack of its own.
 * It makes pid 2, a copy of that memory, then executes cocoon-init.
 * System calls only, and error numbers, not strerror (message
 * catalogues, malloc). */
struct init_exec {
	struct run *run;
	int ready[2]; /* pid 1 to pid 2 (see join_namespaces) */
	int execd[2]; /* its end of file: pid 1 executed cocoon-init */
	char **argv;
};

static int exec_init(void *arg)
{
	const struct init_exec *x = arg;
	struct run *run = x->run;
	struct cc_error err;
	/* Out of the caller's process group, pid 1 gets none of the
	 * terminal's signals. It was born fully root (the helper's
	 * credentials): the user cannot signal it. Signals stay blocked, as
	 * the service had them for the helper. */
	if (setpgid(0, 0) < 0 || chdir("/") < 0) {
		cc_fail(&err, "preparing pid 1: error %d", errno);
		child_fail(run, &err);
	}
	/* Pid 2, pid 1's child (so cocoon-init reaps it), in its mount
	 * namespace (where the service joins the root it builds), on the
	 * host's network (cocoon-init makes the other namespaces while it
	 * builds). */
	int pid2fd = -1;
	pid_t pid2 = clone_child(0, &pid2fd);
	if (pid2 == 0) {
		close(x->ready[1]);
		close(x->execd[1]);
		run->ready = x->ready[0];
		if (child_begin(&err) < 0)
			child_fail(run, &err);
		session(run);
	}
	if (pid2 < 0) {
		cc_fail(&err, "clone: error %d", errno);
		child_fail(run, &err);
	}
	close(pid2fd);
	/* The service's pidfd and the ready pipe's end are the descriptors
	 * cocoon-init keeps; it closes the second once it has made the
	 * namespaces and no longer reads files. */
	if (fcntl(x->ready[1], F_SETFD, 0) < 0 || fcntl(run->service_pidfd, F_SETFD, 0) < 0) {
		cc_fail(&err, "preparing cocoon-init: error %d", errno);
		child_fail(run, &err);
	}
	char *envp[] = { NULL };
	execveat(run->initfd, "", x->argv, envp, AT_EMPTY_PATH);
	cc_fail(&err, "exec cocoon-init (%s): error %d", run->req->init_path, errno);
	child_fail(run, &err);
}

/* Pid 1's stack, and pid 2's until it ends. The build's deepest calls
 * (a home skeleton 16 directories deep) take about 220 KiB; the kiosk
 * tests fail at 48 KiB. The guard below it is larger than any frame
 * (copy_file's 64 KiB buffer), so an overflow faults rather than skip
 * it (-fstack-clash-protection probes too). */
#define INIT_STACK_SIZE (1024 * 1024)
#define INIT_STACK_GUARD (128 * 1024)

/* Until pid 1 has executed (or died), it runs in the helper's memory;
 * its clone3 of pid 2 copies it meanwhile, so the helper takes no lock
 * and allocates nothing until then (poll and read only, and no errno:
 * pid 1 writes the same one). Whether pid 1 has executed within
 * EXEC_WAIT_S (the end of file on EXECD); if not, it is killed and
 * reaped, so that nothing runs in this memory once the helper exits. */
#define EXEC_WAIT_S 60
static bool wait_exec(int execd, pid_t pid, int pidfd)
{
	struct pollfd p = { .fd = execd, .events = POLLIN, .revents = 0 };
	char c;
	if (poll(&p, 1, EXEC_WAIT_S * 1000) == 1 && read(execd, &c, 1) == 0)
		return true;
	sys_pidfd_send_signal(pidfd, SIGKILL);
	waitpid(pid, NULL, __WALL);
	return false;
}

/* The helper: starts pid 1, sends its pidfd over the report socket and
 * exits, so that pid 1 is not the service's child. vfork: the helper
 * borrows the service's memory, which waits suspended until it exits,
 * rather than copying it (sshd's page tables, copied and torn down at
 * every login). Pid 1 borrows it too until its exec, so that nothing is
 * copied or torn down for it; the helper exits only once pid 1 has
 * executed (or died), so the service never runs beside it. Only pid 2,
 * which builds, gets a copy. The helper makes system calls only (error
 * numbers, not strerror). A function of its own: nothing of the
 * caller's frame is live across the vfork. */
__attribute__((noinline))
static pid_t start_helper(struct run *run, int caller_sock)
{
	pid_t helper = vfork();
	if (helper != 0)
		return helper;
	/* First, fully root: a setuid service (su) leaves the real uid the
	 * user's, who could otherwise kill the helper, and the vfork would
	 * let the service run on while pid 1 still runs in its memory.
	 * Killed before this, no pid 1 exists yet. Raw system calls: glibc's
	 * wrappers may signal every thread it knows, the service's. */
	if (syscall(SYS_setresgid, 0, 0, 0) < 0 || syscall(SYS_setresuid, 0, 0, 0) < 0)
		_exit(127);
	close(caller_sock);
	struct cc_error err;
	struct init_exec x = { .run = run };
	if (pipe2(x.ready, O_CLOEXEC) < 0 || pipe2(x.execd, O_CLOEXEC) < 0) {
		cc_fail(&err, "pipe: error %d", errno);
		child_fail(run, &err);
	}
	size_t guard = INIT_STACK_GUARD;
	char *stack = mmap(NULL, INIT_STACK_SIZE + guard, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED || mprotect(stack, guard, PROT_NONE) < 0) {
		cc_fail(&err, "a stack for pid 1: error %d", errno);
		if (stack != MAP_FAILED)
			munmap(stack, INIT_STACK_SIZE + guard);
		child_fail(run, &err);
	}
	char service_fd[24], deadline[24], namespaces[24], ready_fd[24];
	snprintf(service_fd, sizeof(service_fd), "%d", run->service_pidfd);
	snprintf(deadline, sizeof(deadline), "%lld", run->deadline);
	snprintf(namespaces, sizeof(namespaces), "%lu", run->late_ns);
	snprintf(ready_fd, sizeof(ready_fd), "%d", x.ready[1]);
	char *argv[] = { (char *)"cocoon-init", (char *)"hold", service_fd, deadline,
			 namespaces, ready_fd, NULL };
	x.argv = argv;
	int pidfd = -1;
	pid_t pid = clone(exec_init, stack + guard + INIT_STACK_SIZE,
			  CLONE_VM | CLONE_NEWNS | CLONE_NEWPID | CLONE_PIDFD | SIGCHLD,
			  &x, &pidfd);
	int clone_errno = errno;
	close(x.ready[0]);
	close(x.ready[1]);
	close(x.execd[1]);
	if (pid < 0) {
		munmap(stack, INIT_STACK_SIZE + guard);
		cc_fail(&err, "clone: error %d", clone_errno);
		child_fail(run, &err);
	}
	bool started = wait_exec(x.execd[0], pid, pidfd);
	munmap(stack, INIT_STACK_SIZE + guard);
	if (!started) {
		cc_fail(&err, "pid 1 did not execute cocoon-init within %d s", EXEC_WAIT_S);
		child_fail(run, &err);
	}
	_exit(report_send_fd(run->sock, REPORT_PID1, pidfd) < 0 ? 127 : 0);
}

int sandbox_enter(const struct sandbox_request *req, struct sandbox_handle **out,
		  struct cc_error *err)
{
	*out = NULL;
	if (service_check(req, err) < 0)
		return -1;
	const struct plan *plan = req->plan;

	const char *login = plan->who.login_shell && plan->who.login_shell[0] == '/'
				    ? plan->who.login_shell : "/bin/sh";
	const char *real = plan->shell ? plan->shell
				       : is_cocoon_shell(login, COCOON_SHELL_PATH) ? "/bin/bash" : login;
	if (is_cocoon_shell(real, COCOON_SHELL_PATH))
		return cc_fail(err, "the policy's shell %s is cocoon-shell itself", real);

	struct run run = { .req = req, .plan = plan, .caller = getpid(),
			   .sock = -1, .initfd = -1, .ready = -1,
			   .service_pidfd = -1, .status_fd = -1 };
	if (!(run.filter = seccomp_prepare(plan, err)))
		return -1;
	struct service_setup setup = { .launcher = req->launcher_path,
				       .login_shell = login, .real_shell = real };
	seccomp_filter_program(run.filter, &setup.bpf, &setup.bpf_len);
	/* The launcher's settings, a line each; chdir and home are for the
	 * user's shell (the service keeps its own working directory). */
	if (plan->chdir && strchr(plan->chdir, '\n')) {
		seccomp_filter_free(run.filter);
		return cc_fail(err, "chdir: a newline in the path");
	}
	const char *home = plan->who.home && plan->who.home[0] == '/' &&
			   !strchr(plan->who.home, '\n') ? plan->who.home : NULL;
	char launch[LAUNCH_SETTINGS_SIZE];
	int len = snprintf(launch, sizeof(launch),
			   LAUNCH_LINE(LAUNCH_KEY_NO_NEW_PRIVS, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_SECCOMP, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_SECCOMP_LOG, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_LANDLOCK, "%s")
			   LAUNCH_LINE(LAUNCH_KEY_LANDLOCK_SCOPE, "%u"),
			   plan->no_new_privs ? LAUNCH_YES : LAUNCH_NO,
			   setup.bpf ? LAUNCH_YES : LAUNCH_NO,
			   plan->seccomp_log ? LAUNCH_YES : LAUNCH_NO,
			   plan->landlock_required ? LAUNCH_LANDLOCK_REQUIRED
						   : LAUNCH_LANDLOCK_BEST_EFFORT,
			   plan->landlock_scope & LL_SCOPE_ALL);
	const struct { const char *key, *value; } optional[] = {
		{ LAUNCH_KEY_CHDIR, plan->chdir }, { LAUNCH_KEY_HOME, home },
	};
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]) && len >= 0 &&
	     (size_t)len < sizeof(launch); i++)
		if (optional[i].value)
			len += snprintf(launch + len, sizeof(launch) - (size_t)len,
					LAUNCH_LINE("%s", "%s"), optional[i].key,
					optional[i].value);
	/* The forced command, a line per word (plan_expand bounded them and
	 * kept newlines out). */
	for (char **w = plan->command; w && *w && len >= 0 &&
	     (size_t)len < sizeof(launch); w++)
		len += snprintf(launch + len, sizeof(launch) - (size_t)len,
				LAUNCH_LINE(LAUNCH_KEY_COMMAND, "%s"), *w);
	if (len < 0 || (size_t)len >= sizeof(launch)) {
		seccomp_filter_free(run.filter);
		return cc_fail(err, "chdir, home or command: too long");
	}
	setup.launch = launch;
	setup.id = req->session_id;
	run.service = &setup;

	struct sandbox_handle *h = xcalloc(1, sizeof(*h));
	h->owner = getpid();
	h->pidfd = -1;
	for (size_t i = 0; i < NSAVED; i++)
		h->ns[i] = -1;
	for (size_t i = 0; i < NSAVED; i++) {
		if (saved_ns[i].ns && !(plan->namespaces & saved_ns[i].ns))
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/ns/%s", saved_ns[i].name);
		if ((h->ns[i] = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			cc_fail_errno(err, "saving the host's namespace: %s", path);
			goto fail;
		}
	}
	/* A path, not a descriptor: the service's children (sshd's
	 * post-auth child, which serves internal-sftp without exec) would
	 * inherit a descriptor of a host directory inside the sandbox. */
	if (!(h->cwd = getcwd(NULL, 0)))
		h->cwd = xstrdup("/");
	run.pid_ns = true;
	if ((run.initfd = open_init(req->init_path, err)) < 0)
		goto fail;
	if ((run.service_pidfd = sys_pidfd_open(getpid(), 0)) < 0) {
		cc_fail_errno(err, "pidfd_open of the service process");
		goto fail;
	}
	/* Into the session's cgroup before forking: every process of the
	 * session descends from the service. */
	if (limits_prepare(&run, !req->systemd_cgroup, err) < 0)
		goto fail;
	h->cgroup = run.cgroup;
	h->deadline = run.deadline;
	if (cgroup_enter_self(h->cgroup, err) < 0 || FAULT("fork", err) < 0)
		goto fail;
	int sv[2];
	if (open_reports(&run, sv, err) < 0)
		goto fail;
	unsigned long others = other_namespaces(plan);
	run.late_ns = others;

	/* The service's own SIGCHLD handling (sudo reaps from a handler)
	 * must not take the helper; signals stay as the caller had them
	 * otherwise. */
	struct sigaction dfl, old_chld;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, &old_chld);
	sigset_t all, old_mask;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old_mask);
	run.saved.mask = old_mask;
	pid_t helper = start_helper(&run, sv[0]);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	close(sv[1]);
	close(run.initfd);
	run.initfd = -1;
	close(run.service_pidfd);
	run.service_pidfd = -1;
	int rc = helper < 0 ? cc_fail_errno(err, "fork") : 0;
	/* pid 2's REPORT_BUILT and the helper's REPORT_PID1 race: both must
	 * come. The record is written while pid 2 builds, and published once
	 * it is done. */
	bool built = false;
	struct record_pending record = { .dir = -1 };
	while (rc == 0 && !(built && h->pidfd >= 0)) {
		bool had_pidfd = h->pidfd >= 0;
		rc = service_wait(sv[0], &h->pidfd, &built, err);
		if (rc == 0 && !had_pidfd && h->pidfd >= 0)
			rc = record_prepare(plan, req->session_id, pidfd_pid(h->pidfd),
					    h->pidfd, &record, err);
	}
	if (rc == 0)
		rc = record_publish(&record, err);
	record_discard(&record);
	if (helper > 0)
		while (waitpid(helper, NULL, 0) < 0 && errno == EINTR)
			;
	/* A failure may come before pid 1's pidfd, which the helper (gone
	 * by now: vfork returned) has then left in the socket; without it
	 * pid 1 would live on until the service ends. */
	if (rc < 0 && h->pidfd < 0)
		take_pidfd(sv[0], &h->pidfd);
	close(sv[0]);
	sigaction(SIGCHLD, &old_chld, NULL);
	seccomp_filter_free(run.filter);
	run.filter = NULL;
	if (rc < 0)
		goto fail;
	h->recorded = req->session_id ? xstrdup(req->session_id) : NULL;
	if (FAULT("setns", err) < 0)
		goto fail;
	if (setns(h->pidfd, (int)(CLONE_NEWNS | CLONE_NEWPID | others)) < 0) {
		cc_fail_errno(err, "joining the sandbox's namespaces");
		goto fail;
	}
	h->inside = true;
	*out = h;
	return 0;
fail:
	if (run.initfd >= 0)
		close(run.initfd);
	if (run.service_pidfd >= 0)
		close(run.service_pidfd);
	seccomp_filter_free(run.filter);
	if (h->pidfd >= 0)
		sys_pidfd_send_signal(h->pidfd, SIGKILL);
	record_remove(h->recorded);
	handle_close(h);
	return -1;
}

int sandbox_return(struct sandbox_handle *h, struct cc_error *err)
{
	/* A forked child (sshd's post-auth child running pam_end, say) stays
	 * where it is: only the process that entered goes back. */
	if (!h || !h->inside || h->owner != getpid())
		return 0;
	for (size_t i = 0; i < NSAVED; i++)
		if (h->ns[i] >= 0 && setns(h->ns[i], saved_ns[i].type) < 0)
			return cc_fail_errno(err, "returning to the host's %s namespace",
					     saved_ns[i].name);
	if (chdir(h->cwd) < 0 && chdir("/") < 0)
		return cc_fail_errno(err, "returning to the working directory");
	if (cgroup_leave(h->cgroup, err) < 0)
		return -1;
	h->inside = false;
	return 0;
}

void sandbox_end(struct sandbox_handle *h)
{
	if (!h)
		return;
	/* SIGKILL to a namespace's init kills every process in it. */
	if (h->owner == getpid() && h->pidfd >= 0) {
		sys_pidfd_send_signal(h->pidfd, SIGKILL);
		record_remove(h->recorded);
	}
	handle_close(h);
}

bool sandbox_inside(const struct sandbox_handle *h)
{
	return h && h->inside;
}

bool sandbox_expired(const struct sandbox_handle *h)
{
	return h && h->deadline && boottime() >= h->deadline;
}

#define CODE_PATHS_TEXT "/etc, /usr, /lib*, /bin, /sbin and the nscd, systemd " \
	"and dbus directories of /run and /var/run"
