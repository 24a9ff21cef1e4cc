// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl run: a command in a user's sandbox, run by root. */
/* cocoonctl run: a command in a user's sandbox, run by root from here
 * (run mode: this process is the engine). */
#include <stdio.h>
#include <unistd.h>

#include "commands.h"
#include "environment.h"
#include "options.h"
#include "records.h"
#include "sandbox.h"

int cmd_run(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "csu");
	if (first < 0)
		return 2;
	if (!o.user || first >= argc) {
		fprintf(stderr, "cocoonctl run: needs --user USER and a command after --\n");
		usage(stderr);
		return 2;
	}
	if (getuid() != 0 || geteuid() != 0) {
		fprintf(stderr, "cocoonctl run: only root may run sessions\n");
		return 1;
	}
	struct plan plan;
	int rc = plan_or_exit(&o, o.user, GROUPS_LATER, &plan);
	if (rc)
		return rc;
	if (!plan.rule || !plan.sandboxed) {
		fprintf(stderr, "cocoonctl run: %s is not sandboxed on service %s (%s); "
			"refusing to run unconfined\n", plan.who.user, plan.service,
			plan.rule ? "sandbox = none" : "no rule covers it");
		plan_free(&plan);
		return 1;
	}
	const char *shell = plan.shell ? plan.shell : "/bin/sh";
	char **envp = environment_for_session(&plan, environ, shell);
	bool expired = false;
	struct sandbox_request req = {
		.plan = &plan,
		.path = argv[first],
		.argv = &argv[first],
		.envp = envp,
		.expired = &expired,
	};
	struct cc_error err;
	int status = 1;
	char id[33];
	if (record_session_id_new(id, &err) < 0) {
		fprintf(stderr, "cocoonctl run: %s\n", err.msg);
		environment_free(envp);
		plan_free(&plan);
		return 1;
	}
	req.session_id = id;
	if (sandbox_run(&req, &status, &err) < 0) {
		fprintf(stderr, "cocoonctl run: %s\n", err.msg);
		status = 1;
	}
	if (expired)
		fprintf(stderr, "cocoonctl run: the session reached its max-session-time "
			"and was ended\n");
	environment_free(envp);
	plan_free(&plan);
	return status;
}
