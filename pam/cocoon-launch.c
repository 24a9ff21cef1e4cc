// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoon-launch: confines what a service starts for the user, then runs it. */
/* cocoon-launch: in a session that pam_cocoon built, the user's login
 * shell path and /bin/sh lead here. The service process itself must not
 * carry the session's seccomp filter or no_new_privs (they would outlive
 * the session in it), so every program the service starts for the user
 * (the login shell; /bin/sh for sshd's ~/.ssh/rc, /etc/ssh/sshrc and
 * xauth) gets them from this small launcher instead, which then runs the
 * real program.
 *
 * It runs as the user, on nosuid mounts; its settings come from files
 * that root wrote into the sandbox's /run/cocoon, which the user cannot
 * change. Any failure ends here: no shell starts without its settings.
 * Linked statically, with common/engine/landlock.c and common/plan/forced_command.c
 * alone (against musl when the build has it; see the Makefile). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "forced_command.h"
#include "landlock.h"
#include "launch_settings.h"
#include "util.h"

#ifndef SYS_close_range
#define SYS_close_range 436 /* Linux 5.9, the same number everywhere */
#endif

#define FILTER "/run/cocoon/seccomp.bpf"
#define REAL_SHELL "/run/cocoon/shell"
#define REAL_SH "/run/cocoon/sh"
#define MAX_FILTER (64 * 1024)

/* No --version: the user's shell path leads here, so every argument is
 * the real shell's (bash --version must reach bash). The version is in
 * the file instead, for strings(1) and the package tests. */
__attribute__((used)) static const char version[] = "cocoon-launch " COCOON_VERSION;

/* One write(2), not stdio: musl's stdio writes with writev, which a
 * `seccomp = FILE` filter loaded by then may refuse. */
static void die(const char *what)
{
	char msg[PATH_MAX + 256];
	int n = snprintf(msg, sizeof(msg), "cocoon-launch: %s: %s\n", what, strerror(errno));
	if (n > 0) {
		size_t len = (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1;
		ssize_t ignored = write(STDERR_FILENO, msg, len);
		(void)ignored;
	}
	exit(126);
}

/* Read a root-owned file that nobody else can write. */
static size_t read_root_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022)) {
		errno = EPERM;
		die(path);
	}
	size_t got = 0;
	for (;;) {
		ssize_t n = read(fd, buf + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die(path);
		if (n == 0)
			break;
		got += (size_t)n;
		if (got == size) {
			errno = EFBIG;
			die(path);
		}
	}
	close(fd);
	return got;
}

/* The value of KEY in the settings (launch_settings.h); NULL when
 * absent. Cuts SETTINGS into lines on the first call. */
static const char *setting(char *settings, size_t len, const char *key)
{
	size_t klen = strlen(key);
	for (size_t i = 0; i < len; i++)
		if (settings[i] == '\n')
			settings[i] = '\0';
	for (const char *line = settings; line < settings + len;
	     line += strlen(line) + 1)
		if (strncmp(line, key, klen) == 0 && line[klen] == '=')
			return line + klen + 1;
	return NULL;
}

/* The policy's `command`: the "command=" lines in order, NULL-terminated
 * in ARGS (settings already cut into lines); 0 words when there is none. */
static size_t forced_command(const char *settings, size_t len, char **args,
			     size_t max)
{
	size_t count = 0;
	size_t klen = strlen(FORCED_COMMAND_KEY);
	for (const char *line = settings; line < settings + len;
	     line += strlen(line) + 1)
		if (strncmp(line, FORCED_COMMAND_KEY, klen) == 0 && count + 1 < max)
			args[count++] = (char *)line + klen;
	args[count] = NULL;
	return count;
}

/* Run the forced command instead of the shell; what was asked goes to
 * SSH_ORIGINAL_COMMAND only. */
static void exec_forced(char **command, char **argv)
{
	const char *original = forced_command_original(argv, getenv("SSH_ORIGINAL_COMMAND"),
						       command);
	if (original ? setenv("SSH_ORIGINAL_COMMAND", original, 1) < 0
		     : unsetenv("SSH_ORIGINAL_COMMAND") < 0)
		die("SSH_ORIGINAL_COMMAND");
	execv(command[0], command);
	die(command[0]);
}

/* Which real program this run stands for: /bin/sh's when it was started
 * through the file /bin/sh leads to (and the setup bound one, which it
 * does unless that is the login shell's own file), else the login
 * shell's. Only ever chosen between the two that root bound, and either
 * runs behind the same filter: a wrong guess costs nothing but the
 * program. /proc/self/exe names the mount it was started through; where
 * the plan has no /proc, the path given to execve does. */
static const char *real_program(void)
{
	static char self[PATH_MAX], sh[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
	} else {
		const char *execfn = (const char *)getauxval(AT_EXECFN);
		if (!execfn || !realpath(execfn, self))
			return REAL_SHELL;
	}
	if (!realpath("/bin/sh", sh) || strcmp(self, sh) != 0 || access(REAL_SH, X_OK) < 0)
		return REAL_SHELL;
	return REAL_SH;
}

static int is_yes(const char *value)
{
	return value && strcmp(value, LAUNCH_YES) == 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	const char *real = real_program();
	/* Run again inside the session (a nested bash, a #!/bin/sh script,
	 * $SHELL from tmux or vim): everything below is inherited already,
	 * since every process the user runs descends from a first launch.
	 * Doing it again would stack another filter, move the working
	 * directory, and fail on keyctl, which the filter refuses.
	 * With a forced command the real program still runs here: only the
	 * command and what it starts descend from the first launch (sshd
	 * starts every channel's shell afresh, without filter or
	 * no_new_privs), so a nested launch is the administrator's program
	 * running a script, never a way the user chose. */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == 2 ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1) {
		execv(real, argv);
		die(real);
	}
	/* Root in the sandbox (`cocoonctl enter --root`, the service itself)
	 * running /bin/sh is no program started for the user: it gets the
	 * real one, without the user's filter and working directory. Nothing
	 * of the user's runs as root here (every mount is nosuid). */
	if (getuid() == 0 && geteuid() == 0) {
		execv(real, argv);
		die(real);
	}
	/* The first run: what the service left open above the standard
	 * descriptors is the caller's, not the user's (root's `exec
	 * 9</etc/shadow; runuser -l USER`, login's and su's own files), and
	 * Landlock would not stop a descriptor already open, nor fchmod or
	 * fstatat through a directory one. Nested runs, above, keep the
	 * user's own. */
	if (syscall(SYS_close_range, 3U, ~0U, 0U) < 0)
		die("closing inherited descriptors");
	/* Nor a directory as a standard descriptor (root's `runuser -l USER
	 * < DIR`): the same way into the host's tree, as cocoon-shell
	 * refuses it too. */
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			die("a standard descriptor is a directory; refusing");
		}
	}
	/* 128 bytes to spare beyond the writer's largest text. */
	static char settings[LAUNCH_SETTINGS_SIZE + 128];
	size_t n = read_root_file(LAUNCH_SETTINGS_PATH, settings, sizeof(settings) - 1);
	settings[n] = '\0';
	int nnp = is_yes(setting(settings, n, LAUNCH_KEY_NO_NEW_PRIVS));
	int filter = is_yes(setting(settings, n, LAUNCH_KEY_SECCOMP));
	int log = is_yes(setting(settings, n, LAUNCH_KEY_SECCOMP_LOG));
	const char *landlock = setting(settings, n, LAUNCH_KEY_LANDLOCK);
	int landlock_required = landlock && strcmp(landlock, LAUNCH_LANDLOCK_REQUIRED) == 0;
	/* LL_SCOPE_* bits; an older module that wrote none gets them all. */
	const char *scope_text = setting(settings, n, LAUNCH_KEY_LANDLOCK_SCOPE);
	unsigned scope = scope_text ? (unsigned)strtoul(scope_text, NULL, 10) & LL_SCOPE_ALL
				    : LL_SCOPE_ALL;
	const char *dir = setting(settings, n, LAUNCH_KEY_CHDIR);
	const char *home = setting(settings, n, LAUNCH_KEY_HOME);
	static char *command[FORCED_COMMAND_MAX / FORCED_COMMAND_LINE + 1];
	size_t command_words = forced_command(settings, n, command,
					      ARRAY_SIZE(command));

	/* A keyring of this session's own: through su, the caller's would
	 * otherwise be inherited. keyctl is refused by the filter below. */
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS)
		die("new session keyring");
	if (nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die("no_new_privs");
	/* The Landlock wall, as in session_setup.c. Here the user holds no
	 * CAP_SYS_ADMIN: it needs no_new_privs, which a seccomp filter in
	 * service mode needs too; without either the session goes without. */
	/* Its mqueue rule comes from the plan's /dev/mqueue, which the
	 * plan can only mount in an ipc namespace of its own. */
	int wall = nnp ? landlock_wall(true, scope) : 0;
	if (wall < 0)
		die("landlock");
	if (wall == 0 && landlock_required) {
		errno = ENOTSUP;
		die("landlock = required, and no Landlock wall could be built");
	}
	if (filter) {
		static struct sock_filter code[MAX_FILTER / sizeof(struct sock_filter)];
		size_t bytes = read_root_file(FILTER, (char *)code, sizeof(code));
		if (bytes == 0 || bytes % sizeof(struct sock_filter)) {
			errno = EINVAL;
			die(FILTER);
		}
		struct sock_fprog prog = {
			.len = (unsigned short)(bytes / sizeof(struct sock_filter)),
			.filter = code,
		};
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    log ? SECCOMP_FILTER_FLAG_LOG : 0, &prog) < 0)
			die("loading the seccomp filter");
	}
	/* The plan's working directory; the home, then /, when it fails. */
	if (dir && chdir(dir) < 0 && (!home || chdir(home) < 0) && chdir("/") < 0)
		die("chdir /");
	/* A forced command holds whichever way the session came here: a
	 * first run through /bin/sh is sshd running ~/.ssh/rc or xauth. */
	if (command_words)
		exec_forced(command, argv);
	execv(real, argv);
	die(real);
}
