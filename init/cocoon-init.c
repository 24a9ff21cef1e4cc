// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoon-init: pid 1 of a service-mode session. */
/* cocoon-init: pid 1 of a service-mode session's pid namespace
 * (pam_cocoon), exec'd so that pid 1 holds none of the service's memory.
 * In run mode (cocoonctl run, cocoon-shell) the engine's own image does
 * the same work without an exec (common/engine/session_init.c).
 *
 * Usage (by the engine only):
 *     cocoon-init hold FD DEADLINE NAMESPACES READY [WARNINGS ID [LISTEN LINGER]]
 *     | cocoon-init --version
 * (and the older "hold FD [DEADLINE]", whose caller made the namespaces)
 *
 * DEADLINE (max-session-time): a CLOCK_BOOTTIME second at which the
 * session ends: SIGHUP to every process of the namespace, two seconds
 * for them to go, then the end (the kernel kills what is left when pid 1
 * exits); 0 for none.
 *
 * WARNINGS (session-time-warnings): seconds before DEADLINE at which the
 * session's terminals are told, comma-separated, or "-" for none; ID:
 * the session's id, the reference in those lines and in the one that
 * says the session ended (session_init.h).
 *
 * LISTEN and LINGER (share-sandbox): a descriptor listening for logins
 * that join the sandbox, and the milliseconds it outlives the last one
 * (-1: no end of its own); FD is then the first login's service
 * (session_init.h).
 *
 * NAMESPACES: the CLONE_NEW* flags of the namespaces to create first
 * (net, ipc, uts, cgroup), while the session process, pid 2, builds the
 * root; then REPORT_NAMESPACES_MADE (or REPORT_NAMESPACES_FAILED and the
 * error number; common/engine/report.h) is written to the descriptor READY,
 * which pid 2 reads before it joins them. READY is closed with the
 * others: its end of file tells pid 2 that pid 1 reads no more files,
 * and it may pivot.
 *
 * "hold": there is no main process; it reaps whatever is reparented to
 * it and lives until killed (SIGKILL from the host ends the whole
 * namespace) or until the service process (sshd's monitor, login, su)
 * ends without closing the session: FD is a pidfd of that process, the
 * one descriptor it keeps. It then kills whatever is left in the
 * namespace and exits. (Run mode's pid 1, in the engine's image, has a
 * main process instead: session_init's other mode.)
 *
 * It runs as root, so the session's processes (the user's) cannot signal
 * it; the kernel drops SIGKILL and SIGSTOP sent to a namespace's init from
 * inside. It holds no descriptor but FD and LISTEN (closing the others,
 * once it has made the namespaces, tells the session process that it
 * reads no more files and the root may pivot) and, shared, the log socket
 * its creator hands it over LISTEN for the sandbox's end record
 * (session_init.h, SHARE_RECORD), no environment, and is not dumpable, so
 * nothing of it is reachable from the session: /proc/1/fd is not the
 * user's to read. It reads no file once
 * running: it is linked statically against musl (see the Makefile), or
 * its libraries came from the host, before the sandbox's root existed.
 * Only what both C libraries offer is used here and in session_init.c. */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "report.h"
#include "session_init.h"

/* A decimal number from 0 to MAX, or -1. */
static long long number(const char *s, long long max)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	long long n = strtoll(s, &end, 10);
	return *end || n < 0 || n > max ? -1 : n;
}

/* "-", or at most SESSION_INIT_WARNINGS_MAX seconds, comma-separated. */
static int warnings_parse(char *text, struct session_init_notices *notices)
{
	if (strcmp(text, "-") == 0)
		return 0;
	/* strsep, not strtok: an empty field is an error, not skipped. */
	for (char *w; (w = strsep(&text, ","));) {
		long long s = number(w, LLONG_MAX / 1000);
		if (s <= 0 || notices->nwarnings == SESSION_INIT_WARNINGS_MAX)
			return -1;
		notices->warnings[notices->nwarnings++] = (unsigned long long)s;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* The engine never passes it: its arguments are numbers. */
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("cocoon-init %s\n", COCOON_VERSION);
		return 0;
	}
	/* Not dumpable before closing the descriptors: their end lets the
	 * session start. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* The older form, "hold FD [DEADLINE]", from a pam_cocoon.so an
	 * upgrade left loaded in a long-running service (cron forks without
	 * exec): its pid 1 made the namespaces and told the session process
	 * before the exec. */
	bool hold = argc >= 3 && argc <= 10 && argc != 5 && argc != 7 && argc != 9 &&
		    strcmp(argv[1], "hold") == 0;
	bool older = argc < 6;
	long long service = hold ? number(argv[2], 65535) : -1;
	long long deadline = !hold ? -1 : argc >= 4 ? number(argv[3], LLONG_MAX) : 0;
	long long namespaces = !hold ? -1 : older ? 0 : number(argv[4], INT_MAX);
	long long ready = !hold ? -1 : older ? 0 : number(argv[5], 65535);
	struct session_init_notices notices = { .id = argc >= 8 && strcmp(argv[7], "-") ? argv[7] : "", .end_line = true };
	bool shared = argc == 10;
	long long listen = shared ? number(argv[8], 65535) : -1;
	/* -1: no end; any other word that is no number is refused. */
	bool linger_forever = shared && strcmp(argv[9], "-1") == 0;
	long long linger = !shared ? 0 : linger_forever ? -1 : number(argv[9], LLONG_MAX);
	if (service < 0 || deadline < 0 || namespaces < 0 || ready < 0 ||
	    (argc >= 8 && warnings_parse(argv[6], &notices) < 0) ||
	    (!older && ready == service) || getpid() != 1 ||
	    (shared && (listen < 0 || listen == service || listen == ready ||
			(linger < 0 && !linger_forever)))) {
		session_init_close_all_but(-1, -1);
		return 127;
	}
	if (older) {
		session_init_close_all_but((int)service, -1);
		session_init(-1, (int)service, deadline, NULL, -1, NULL);
	}
	struct session_init_share share = { (int)listen, linger };
	/* On failure pid 2 reports the reason and the service ends the
	 * session (killing this process). */
	char said[16] = { REPORT_NAMESPACES_MADE };
	if (namespaces && unshare((int)namespaces) < 0)
		snprintf(said, sizeof(said), "%c%d", REPORT_NAMESPACES_FAILED, errno);
	if (write((int)ready, said, strlen(said)) != (ssize_t)strlen(said))
		return 127;
	session_init_close_all_but((int)service, (int)listen);
	session_init(-1, (int)service, deadline, &notices, -1, shared ? &share : NULL);
}
