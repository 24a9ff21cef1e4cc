/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pid 1 of a session's pid namespace: cocoon-init's whole work, shared by
 * the cocoon-init program (service mode, exec'd so that pid 1 holds none
 * of the service's memory) and by the engine's run mode, whose pid 1 is
 * the caller's own small image and needs no exec. */
#ifndef COCOON_SESSION_INIT_H
#define COCOON_SESSION_INIT_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* Sent to pid 1 (only root can): the login is over, end the session as
 * at its max-session-time: SIGHUP and SIGCONT to every process, and
 * SIGKILL to what is left SESSION_INIT_GRACE_MS later. */
#define SESSION_INIT_END SIGUSR1
#define SESSION_INIT_GRACE_MS 2000

/* What pid 1 tells the session's terminals (session_terminals.h) before
 * its deadline ends it: "this session ends in ..." WARNINGS seconds
 * before it (session-time-warnings; one already past at the start is
 * skipped), and with END_LINE, at the hang-up, that it ended (that line
 * also to the logins' stderr pipes and sockets: session_stderr.h). ID (the
 * session's, "" for none) is the reference in each line. */
#define SESSION_INIT_WARNINGS_MAX 8
struct session_init_notices {
	const char *id;
	unsigned long long warnings[SESSION_INIT_WARNINGS_MAX];
	unsigned nwarnings;
	bool end_line;
};

/* A shared sandbox (share-sandbox, sandbox_share.h): pid 1 holds it for
 * every login attached, and LINGER_MS past the last (0: not at all, -1:
 * until its deadline, SESSION_INIT_END or SIGKILL). Logins attach over
 * LISTEN_FD, a listening socket only root reaches: a request is one byte,
 * SHARE_JOIN with the joining service's pidfd (SCM_RIGHTS), answered by
 * SHARE_JOINED, the sandbox's id (its notices') and its DEADLINE (0:
 * none) with pid 1's own pidfd; or SHARE_STATUS, answered by
 * "LOGINS LINGER\n", LINGER the seconds left of a linger (-1: none
 * running: logins attached, or a linger without end). A
 * login leaves when its service process ends. Once the sandbox ends the
 * socket is closed first, so that no login joins what is ending. */
#define SHARE_JOIN 'J'
#define SHARE_JOINED 'j'
#define SHARE_STATUS 'S'
/* The audit record of the sandbox's own end (cocoon.conf(5), AUDIT
 * RECORDS, share=ended), which no login is there to write: the login
 * that created the sandbox sends SHARE_RECORD with a log socket,
 * connected on the host (journald's native socket or syslog's, which a
 * connected socket reaches from inside the sandbox), then the record's
 * template (session_init_record_format) and the end of its writing;
 * pid 1 answers SHARE_RECORDED once it holds both. Once per sandbox.
 * Nothing of the policy goes through argv, which the session can read. */
#define SHARE_RECORD 'R'
#define SHARE_RECORDED 'r'
#define SESSION_INIT_RECORD_MAX 4096
#define SHARE_LOGINS_MAX 256
struct session_init_share {
	int listen_fd;
	long long linger_ms;
};

/* Reap every process of the namespace, relay TERM, HUP, INT and QUIT to
 * MAIN_PID and end with its status (128+N when killed by signal N), first
 * killing whatever is left. MAIN_PID -1 holds instead: no main process,
 * the end comes with SIGKILL or when the process behind the pidfd
 * SERVICE_FD ends. DEADLINE: a CLOCK_BOOTTIME second at which the session
 * is hung up and, SESSION_INIT_GRACE_MS later, ended (0: none), told
 * beforehand as NOTICES say (NULL: nothing);
 * SESSION_INIT_END does the same at once, untold. SHARE (NULL: none; hold
 * mode only): SERVICE_FD is the first of the logins attached. STATUS_FD (-1:
 * none): the status, one byte, is written there once every other process
 * is reaped, before this one's own end, which takes a while (its mount
 * namespace is torn down).
 *
 * The caller is pid 1, has every signal blocked (none sent meanwhile is
 * lost) and holds no descriptor but SERVICE_FD and STATUS_FD. Never
 * returns; reads no file but the session's own /proc, for its notices. */
_Noreturn void session_init(pid_t main_pid, int service_fd, long long deadline,
			    const struct session_init_notices *notices, int status_fd,
			    const struct session_init_share *share);

/* The end record from TEMPLATE (NUL-terminated; its lines: "j" or "s"
 * and the syslog facility's number, as "s 80"; a prefix for the text;
 * the record's fields up to its session, as audit_format writes them;
 * for "j" then journald's fields for the same, each line "NAME=value"
 * or in the protocol's binary form, ending in a newline), RESULT,
 * REASON (NULL: none), DURATION (seconds) and the sandbox's ID appended:
 * for "j" one datagram of journald's native protocol (PRIORITY,
 * MESSAGE, the template's fields, COCOON_RESULT ... COCOON_SHARE), for
 * "s" a syslog line "<PRI>" and the text. PRIORITY: LOG_INFO, or
 * LOG_NOTICE when RESULT is "expired". Its length in OUT, or -1 for a
 * template that is none or a record longer than SIZE. */
long session_init_record_format(const char *template, const char *result, const char *reason,
				long long duration, const char *id, char *out, size_t size);

/* Close every descriptor but KEEP and KEEP2 (-1: none), as pid 1 does
 * before session_init; close_range where both C libraries have the
 * number. */
void session_init_close_all_but(int keep, int keep2);

#endif
