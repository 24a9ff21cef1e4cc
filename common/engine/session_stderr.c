// SPDX-License-Identifier: GPL-2.0-or-later
/* A line to the stderr pipes and sockets of a live session's logins. */
#include "session_stderr.h"
#include "credentials_ids.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same on every architecture */
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424 /* the same on every architecture */
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438 /* the same on every architecture */
#endif

/* Processes looked at in the namespace, and descriptors written to. */
#define PROCS_MAX 4096
#define TARGETS_MAX 64
/* How long a writer may take before it is killed. */
#define WRITER_MS 500

/* The pid namespace's inode of process PID (as text): 0 when gone. */
static ino_t pidns_of(const char *pid)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%s/ns/pid", pid);
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

/* The text of /proc/PID/NAME, cut to SIZE - 1 bytes; -1 when unread. */
static ssize_t proc_read(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The parent of PID (0: none in the reader's namespace; -1: gone). */
static pid_t parent_of(pid_t pid)
{
	char buf[512];
	if (proc_read(pid, "stat", buf, sizeof(buf)) <= 0)
		return -1;
	/* After the command's name, which may hold anything but ends with
	 * the last ')': " STATE PPID". */
	char *p = strrchr(buf, ')');
	int ppid;
	return p && sscanf(p + 1, " %*c %d", &ppid) == 1 ? ppid : -1;
}

/* The real uid and gid of PID, from its status. */
static int real_ids(pid_t pid, uid_t *uid, gid_t *gid)
{
	char buf[2048];
	if (proc_read(pid, "status", buf, sizeof(buf)) <= 0)
		return -1;
	char *u = strstr(buf, "\nUid:"), *g = strstr(buf, "\nGid:");
	unsigned long ru, rg;
	if (!u || !g || sscanf(u + 5, "%lu", &ru) != 1 || sscanf(g + 5, "%lu", &rg) != 1)
		return -1;
	*uid = (uid_t)ru;
	*gid = (gid_t)rg;
	return 0;
}

struct target {
	int fd;
	uid_t uid;
	gid_t gid;
	bool socket;
	dev_t dev;
	ino_t ino;
};

/* PID's descriptor 2 as a target, if it is a pipe or socket open for
 * writing not yet in T: taken through its pidfd (pidfd_getfd), the
 * description itself with the process's access mode, never reopened by
 * path (which would open it anew with root's rights). Only while PID,
 * pinned by the pidfd, is still what was found: in the namespace NS, or
 * (NS 0) the parent of CHILD; a pid reused since then is skipped. */
static void take(pid_t pid, ino_t ns, pid_t child, uid_t uid, gid_t gid,
		 struct target *t, size_t *n)
{
	if (*n >= TARGETS_MAX)
		return;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return;
	char name[24];
	snprintf(name, sizeof(name), "%d", (int)pid);
	uid_t ru = uid;
	gid_t rg = gid;
	/* Never written as root, whoever the session's user is. */
	if ((ns ? pidns_of(name) != ns : parent_of(child) != pid) ||
	    (uid == (uid_t)-1 && real_ids(pid, &ru, &rg) < 0) || ru == 0) {
		close(pidfd);
		return;
	}
	int fd = (int)syscall(SYS_pidfd_getfd, pidfd, 2, 0);
	close(pidfd);
	if (fd < 0)
		return;
	struct stat st;
	int fl = fcntl(fd, F_GETFL);
	bool ok = fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) &&
		  fl >= 0 && ((fl & O_ACCMODE) == O_WRONLY || (fl & O_ACCMODE) == O_RDWR);
	for (size_t i = 0; ok && i < *n; i++)
		ok = !(t[i].dev == st.st_dev && t[i].ino == st.st_ino);
	if (!ok) {
		close(fd);
		return;
	}
	t[(*n)++] = (struct target){ fd, ru, rg, S_ISSOCK(st.st_mode), st.st_dev, st.st_ino };
}

/* The writer, a child: T's ids, then one write that cannot block. */
static _Noreturn void write_as(const struct target *t, const char *line, size_t len)
{
	signal(SIGPIPE, SIG_IGN);
	/* No supplementary groups: the line needs none. */
	if (ids_switch(t->uid, t->gid, 0, NULL) != IDS_OK ||
	    ids_check(t->uid, t->gid, 0, NULL) != IDS_OK)
		_exit(2);
	ssize_t n;
	if (t->socket) {
		n = send(t->fd, line, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	} else {
		/* A pipe with room takes a write below PIPE_BUF whole, at
		 * once; a full one is skipped. */
		struct pollfd p = { t->fd, POLLOUT, 0 };
		n = poll(&p, 1, 0) == 1 && (p.revents & POLLOUT) ? write(t->fd, line, len) : -1;
	}
	_exit(n == (ssize_t)len ? 0 : 1);
}

/* Run a writer for T and wait for it, WRITER_MS at most. */
static bool written(const struct target *t, const char *line, size_t len)
{
	pid_t child = fork();
	if (child < 0)
		return false;
	if (child == 0)
		write_as(t, line, len);
	int status = 0;
	pid_t got = 0;
	for (int waited = 0; waited < WRITER_MS; waited += 5) {
		got = waitpid(child, &status, WNOHANG);
		if (got != 0 && !(got < 0 && errno == EINTR))
			break;
		nanosleep(&(struct timespec){ 0, 5 * 1000000L }, NULL);
	}
	if (got == 0) {
		kill(child, SIGKILL);
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
		return false;
	}
	return got == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int session_stderr_write(pid_t session_pid, int session_pidfd, bool init_parent, uid_t uid,
			 gid_t gid, const char *text)
{
	char init[24];
	snprintf(init, sizeof(init), "%d", session_pid > 0 ? (int)session_pid : 1);
	ino_t ns = pidns_of(session_pid > 0 ? init : "self");
	/* Only a pid namespace of the session's own tells its logins from
	 * everything else: without one (unshare without pid), or with the
	 * pid reused by a host process since, the "logins" would be init's
	 * children, the host's services. Pid 1 asks for its own namespace
	 * and must be pid 1 in it; the host asks for another one. */
	if (!ns || (session_pid > 0 ? ns == pidns_of("self") : getpid() != 1))
		return 0;
	if (session_pidfd >= 0 && syscall(SYS_pidfd_send_signal, session_pidfd, 0, NULL, 0) < 0)
		return 0; /* gone: PID may name another process now */
	DIR *proc = opendir("/proc");
	if (!proc)
		return 0;
	/* The namespace's processes and their parents, then the logins
	 * (parent outside) and their children. */
	static pid_t pids[PROCS_MAX], parents[PROCS_MAX];
	static bool outside[PROCS_MAX];
	size_t nprocs = 0;
	struct dirent *d;
	while (nprocs < PROCS_MAX && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' || strcmp(d->d_name, init) == 0 ||
		    pidns_of(d->d_name) != ns)
			continue;
		pid_t pid = (pid_t)atoi(d->d_name), ppid = parent_of(pid);
		char parent[24];
		snprintf(parent, sizeof(parent), "%d", (int)ppid);
		if (ppid < 0)
			continue;
		pids[nprocs] = pid;
		parents[nprocs] = ppid;
		outside[nprocs] = ppid == 0 || pidns_of(parent) != ns;
		nprocs++;
	}
	closedir(proc);
	struct target t[TARGETS_MAX];
	size_t n = 0;
	pid_t login = init_parent && session_pid > 0 ? parent_of(session_pid) : 0;
	if (login > 0)
		take(login, 0, session_pid, uid, gid, t, &n);
	for (size_t i = 0; i < nprocs; i++) {
		bool child = false;
		for (size_t j = 0; !outside[i] && !child && j < nprocs; j++)
			child = outside[j] && pids[j] == parents[i];
		if (outside[i] || child)
			take(pids[i], ns, 0, uid, gid, t, &n);
	}
	char line[512];
	snprintf(line, sizeof(line), "%.500s\n", text);
	int told = 0;
	for (size_t i = 0; i < n; i++) {
		told += written(&t[i], line, strlen(line));
		close(t[i].fd);
	}
	return told;
}
