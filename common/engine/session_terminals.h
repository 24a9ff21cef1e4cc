/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A line written to a live session's terminals, from outside it: what its
 * users are told when it is ended (cocoonctl stop --message). */
#ifndef COCOON_SESSION_TERMINALS_H
#define COCOON_SESSION_TERMINALS_H

#include <sys/types.h>

/* Write TEXT (one line, already free of control characters: it goes to
 * terminals) on its own line to every terminal that a process in the pid
 * namespace of SESSION_PID (a session's pid 1, as the host sees it; 0:
 * the caller's own, for pid 1 itself, whichever /proc it sees; nothing
 * when that is not a pid namespace of the session's own, which a plan
 * without one shares with the host) has
 * as its standard input, output or error: pty slaves and the console's
 * ttys, each once. Never a pty master (that would be the session's input)
 * nor anything else a process holds there; never blocks (a terminal the
 * user stopped with ^S is skipped). SESSION_PIDFD (-1: none), a pidfd of
 * SESSION_PID taken before, proves the pid was not reused since. Returns
 * how many terminals got it. */
int session_terminals_write(pid_t session_pid, int session_pidfd, const char *text);

#endif
