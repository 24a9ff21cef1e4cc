// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl: check, explain and run the cocoon policy. A thin front end
 * over common/: policy -> rule -> plan -> sandbox. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "environment.h"
#include "plan_print.h"
#include "resolve.h"
#include "sandbox.h"
#include "util.h"

#define DEFAULT_SERVICE "shell"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: cocoonctl check [--config FILE]\n"
		"       cocoonctl explain [--config FILE] [--service NAME] [--json | --bwrap] USER\n"
		"       cocoonctl run [--config FILE] [--service NAME] --user USER -- COMMAND [ARG...]\n"
		"       cocoonctl --version\n");
}

struct options {
	const char *config;
	const char *service;
	const char *user;
	bool json, bwrap;
};

/* Options shared by the commands; returns the index of the first operand
 * or -1 after printing why. */
static int parse_options(int argc, char **argv, struct options *o, const char *allowed)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "service", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "bwrap", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == '?' || !strchr(allowed, c)) {
			if (c != '?')
				fprintf(stderr, "cocoonctl %s: option %s does not apply\n",
					argv[0], argv[optind - 1]);
			usage(stderr);
			return -1;
		}
		switch (c) {
		case 'c': o->config = optarg; break;
		case 's': o->service = optarg; break;
		case 'u': o->user = optarg; break;
		case 'j': o->json = true; break;
		case 'b': o->bwrap = true; break;
		}
	}
	if (o->json && o->bwrap) {
		fprintf(stderr, "cocoonctl: --json and --bwrap exclude each other\n");
		return -1;
	}
	return optind;
}

static void print_diags(const struct diag_list *diags)
{
	for (size_t i = 0; i < diags->count; i++) {
		const struct diag *d = &diags->items[i];
		const char *level = d->level == DIAG_ERROR ? "error" : "warning";
		if (d->file && d->line > 0)
			fprintf(stderr, "%s:%d: %s: %s\n", d->file, d->line, level, d->msg);
		else if (d->file)
			fprintf(stderr, "%s: %s: %s\n", d->file, level, d->msg);
		else
			fprintf(stderr, "%s: %s\n", level, d->msg);
	}
}

static int cmd_check(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "c");
	if (first < 0)
		return 2;
	if (first != argc) {
		usage(stderr);
		return 2;
	}
	struct policy policy = { 0 };
	struct cc_error err;
	if (policy_load(&policy, o.config, &err) < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		policy_free(&policy);
		return 1;
	}
	struct diag_list diags = { 0 };
	for (size_t i = 0; i < policy.diags.count; i++) {
		const struct diag *d = &policy.diags.items[i];
		diag_add(&diags, d->level, d->file, d->line, "%s", d->msg);
	}
	policy_validate(&policy, &diags);
	policy_check_names(&policy, &diags);
	print_diags(&diags);
	size_t errors = diag_count(&diags, DIAG_ERROR);
	size_t warnings = diag_count(&diags, DIAG_WARNING);
	if (policy.embedded_only)
		printf("no policy file: the embedded default applies\n");
	size_t sections = 0;
	for (size_t i = 0; i < policy.nsections; i++)
		sections += !policy.sections[i].embedded;
	if (!errors)
		printf("policy OK (%zu file%s, %zu section%s, %zu warning%s)\n",
		       policy.nfiles, policy.nfiles == 1 ? "" : "s",
		       sections, sections == 1 ? "" : "s",
		       warnings, warnings == 1 ? "" : "s");
	diag_free(&diags);
	policy_free(&policy);
	return errors ? 1 : 0;
}

/* The plan for USER, or an exit status after printing why. */
static int plan_or_exit(const struct options *o, const char *user, struct plan *plan)
{
	struct identity who;
	struct cc_error err;
	if (identity_lookup(user, &who, &err) < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		return 1;
	}
	if (who.uid == 0) {
		fprintf(stderr, "cocoonctl: %s has uid 0: root is never sandboxed\n", user);
		identity_free(&who);
		return 1;
	}
	enum resolve_result rc = plan_for_session(o->config, &who,
						  o->service ? o->service : DEFAULT_SERVICE,
						  plan, &err);
	identity_free(&who);
	if (rc == RESOLVE_ERROR) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		plan_free(plan);
		return 1;
	}
	return 0;
}

static int cmd_explain(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "csjb");
	if (first < 0)
		return 2;
	if (first != argc - 1) {
		usage(stderr);
		return 2;
	}
	struct plan plan;
	int rc = plan_or_exit(&o, argv[first], &plan);
	if (rc)
		return rc;
	struct strbuf out = { 0 };
	struct cc_error err;
	if (o.json) {
		plan_print_json(&plan, &out);
	} else if (o.bwrap) {
		if (plan_print_bwrap(&plan, &out, &err) < 0) {
			fprintf(stderr, "cocoonctl: %s\n", err.msg);
			sb_free(&out);
			rc = 1;
		} else {
			if (!plan.command) {
				sb_addf(&out, " ");
				sb_add_shell_word(&out, plan.shell ? plan.shell : "/bin/sh");
			}
			sb_addf(&out, "\n");
		}
	} else {
		plan_print_text(&plan, &out);
	}
	if (out.data)
		fputs(out.data, stdout);
	sb_free(&out);
	plan_free(&plan);
	return rc;
}

static int cmd_run(int argc, char **argv)
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
	int rc = plan_or_exit(&o, o.user, &plan);
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
	char **envp = session_environment(&plan, environ, shell);
	struct sandbox_request req = {
		.plan = &plan,
		.path = argv[first],
		.argv = &argv[first],
		.envp = envp,
		.init_path = COCOON_LIBEXECDIR "/cocoon-init",
	};
	struct cc_error err;
	int status = 1;
	if (sandbox_run(&req, &status, &err) < 0) {
		fprintf(stderr, "cocoonctl run: %s\n", err.msg);
		status = 1;
	}
	strv_free(envp);
	plan_free(&plan);
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--version") == 0) {
		printf("cocoonctl %s\n", COCOON_VERSION);
		return 0;
	}
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(cmd, "explain") == 0)
		return cmd_explain(argc - 1, argv + 1);
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	fprintf(stderr, "cocoonctl: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
