// SPDX-License-Identifier: GPL-2.0-or-later
/* kbdenv.so: a PAM auth module for tests/escape/kbdint.t. Its
 * authenticate hook runs where sshd runs keyboard-interactive
 * authentication (a child of its own) and writes one variable to that
 * process's environment and one to the PAM environment, as a module of
 * the auth stack may: the test looks for both in the session. */
#include <security/pam_modules.h>
#include <stdlib.h>

PAM_EXTERN int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	(void)flags; (void)argc; (void)argv;
	setenv("CCKBD_PROCESS_ENV", "from-the-auth-child", 1);
	pam_putenv(pamh, "CCKBD_PAM_ENV=from-the-auth-stack");
	return PAM_IGNORE;
}

PAM_EXTERN int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc,
			      const char **argv)
{
	(void)pamh; (void)flags; (void)argc; (void)argv;
	return PAM_IGNORE;
}
