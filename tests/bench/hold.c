// SPDX-License-Identifier: GPL-2.0-or-later
/* bench-hold SERVICE USER: a PAM login held open, as sshd holds one for
 * its connection. It opens a session of SERVICE for USER, prints "open"
 * on standard output, and keeps it until SIGTERM or SIGINT, then closes
 * it. tests/bench/run keeps a user's shared sandbox alive with it while
 * pamtester logins join that sandbox: pamtester alone closes its session
 * at once, and the sandbox would end with it. Exits 0 when both the open
 * and the close succeeded. */
#include <security/pam_appl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

// No module of the bench stacks asks anything: any question is an error.
static int no_conv(int n, const struct pam_message **msg,
		   struct pam_response **resp, void *data)
{
	(void)n; (void)msg; (void)resp; (void)data;
	return PAM_CONV_ERR;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench-hold SERVICE USER\n");
		return 2;
	}
	// Blocked before the session opens: a signal that comes early waits.
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigprocmask(SIG_BLOCK, &stop, NULL);

	const struct pam_conv conv = { no_conv, NULL };
	pam_handle_t *pamh = NULL;
	int rc = pam_start(argv[1], argv[2], &conv, &pamh);
	if (rc != PAM_SUCCESS) {
		fprintf(stderr, "bench-hold: pam_start: %s\n", pam_strerror(pamh, rc));
		return 1;
	}
	rc = pam_open_session(pamh, 0);
	if (rc != PAM_SUCCESS) {
		fprintf(stderr, "bench-hold: open_session: %s\n", pam_strerror(pamh, rc));
		pam_end(pamh, rc);
		return 1;
	}
	printf("open\n");
	fflush(stdout);
	int sig;
	sigwait(&stop, &sig);
	rc = pam_close_session(pamh, 0);
	if (rc != PAM_SUCCESS)
		fprintf(stderr, "bench-hold: close_session: %s\n", pam_strerror(pamh, rc));
	pam_end(pamh, rc);
	return rc == PAM_SUCCESS ? 0 : 1;
}
