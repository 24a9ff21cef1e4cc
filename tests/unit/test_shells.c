// SPDX-License-Identifier: GPL-2.0-or-later
/* The real shell, the one rule of every entry point: the plan's, else the
 * login shell, with cocoon-shell standing for bash (or sh), and never
 * cocoon-shell itself. */
#include <string.h>
#include <unistd.h>

#include "shells.h"
#include "tap.h"
#include "util.h"

/* The answer for a plan of SERVICE, SHELL (the directive, or NULL) and
 * the account's LOGIN shell; "refused: MESSAGE" on a refusal. */
static void expect_entry(bool by_cocoon_shell, const char *service, const char *shell,
			 const char *login, const char *want, const char *name)
{
	struct plan plan;
	plan_init(&plan);
	plan.service = xstrdup(service);
	plan.shell = shell ? xstrdup(shell) : NULL;
	plan.who.login_shell = xstrdup(login);
	const char *got;
	struct cc_error err;
	char refused[1100];
	if (shell_real(&plan, by_cocoon_shell, &got, &err) < 0) {
		snprintf(refused, sizeof(refused), "refused: %s", err.msg);
		got = refused;
	}
	tap_is_str(got, want, name);
	plan_free(&plan);
}

/* Outside PAM: cocoon-shell's entry is told by the service name. */
static void expect(const char *service, const char *shell, const char *login,
		   const char *want, const char *name)
{
	expect_entry(shell_service_is_cocoon_shell(service), service, shell, login, want,
		     name);
}

int main(void)
{
	const char *bash = access("/bin/bash", X_OK) == 0 ? "/bin/bash" : "/bin/sh";
	expect("sshd", "/bin/zsh", "/bin/dash", "/bin/zsh", "the plan's shell first");
	expect("shell", "/bin/zsh", "/bin/dash", "/bin/zsh", "on cocoon-shell's service too");
	expect("sshd", NULL, "/bin/dash", "/bin/dash", "else the account's login shell");
	expect("sshd", NULL, "", "/bin/sh", "an empty login shell is /bin/sh");
	expect("sshd", NULL, "dash", "/bin/sh", "so is a relative one");
	expect("sshd", NULL, COCOON_SHELL_PATH, bash,
	       "a cocoon-shell account: bash where it is executable, else sh");
	expect("sshd", NULL, "/opt/other/cocoon-shell", bash,
	       "cocoon-shell by its name elsewhere too");
	expect(SHELL_SERVICE, NULL, "/bin/dash", bash,
	       "on service shell the login shell is cocoon-shell, whatever passwd says");
	expect_entry(false, SHELL_SERVICE, NULL, "/bin/dash", "/bin/dash",
		     "a PAM service named shell is not cocoon-shell: the account's shell");
	expect("sshd", COCOON_SHELL_PATH, "/bin/dash",
	       "refused: the policy's shell " COCOON_SHELL_PATH " is cocoon-shell itself",
	       "a policy shell that is cocoon-shell is refused");
	expect(SHELL_SERVICE, "/opt/other/cocoon-shell", "/bin/dash",
	       "refused: the policy's shell /opt/other/cocoon-shell is cocoon-shell itself",
	       "by its name too");
	return tap_done();
}
