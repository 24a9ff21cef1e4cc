// SPDX-License-Identifier: GPL-2.0-or-later
/* pam_cocoon's module arguments, for the module and for explain. */
#include <string.h>

#include "pam_args.h"
#include "util.h"

int pam_args_parse(int argc, const char **argv, struct pam_args *args,
		   struct cc_error *err)
{
	memset(args, 0, sizeof(*args));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (str_starts_with(a, "conf="))
			args->conf = a + strlen("conf=");
		else if (str_starts_with(a, "exempt="))
			args->exempt = a + strlen("exempt=");
		else if (strcmp(a, "debug") == 0)
			args->debug = true;
		else if (strcmp(a, "mode=audit") == 0)
			args->audit = true;
		else if (strcmp(a, "mode=enforce") == 0)
			args->audit = false;
		else if (strcmp(a, "return") == 0)
			args->return_only = true;
		else
			return cc_fail(err, "unknown argument '%s'", a);
	}
	if (args->conf && args->conf[0] != '/')
		return cc_fail(err, "conf=%s is not an absolute path", args->conf);
	return 0;
}
