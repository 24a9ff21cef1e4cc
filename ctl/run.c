// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl run: a command in a user's sandbox, run by root. */
/* cocoonctl run: a command in a user's sandbox, run by root from here
 * (run mode: this process is the engine). The front door decides, as for
 * a login; anything but a sandbox is refused. */
#include <stdio.h>
#include <unistd.h>

#include "admission.h"
#include "commands.h"
#include "options.h"
#include "records.h"
#include "sandbox.h"

static int run_sandboxed(const struct admission *a)
{
	struct cc_error err;
	bool expired = false;
	char id[33];
	int status = 1;
	struct sandbox_request req = {
		.plan = &a->plan,
		.path = a->path,
		.argv = a->argv,
		.envp = a->envp,
		.expired = &expired,
		.session_id = id,
	};
	if (record_session_id_new(id, &err) < 0 || sandbox_run(&req, &status, &err) < 0) {
		fprintf(stderr, "cocoonctl run: %s\n", err.msg);
		return 1;
	}
	/* No end record is written of it: a mark of stop's goes unread. */
	record_stopped_take(id);
	if (expired)
		fprintf(stderr, "cocoonctl run: the session reached its max-session-time "
			"and was ended\n");
	return status;
}

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
	struct admission_request asked = {
		.kind = ENTRY_RUN, .user = o.user, .name_or_uid = true,
		.service = o.service, .config = o.config, .groups = GROUPS_LATER,
		.argc = argc - first, .argv = &argv[first], .envp = environ,
	};
	struct admission a;
	int status;
	if (admission_decide(&asked, &a) < 0 || a.verdict != VERDICT_SANDBOXED) {
		fprintf(stderr, "cocoonctl run: %s\n", a.reason);
		status = a.cause == CC_UNREACHABLE ? EXIT_UNREACHABLE : 1;
	} else {
		status = run_sandboxed(&a);
	}
	admission_free(&a);
	return status;
}
