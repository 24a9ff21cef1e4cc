// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoon-shell: a setuid-root login shell that confines its session. */
/* cocoon-shell: a setuid-root login shell that starts the policy's real
 * shell inside the user's sandbox. Anyone can run it with any argv,
 * environment, rlimits, umask, signal state and file descriptors, so it
 * trusts none of them: the user is the real uid, the policy path is
 * compiled in, and argv only reaches the real shell, inside the sandbox
 * (or, under a forced `command`, only its SSH_ORIGINAL_COMMAND). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "admission.h"
#include "audit.h"
#include "credentials.h"
#include "environment.h"
#include "records.h"
#include "rlimits.h"
#include "sandbox.h"
#include "shells.h"
#include "systemd_scope.h"
#include "util.h"

#define SERVICE SHELL_SERVICE

/* The audit record of this login (cocoon.conf(5), AUDIT RECORDS), filled
 * as we learn; logged to authpriv at its start, its end, or a refusal,
 * through journald's socket (connected in audit_begin, on the host) or
 * syslog. */
static struct audit_record record;
static struct audit_log records = { .journal = -1, .identifier = "cocoon-shell", .prefix = "" };

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	record.event = "refuse";
	record.result = "refused";
	record.reason = msg;
	/* A refusal has an id of its own, unless the session had one. The
	 * user gets the fixed line and the id; the reason may name the
	 * policy's paths and rules, and stays in the log. Root, who may
	 * read the policy, gets the reason as well. */
	char id[33];
	struct strbuf line = { 0 };
	audit_log_refusal(&records, &record, id, &line);
	fputs(line.data, stderr);
	if (record.uid == 0) /* the caller's, read before we took root */
		fprintf(stderr, "cocoon-shell: %s\n", msg);
	sb_free(&line);
	exit(1);
}

/* Open the log and start the record: the caller is the user, and the
 * terminal is the one thing of the login we can name for sure. */
static void audit_begin(void)
{
	static char tty[64];
	audit_init(&record, "refuse");
	record.service = SERVICE;
	record.uid = getuid();
	if (ttyname_r(STDIN_FILENO, tty, sizeof(tty)) == 0)
		record.tty = tty;
	openlog("cocoon-shell", LOG_PID, LOG_AUTHPRIV);
	records.journal = audit_journal_connect();
}

/* fds 0-2 open, so nothing we open later lands on them; and none of them
 * a directory, which would hand the session a way into the host's tree
 * (a login's standard descriptors are terminals, pipes, sockets, files). */
static void ensure_stdio(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			static const char msg[] = "cocoon-shell: a standard descriptor "
						  "is a directory; refusing\n";
			ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);
			(void)ignored;
			_exit(1);
		}
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int null = open("/dev/null", O_RDWR);
		if (null != fd)
			_exit(127); /* cannot even report it */
	}
}

/* The caller chose our signal mask and dispositions; start from the
 * defaults, as sshd or login leave them for a login shell (the engine
 * then takes the signals it forwards to the session). But the terminal's
 * stop signals are ignored, by us and by the setup's processes we fork:
 * a ^Z would stop the setup half-way, or stop the supervisor that must
 * see the login end. The session's command gets them back (the engine
 * starts a login's command with every disposition default; so does
 * start_unconfined). */
static const int stop_signals[] = { SIGTSTP, SIGTTIN, SIGTTOU };

static void reset_signals(void)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		signal(stop_signals[i], SIG_IGN);
}

/* Privileged setup runs with known limits; the caller's come back for
 * the session itself (pam_limits may have set them for this login). Hard
 * limits are only ever raised here: lowering one now would make the
 * restore a raise, which the session process may no longer do. Without
 * CAP_SYS_RESOURCE (some containers) a hard limit stays, and the soft
 * one goes as far as it. */
static void set_at_least(int resource, rlim_t soft, const struct rlimit *caller)
{
	struct rlimit lim = *caller;
	if (lim.rlim_cur != RLIM_INFINITY && (soft == RLIM_INFINITY || lim.rlim_cur < soft))
		lim.rlim_cur = soft;
	if (lim.rlim_max != RLIM_INFINITY &&
	    (lim.rlim_cur == RLIM_INFINITY || lim.rlim_max < lim.rlim_cur))
		lim.rlim_max = lim.rlim_cur;
	if (setrlimit(resource, &lim) < 0)
		setrlimit(resource, &(struct rlimit){ caller->rlim_max, caller->rlim_max });
}

/* What the privileged part needs at the least: below it, it would die
 * half way (SIGXFSZ writing the session record, say) instead of refusing. */
static void require(int resource, const char *name, rlim_t least)
{
	struct rlimit now;
	if (getrlimit(resource, &now) == 0 &&
	    (now.rlim_cur == RLIM_INFINITY || now.rlim_cur >= least))
		return;
	die("the caller's %s limit (%llu, and cocoon-shell may not raise it) is "
	    "below the %llu it needs", name, (unsigned long long)now.rlim_cur,
	    (unsigned long long)least);
}

static void take_rlimits(struct rlimit saved[RLIM_NLIMITS])
{
	for (int r = 0; r < RLIM_NLIMITS; r++)
		getrlimit(r, &saved[r]);
	/* Never dump our memory: the soft limit alone does that. */
	setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, saved[RLIMIT_CORE].rlim_max });
	set_at_least(RLIMIT_FSIZE, RLIM_INFINITY, &saved[RLIMIT_FSIZE]);
	set_at_least(RLIMIT_NOFILE, 1024, &saved[RLIMIT_NOFILE]);
	set_at_least(RLIMIT_AS, RLIM_INFINITY, &saved[RLIMIT_AS]);
	set_at_least(RLIMIT_DATA, RLIM_INFINITY, &saved[RLIMIT_DATA]);
	set_at_least(RLIMIT_STACK, 8 << 20, &saved[RLIMIT_STACK]);
	set_at_least(RLIMIT_NPROC, RLIM_INFINITY, &saved[RLIMIT_NPROC]);
	set_at_least(RLIMIT_MEMLOCK, 8 << 20, &saved[RLIMIT_MEMLOCK]);
	set_at_least(RLIMIT_CPU, RLIM_INFINITY, &saved[RLIMIT_CPU]);
	require(RLIMIT_FSIZE, "file size", 1 << 20);
	require(RLIMIT_NOFILE, "open files", 64);
	require(RLIMIT_STACK, "stack size", 1 << 20);
}

/* Root for the privileged part; from here the caller can neither
 * signal, trace nor dump us. */
static void take_privileges(void)
{
	struct cc_error err;
	if (geteuid() != 0)
		die("not installed setuid root");
	if (prctl(PR_SET_DUMPABLE, 0) < 0)
		die("cannot take privileges: %s", strerror(errno));
	if (creds_take_root(&err) < 0)
		die("cannot take privileges: %s%s%s%s", err.msg, err.errnum ? " (" : "",
		    err.errnum ? strerror(err.errnum) : "", err.errnum ? ")" : "");
}

/* The caller's environment, kept for the front door to take what a
 * login may carry in; privileged code runs with none. */
static char **take_environment(char **envp)
{
	char **kept = NULL;
	size_t n = 0, cap = 0;
	for (char **e = envp; e && *e; e++)
		*ARRAY_PUSH(kept, n, cap) = xstrdup(*e);
	*ARRAY_PUSH(kept, n, cap) = NULL;
	clearenv();
	return kept;
}

/* sandbox = none, the administrator's explicit choice: the command runs
 * as the user, with the caller's limits and umask. */
static _Noreturn void start_unconfined(const struct admission *a,
				       const struct rlimit *saved_limits, mode_t caller_umask)
{
	struct cc_error err;
	const struct identity *who = &a->plan.who;
	record.event = "start";
	audit_log_write(&records, LOG_INFO, &record);
	if (creds_switch_user(who, &err) < 0)
		die("cannot switch to %s: %s", who->user, err.msg);
	if (rlimits_apply(saved_limits, NULL, &err) < 0)
		die("%s", err.msg);
	umask(caller_umask);
	if (chdir(who->home) < 0 && chdir("/") < 0)
		die("chdir: %s", strerror(errno));
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		signal(stop_signals[i], SIG_DFL);
	execve(a->path, a->argv, a->envp);
	die("%s: %s", a->path, strerror(errno));
}

/* share-sandbox: the start record, once the login is in the sandbox
 * and knows whether it made it or joined it. */
static void shared_start(const char *sandbox_id, bool joined, void *data)
{
	struct audit_session *session = data;
	audit_session_shared(session, sandbox_id, joined);
	audit_session_start(session, &record);
	record.event = "start";
	audit_log_write(&records, LOG_INFO, &record);
	record.sandbox = record.share = NULL;
}

/* The sandboxed session, supervised from here until it ends; its exit
 * status is the login's. Under share-sandbox the login joins (or makes)
 * the user's shared sandbox instead, as a PAM login does, and runs ARGV
 * there through the login shell's path. */
static int run_sandboxed(const struct admission *a, struct rlimit *saved_limits,
			 mode_t caller_umask, pid_t login_parent, char **argv)
{
	struct cc_error err;
	char id[33];
	if (record_session_id_new(id, &err) < 0)
		die("%s", err.msg);
	record.session = id;
	struct audit_session session;
	audit_session_begin(&session, &a->plan, id);
	/* Shared, the start record waits for the sandbox (shared_start). */
	if (!a->plan.share) {
		record.event = "start";
		audit_log_write(&records, LOG_INFO, &record);
	}
	bool expired = false;
	struct sandbox_request req = {
		.plan = &a->plan,
		.path = a->path,
		.argv = a->argv,
		.envp = a->envp,
		.session_rlimits = saved_limits,
		.expired = &expired,
		.session_id = id,
		.login = true,
		.login_parent = login_parent,
	};
	int status, rc;
	umask(caller_umask);
	if (a->plan.share) {
		req.init_path = COCOON_LIBEXECDIR "/cocoon-init";
		req.launcher_path = COCOON_LIBEXECDIR "/cocoon-launch";
		req.real_shell = a->shell;
		/* Its own cgroup, as in run mode: no pam_systemd scope
		 * holds a cocoon-shell login to the limits. Under systemd,
		 * a scope of the sandbox's own, as a PAM login's: left in
		 * its first login's session scope, it would end with that
		 * login where logind kills a session's processes. */
		req.login = false;
		req.start_scope = systemd_scope_start;
		/* The shared sandbox's own end record, should this login
		 * create it: this login's user, service and plan. */
		struct strbuf template = { 0 };
		int log = audit_log_end_record(&records, &record, &template);
		req.end_record_log = log;
		req.end_record = log >= 0 ? template.data : NULL;
		struct sandbox_login_hook hook = { shared_start, &session };
		rc = sandbox_login_run(&req, argv, &hook, &status, &err);
		if (log >= 0)
			close(log);
		sb_free(&template);
		if (rc < 0)
			die("%s", err.msg);
	} else if (sandbox_run(&req, &status, &err) < 0) {
		die("%s", err.msg);
	}
	/* A shared sandbox's pid 1 (cocoon-init) has told the login's
	 * terminal or stderr pipe already (session_init.h): not twice. */
	if (expired && !a->plan.share) {
		struct strbuf line = { 0 };
		audit_user_notice(AUDIT_NOTICE_EXPIRED, id, NULL, &line);
		fputs(line.data, stderr);
		sb_free(&line);
	}
	record.event = "end";
	audit_session_end(&session, expired, &record); /* once: it takes stop's mark */
	record.status = status;
	audit_log_write(&records, audit_end_priority(&record), &record);
	return status;
}

int main(int argc, char **argv, char **envp)
{
	/* The login's process (sshd's session child, su, login), before
	 * anything: the session ends when it does (sandbox.h). */
	pid_t login_parent = getppid();
	/* Only a direct call with that one argument, as bash takes it: no
	 * login starts a shell so (login, su - and sshd set a '-' argv[0];
	 * sshd always passes -c). It does nothing privileged. */
	if (argc == 2 && argv[0][0] != '-' && strcmp(argv[1], "--version") == 0) {
		printf("cocoon-shell %s\n", COCOON_VERSION);
		return 0;
	}
	ensure_stdio();
	/* A descriptor the caller left open (a host directory, say) must not
	 * reach the session; nothing above 2 is ours yet. */
	close_range(3, ~0U, 0);
	reset_signals();
	/* Our own files get a known umask; the session gets the caller's
	 * back (login and pam_umask chose it), set just before the engine
	 * runs, which builds the root with exact modes whatever it is. */
	mode_t caller_umask = umask(022);
	audit_begin();
	/* The user is the real uid, read before we take root. */
	uid_t caller = getuid();
	take_privileges();
	struct rlimit saved_limits[RLIM_NLIMITS];
	take_rlimits(saved_limits);
	char **caller_env = take_environment(envp);

	/* argv and the environment reach only the session's command. */
	struct admission_request asked = {
		.kind = ENTRY_COCOON_SHELL, .uid = caller, .groups = GROUPS_LATER,
		.argc = argc, .argv = argv, .envp = caller_env,
	};
	static struct admission a;
	int decided = admission_decide(&asked, &a);
	environment_free(caller_env);
	static char user[256];
	if (a.known_account) {
		snprintf(user, sizeof(user), "%s", a.who.user);
		record.user = user;
	}
	admission_record(&a, &record);
	if (decided < 0)
		die("%s", a.reason);
	if (a.verdict == VERDICT_UNCONFINED)
		start_unconfined(&a, saved_limits, caller_umask);
	/* Exempt and audit are pam_cocoon's alone: anything else but a
	 * sandbox is refused, never run. */
	if (a.verdict != VERDICT_SANDBOXED)
		die("the session policy gave %s, which cocoon-shell does not run",
		    admission_verdict_name(a.verdict));
	return run_sandboxed(&a, saved_limits, caller_umask, login_parent, argv);
}
