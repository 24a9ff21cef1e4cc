// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: any bytes as a policy file, parsed, validated and
 * resolved for a made-up user on two services. Crashes, leaks and
 * sanitizer reports are failures; errors are expected. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan_print.h"
#include "policy.h"
#include "resolve.h"
#include "util.h"

static void resolve_once(const struct policy *policy, const char *service)
{
	static char *group_names[] = { "fuzz", "staff" };
	static gid_t groups[] = { 5000, 5001 };
	struct identity who = {
		.user = "fuzz", .uid = 5000, .gid = 5000, .group = "fuzz",
		.home = "/nonexistent/fuzz", .login_shell = "/bin/sh",
		.groups = groups, .group_names = group_names, .ngroups = 2,
	};
	struct plan plan;
	struct cc_error err;
	if (policy_resolve(policy, &who, service, 1000, &plan, &err) == RESOLVE_PLAN) {
		struct strbuf out = { 0 };
		plan_print_text(&plan, &out);
		plan_print_json(&plan, &out);
		plan_print_bwrap(&plan, &out, &err);
		sb_free(&out);
	}
	plan_free(&plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy policy = { 0 };
	policy_parse_text(&policy, COCOON_EMBEDDED_NAME, cocoon_default_profile,
			  strlen(cocoon_default_profile));
	policy_parse_text(&policy, "fuzz.conf", (const char *)data, size);
	struct diag_list diags = { 0 };
	policy_validate(&policy, &diags);
	diag_free(&diags);
	resolve_once(&policy, "sshd");
	resolve_once(&policy, "shell");
	policy_free(&policy);
	return 0;
}
