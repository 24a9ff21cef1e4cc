// SPDX-License-Identifier: GPL-2.0-or-later
/* A line to a live session's terminals, found through /proc. */
#include "session_terminals.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>


/* Terminals written to at most: pty-max's ceiling, and the consoles. */
#define TERMINALS_MAX 256
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424 /* the same on every architecture */
#endif

/* Pty slaves (UNIX98_PTY_SLAVE_MAJOR and the 7 after it) and ttys (4:
 * virtual consoles, serial lines). Not 5 (/dev/tty, the console, ptmx):
 * a master's writes are the session's input. */
static bool is_terminal(const struct stat *st)
{
	unsigned maj = major(st->st_rdev);
	return S_ISCHR(st->st_mode) && (maj == 4 || (maj >= 136 && maj <= 143));
}

/* The pid namespace's inode of process PID (as text): 0 when gone. */
static ino_t pidns_of(const char *pid)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%s/ns/pid", pid);
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

/* Open PATH (a /proc/PID/fd link) for writing, only if it is still the
 * terminal that stat saw: the process may swap its descriptor between
 * the two. */
static int open_terminal(const char *path, dev_t rdev)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !is_terminal(&st) || st.st_rdev != rdev)) {
		close(fd);
		return -1;
	}
	return fd;
}

int session_terminals_write(pid_t session_pid, int session_pidfd, const char *text)
{
	char pid[24];
	if (session_pid > 0)
		snprintf(pid, sizeof(pid), "%d", (int)session_pid);
	else
		snprintf(pid, sizeof(pid), "self");
	ino_t ns = pidns_of(pid);
	/* Only a pid namespace of the session's own holds its terminals and
	 * no one else's: without one (unshare without pid), or with the pid
	 * reused by a host process since, this would be every terminal of
	 * the host. Pid 1 asks for its own and must be pid 1 in it. */
	if (!ns || (session_pid > 0 ? ns == pidns_of("self") : getpid() != 1))
		return 0;
	if (session_pidfd >= 0 && syscall(SYS_pidfd_send_signal, session_pidfd, 0, NULL, 0) < 0)
		return 0; /* gone: PID may name another process now */
	DIR *proc = opendir("/proc");
	if (!proc)
		return 0;
	/* On a line of its own, whatever the cursor was doing; \r for a
	 * terminal in raw mode. No allocation of its own and nothing of
	 * util: cocoon-init, pid 1 of PAM sessions, links this file alone. */
	char line[512];
	snprintf(line, sizeof(line), "\r\n%.500s\r\n", text);
	dev_t done[TERMINALS_MAX];
	size_t ndone = 0;
	struct dirent *d;
	while (ndone < TERMINALS_MAX && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' || pidns_of(d->d_name) != ns)
			continue;
		for (int n = 0; n <= 2 && ndone < TERMINALS_MAX; n++) {
			char path[64];
			struct stat st;
			snprintf(path, sizeof(path), "/proc/%s/fd/%d", d->d_name, n);
			if (stat(path, &st) < 0 || !is_terminal(&st))
				continue;
			bool seen = false;
			for (size_t i = 0; i < ndone && !seen; i++)
				seen = done[i] == st.st_rdev;
			int fd = seen ? -1 : open_terminal(path, st.st_rdev);
			if (fd < 0)
				continue;
			if (write(fd, line, strlen(line)) > 0)
				done[ndone++] = st.st_rdev;
			close(fd);
		}
	}
	closedir(proc);
	return (int)ndone;
}
