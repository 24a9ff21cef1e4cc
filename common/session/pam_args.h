/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pam_cocoon's module arguments (pam_cocoon(8)): read by the module from
 * its line, and by cocoonctl explain from the service's stack file. */
#ifndef COCOON_PAM_ARGS_H
#define COCOON_PAM_ARGS_H

#include <stdbool.h>

#include "error.h"

struct pam_args {
	const char *conf;   /* conf=PATH: another policy file */
	const char *exempt; /* exempt=user,@group */
	bool debug;
	bool audit;         /* mode=audit (mode=enforce: false) */
	bool return_only;   /* the `return` line */
};

/* Parse ARGV (borrowed: the answer points into it). -1 with err set for
 * an unknown argument or a conf= that is not an absolute path. */
int pam_args_parse(int argc, const char **argv, struct pam_args *args,
		   struct cc_error *err);

#endif
