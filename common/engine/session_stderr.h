/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A line written to the standard error of a live session's logins, when
 * that is a pipe or a socket (ssh with a command, a login's stderr
 * redirected): what session_terminals.h cannot reach. */
#ifndef COCOON_SESSION_STDERR_H
#define COCOON_SESSION_STDERR_H

#include <stdbool.h>
#include <sys/types.h>

/* Write TEXT and a newline once to each pipe or socket that is the
 * standard error (descriptor 2, open for writing) of a login of the
 * session whose pid 1 is SESSION_PID (as the host sees it, pinned by
 * SESSION_PIDFD unless -1; 0: the caller's own pid namespace, for pid 1
 * itself): nothing when that is not a pid namespace of the session's
 * own (a plan without one shares the host's); else each process of that
 * pid namespace whose parent is outside it, but its pid 1 (sshd's
 * session process, su's or login's shell, a joined login's launcher), and
 * the children of those (the command sshd runs); with INIT_PARENT (and
 * SESSION_PID given), also pid 1's parent, outside the namespace
 * (cocoon-shell, which runs pid 1 of its unshared sessions).
 *
 * The descriptors are taken with pidfd_getfd, never reopened by path,
 * and written by a child process that runs as UID and GID (uid -1: as
 * each process's own real ids), never as root (nothing is written then),
 * so nothing goes out with root's rights or credentials. Never blocks: a
 * full pipe or socket is skipped, and the child is killed if it takes
 * longer than 500 ms. Terminals and anything else are left to
 * session_terminals_write. Returns how many descriptors got the line.
 * Uses nothing but the C library: cocoon-init links it. */
int session_stderr_write(pid_t session_pid, int session_pidfd, bool init_parent, uid_t uid,
			 gid_t gid, const char *text);

#endif
