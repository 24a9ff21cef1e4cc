/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The setup's report protocol: what the processes that build a sandbox
 * (sandbox_run.c, sandbox_service.c, session_setup.c, cocoon-init) tell
 * each other, one byte naming each message. Plain C with no library behind the enum: cocoon-init, linked
 * statically against musl, uses it too. */
#ifndef COCOON_REPORT_H
#define COCOON_REPORT_H

#include <sys/types.h>

#include "error.h"

/* Two channels carry these messages.
 *
 * The report socket, a SOCK_SEQPACKET pair (one message per send),
 * close-on-exec in the children: the children send on it, the caller
 * (sandbox_run, sandbox_enter) reads. Its end of file, once every child
 * has exec'd or exited, means the setup is over: in run mode that the
 * command runs.
 *
 * The ready pipe, from pid 1 to the session process: pid 1 says whether
 * it created the namespaces that the session process joins (net, ipc,
 * uts, cgroup); its end of file then says that pid 1 reads no more host
 * files, and the session process may pivot.
 *
 * The wire values are fixed: a pam_cocoon.so that an upgrade left loaded
 * in a long-running service talks to the cocoon-init installed since. */
enum report_msg {
	/* Report socket. Any child (the session process, pid 1, service
	 * mode's helper) that fails, followed by the message text (no NUL);
	 * it exits at once. The caller keeps the first as the setup's
	 * failure. */
	REPORT_ERROR = 'E',
	/* Report socket, run mode. The session process, just unshared into
	 * its user namespace, with its own pidfd attached (SCM_RIGHTS): the
	 * caller writes the namespace's setgroups, uid_map and gid_map
	 * (write_maps) and answers with one of the next two on the same
	 * socket; the session process waits for it. */
	REPORT_USERNS_MAPS = 'U',
	/* Answer to REPORT_USERNS_MAPS: the maps are written; the session
	 * process goes on. */
	REPORT_MAPS_WRITTEN = 'K',
	/* Answer to REPORT_USERNS_MAPS: the maps could not be written. The
	 * caller holds the reason; the session process exits without a
	 * report. */
	REPORT_MAPS_FAILED = 'X',
	/* Report socket, service mode. Pid 2 has built the root and
	 * pivoted; it exits, and the caller may join pid 1's namespaces
	 * once it holds pid 1's pidfd as well. Nothing follows. */
	REPORT_BUILT = 'S',
	/* REPORT_BUILT, and the service runs chrooted: pid 1 made the
	 * chroot the session's namespace's root, and the caller must make
	 * itself a namespace to come back to (sandbox_return). */
	REPORT_BUILT_CHROOTED = 'C',
	/* Report socket, service mode. The helper, once pid 1 has executed
	 * cocoon-init, with pid 1's pidfd attached (SCM_RIGHTS): the caller
	 * keeps it to record, join and end the session. Races with
	 * REPORT_BUILT; both must come. */
	REPORT_PID1 = 'P',
	/* Ready pipe. Pid 1 (run mode's, or cocoon-init) created the
	 * namespaces: the session process joins them. Nothing follows. */
	REPORT_NAMESPACES_MADE = 'n',
	/* Ready pipe. cocoon-init could not create the namespaces; the
	 * error number follows in decimal. The session process fails with
	 * its strerror, through REPORT_ERROR. (Run mode's pid 1 sends
	 * REPORT_ERROR itself instead.) */
	REPORT_NAMESPACES_FAILED = 'e',
};

/* Send REPORT_ERROR with ERR's message on SOCK; nothing is done when
 * nobody listens any more. */
void report_error(int sock, const struct cc_error *err);

/* Send the message MSG alone on SOCK: 0, or -1 with errno. */
int report_send(int sock, enum report_msg msg);

/* Send MSG on SOCK with the descriptor FD attached: 0, or -1 with
 * errno. */
int report_send_fd(int sock, enum report_msg msg, int fd);

/* Receive one message from SOCK (recvmsg FLAGS): its bytes,
 * NUL-terminated, into BUF of SIZE bytes, and the one descriptor it may
 * carry into *FD (-1: none; close-on-exec). Any other descriptor is
 * closed. recvmsg's result: 0 is the end of file. */
ssize_t report_recv(int sock, int flags, char *buf, size_t size, int *fd);

/* Read one byte from FD (a pipe or the socket) into *C, again when a
 * signal interrupts: read's result. */
ssize_t report_read_byte(int fd, char *c);

#endif
