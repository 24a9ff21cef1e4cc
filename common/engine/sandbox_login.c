// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoon-shell's shared sandbox: service mode, with the login's program. */
/* cocoon-shell with share-sandbox (sandbox.h, sandbox_login_run): the
 * login joins or creates its user's shared sandbox as pam_cocoon's
 * service does (sandbox_enter), then forks the login's program in it as
 * the user, through the login shell's path, which leads to cocoon-launch
 * and its walls (seccomp, no_new_privs, Landlock), as sshd's exec of
 * the login shell does in a PAM session. The caller waits for it; its
 * own end is the login's, which pid 1 counts. */
#include <errno.h>
#include <linux/keyctl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "credentials.h"
#include "fault.h"
#include "identity.h"
#include "mounts.h"
#include "rlimits.h"
#include "sandbox.h"
#include "shells.h"
#include "syscalls.h"
#include "util.h"

/* A joined login's terminal in the sandbox: /dev/console- and this much
 * of its session id (random hex), short enough for utmp's line. */
#define TERMINAL_ID_CHARS 16
#define TERMINAL_NAME_MAX 32

/* The signals a login's end and its user's keys send, passed on. */
static const int passed_on[] = { SIGHUP, SIGTERM, SIGINT, SIGQUIT };
static volatile sig_atomic_t child_pid;

static void pass_on(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

/* The login's program, as the user, inside: never returns. Errors go to
 * stderr (the login's terminal) and end it with 127. */
static _Noreturn void login_program(const struct sandbox_request *req,
				    const struct identity *who, char *const *argv)
{
	const struct plan *plan = req->plan;
	struct cc_error err = { "" };
	sigset_t none;
	sigemptyset(&none);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* The caller's limits back, the plan's below them; then the user,
	 * with a keyring of its own (not root's, the caller's). */
	if (rlimits_apply(req->session_rlimits, &plan->limits, &err) < 0 ||
	    creds_become_user(who, &err) < 0)
		goto fail;
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS) {
		cc_fail_errno(&err, "joining a new session keyring");
		goto fail;
	}
	const char *home = plan->chdir ? "/" : who->home;
	if (!home || chdir(home) < 0) {
		if (chdir("/") < 0) {
			cc_fail_errno(&err, "chdir /");
			goto fail;
		}
	}
	/* The login shell's path in the sandbox's tree is cocoon-launch: it
	 * puts the walls on and runs the real shell with these arguments. */
	const char *path = shell_login_path(who->login_shell);
	execve(path, argv, req->envp);
	cc_fail_errno(&err, "exec %s", path);
fail:
	fprintf(stderr, "cocoon-shell: %s\n", err.msg);
	_exit(127);
}

/* Wait for the login's program, or for the login's end: its process
 * (sshd's session child, su, login: LOGIN_PARENT) gone, as when a
 * client without a pty drops the connection. Then the program gets
 * SIGHUP, as from a hung-up terminal, and this login is over; what it
 * left runs on in the shared sandbox, by its linger (a PAM login's
 * processes do the same when its service ends). Without a pidfd of the
 * program (pidfd_open failed: the descriptor table full), its end is
 * looked for with waitpid between polls of the parent's, every
 * WAIT_LOGIN_POLL_MS: a poll on -1 alone would never see it. */
#define WAIT_LOGIN_POLL_MS 200
static int wait_login(pid_t pid, pid_t login_parent, int *status, struct cc_error *err)
{
	struct cc_error no_pidfd __attribute__((unused)); /* FAULT only */
	int child AUTOCLOSE = FAULT("login pidfd", &no_pidfd) < 0 ? -1 : sys_pidfd_open(pid, 0);
	int parent AUTOCLOSE = login_parent > 1 ? sys_pidfd_open(login_parent, 0) : -1;
	/* The parent changes only by dying: checked after the pidfd pinned
	 * it, this one is still the login's. */
	bool parent_gone = login_parent > 1 && (parent < 0 || getppid() != login_parent);
	bool reaped = false;
	int wstatus = 0;
	struct pollfd pfd[2] = { { child, POLLIN, 0 }, { parent, POLLIN, 0 } };
	while (!parent_gone) {
		if (child < 0) {
			pid_t got = waitpid(pid, &wstatus, WNOHANG);
			if (got < 0 && errno != EINTR)
				return cc_fail_errno(err, "waitpid");
			if ((reaped = got == pid))
				break;
			/* Nothing to poll (no parent to watch): waitpid blocks
			 * below. */
			if (parent < 0)
				break;
		}
		int n = poll(pfd, 2, child < 0 ? WAIT_LOGIN_POLL_MS : -1);
		if (n < 0 && errno != EINTR)
			return cc_fail_errno(err, "waiting for the login");
		if (n > 0 && pfd[0].revents)
			break;
		if (n > 0 && pfd[1].revents)
			parent_gone = true;
	}
	if (parent_gone) {
		kill(pid, SIGHUP);
		kill(pid, SIGCONT);
		*status = 128 + SIGHUP;
		return 0;
	}
	while (!reaped && waitpid(pid, &wstatus, 0) < 0)
		if (errno != EINTR)
			return cc_fail_errno(err, "waitpid");
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	return 0;
}

int sandbox_login_run(const struct sandbox_request *req, char *const *argv,
		      const struct sandbox_login_hook *hook, int *status,
		      struct cc_error *err)
{
	/* The groups, looked up on the host (cocoon-shell leaves them for
	 * later: only a session that needs them waits for the directory). */
	struct identity who;
	identity_copy(&who, &req->plan->who);
	if (who.groups_later && identity_complete(&who, err) < 0) {
		identity_free(&who);
		return -1;
	}
	/* The login's terminal, taken while on the host, for a sandbox
	 * whose /dev (the plan's own `dev`) another login made. */
	int terminal AUTOCLOSE = -1;
	bool name_terminal = req->session_id && plan_has_own_dev(req->plan);
	struct sandbox_handle *h = NULL;
	if ((name_terminal && mounts_terminal_copy(&terminal, err) < 0) ||
	    sandbox_enter(req, &h, err) < 0) {
		identity_free(&who);
		return -1;
	}
	const char *sandbox_id = NULL;
	bool joined = false;
	if (!sandbox_shared(h, &sandbox_id, &joined))
		sandbox_id = NULL;
	char terminal_name[TERMINAL_NAME_MAX] = "";
	if (joined && terminal >= 0) {
		snprintf(terminal_name, sizeof(terminal_name), "console-%.*s",
			 TERMINAL_ID_CHARS, req->session_id);
		if (mounts_terminal_attach(terminal, terminal_name, err) < 0) {
			struct cc_error ignored;
			sandbox_return(h, &ignored);
			sandbox_end(h);
			identity_free(&who);
			return -1;
		}
	}
	autoclose_fd(&terminal);
	if (hook && hook->entered)
		hook->entered(sandbox_id, joined, hook->data);
	struct sigaction on = { .sa_handler = pass_on }, saved[ARRAY_SIZE(passed_on)];
	sigemptyset(&on.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(passed_on); i++)
		sigaction(passed_on[i], &on, &saved[i]);
	pid_t pid = fork();
	if (pid == 0)
		login_program(req, &who, argv);
	int rc = 0;
	if (pid < 0) {
		rc = cc_fail_errno(err, "fork");
	} else {
		child_pid = pid;
		rc = wait_login(pid, req->login_parent, status, err);
		child_pid = 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(passed_on); i++)
		sigaction(passed_on[i], &saved[i], NULL);
	if (terminal_name[0])
		mounts_terminal_detach(terminal_name);
	struct cc_error ignored;
	if (req->expired)
		*req->expired = sandbox_expired(h);
	sandbox_return(h, &ignored);
	sandbox_end(h);
	identity_free(&who);
	return rc;
}
