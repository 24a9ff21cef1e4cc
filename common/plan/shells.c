// SPDX-License-Identifier: GPL-2.0-or-later
/* Which shell a login runs, decided once for every entry point. */
#include "shells.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "identity.h"

const char *shell_login_path(const char *login_shell)
{
	return login_shell && login_shell[0] == '/' ? login_shell : "/bin/sh";
}

bool shell_service_is_cocoon_shell(const char *service)
{
	return service && strcmp(service, SHELL_SERVICE) == 0;
}

int shell_real(const struct plan *plan, bool by_cocoon_shell, const char **shell,
	       struct cc_error *err)
{
	const char *real = plan->shell;
	if (!real) {
		const char *login = by_cocoon_shell ? COCOON_SHELL_PATH
						    : shell_login_path(plan->who.login_shell);
		if (!identity_is_cocoon_shell(login, COCOON_SHELL_PATH))
			real = login;
		else
			real = access("/bin/bash", X_OK) == 0 ? "/bin/bash" : "/bin/sh";
	}
	if (identity_is_cocoon_shell(real, COCOON_SHELL_PATH))
		return cc_fail(err, "the policy's shell %s is cocoon-shell itself", real);
	*shell = real;
	return 0;
}
