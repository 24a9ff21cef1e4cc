// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl explain: what a login of a user through a service gets. */
/* It asks admission_decide as the entry points do: pam_cocoon's line in
 * the service's session stack (read as libpam reads it, with the line's
 * own arguments), then cocoon-shell when it is the account's login shell
 * and the PAM layer left the session on the host. Without --service, the
 * cocoon-shell layer alone: what cocoon-shell does for the user. The
 * verdict, result and reason are the words of the audit record. */
#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admission.h"
#include "commands.h"
#include "landlock.h"
#include "options.h"
#include "pam_args.h"
#include "pam_stack.h"
#include "plan_print.h"
#include "resolve.h"
#include "shells.h"
#include "systemd_scope.h"

/* A login as cocoon-shell starts one: "-cocoon-shell", no arguments. */
static char login_argv0[] = "-cocoon-shell";

/* One entry point a login passes through, and its answer. */
struct layer {
	bool applies;
	bool decided; /* admission_decide was asked: A is filled */
	struct admission a;
	char note[512]; /* why it does not apply */
};

struct login {
	const char *service; /* NULL: the cocoon-shell layer alone */
	char pam_service[256];
	struct pam_stack_cocoon stack;
	struct layer pam, shell;
	/* pam_cocoon refuses, but its line's control lets libpam open the
	 * session anyway: on the host, unconfined. */
	bool refusal_ignored;
	char ignored_reason[1024];
	enum verdict verdict;
	const char *result;   /* NULL: no audit record is logged */
	const char *reason;
	const struct layer *decisive; /* whose plan applies; NULL: none */
};

/* What explain asks for every account alike. */
struct question {
	const char *config;  /* --config: replaces the policy of both layers */
	const char *service; /* --service, or NULL */
	const struct policy *policy; /* loaded once (--all), or NULL */
	uid_t uid_min;
};

/* Whether the stack's return line, which hands the limits to
 * pam_systemd, runs before the confining line that checks them. */
static bool return_line_first(void *data, const char *name)
{
	(void)name;
	const struct pam_stack_cocoon *c = data;
	for (size_t i = 0; i < c->stack.count && &c->stack.lines[i] != c->confining; i++)
		if (c->stack.lines[i].is_cocoon && c->stack.lines[i].has_return)
			return true;
	return false;
}

/* The module's own check for this entry, as far as a stack that is only
 * read can answer it: under systemd, the limits handed over. */
static int check_stack_handover(void *data, const struct plan *plan, bool apply,
				struct cc_error *err)
{
	(void)apply;
	return systemd_scope_check_handed(&plan->limits, return_line_first, data, err);
}

/* The PAM layer: pam_cocoon's confining line of the service's stack. */
static void ask_pam(const struct question *q, struct identity *who, struct login *l)
{
	const struct pam_stack_line *line = l->stack.confining;
	if (!line) {
		snprintf(l->pam.note, sizeof(l->pam.note),
			 "%s %s: no pam_cocoon session line without 'return'%s; the PAM "
			 "layer does nothing", l->stack.from_other ? "service has no "
			 "session stack, libpam runs" : "read", l->stack.path,
			 l->stack.has_return_line ? " (only the return line)" : "");
		return;
	}
	l->pam.applies = true;
	struct pam_args args;
	struct cc_error err;
	struct admission_request req = {
		.kind = ENTRY_PAM,
		.user = who->user,
		.service = l->pam_service,
		.groups = GROUPS_NOW,
		.who = who,
		.policy = q->policy,
		.uid_min = q->uid_min,
		.entry_check = check_stack_handover,
		.entry_check_data = &l->stack,
	};
	/* As the module parses its own arguments: a line it rejects refuses
	 * everyone but root. */
	if (pam_args_parse(line->argc, (const char **)line->argv, &args, &err) < 0) {
		req.bad_arguments = err.msg;
	} else {
		/* --config stands for whatever policy the line names. */
		req.config = q->config ? q->config : args.conf;
		if (!q->config && args.conf)
			req.policy = NULL;
		req.exempt = args.exempt;
		req.audit = args.audit;
	}
	admission_decide(&req, &l->pam.a);
	l->pam.decided = true;
	if (l->pam.a.verdict == VERDICT_REFUSED && !pam_stack_refusal_holds(line)) {
		l->refusal_ignored = true;
		snprintf(l->ignored_reason, sizeof(l->ignored_reason),
			 "pam_cocoon refuses (%s), but its line's control '%s' lets libpam "
			 "open the session anyway, unconfined (cocoonctl check --pam)",
			 l->pam.a.reason, line->control);
	}
}

/* The cocoon-shell layer, for the account's uid, on cocoon-shell's
 * service: with --service, only where it is the login shell and the PAM
 * layer let the session go on on the host. */
static void ask_shell(const struct question *q, struct identity *who, struct login *l)
{
	if (l->service) {
		if (!who->login_shell ||
		    !identity_is_cocoon_shell(who->login_shell, COCOON_SHELL_PATH)) {
			snprintf(l->shell.note, sizeof(l->shell.note),
				 "the login shell %s is not cocoon-shell",
				 who->login_shell ? who->login_shell : "(none)");
			return;
		}
		if (l->pam.decided && l->pam.a.verdict == VERDICT_REFUSED && !l->refusal_ignored) {
			snprintf(l->shell.note, sizeof(l->shell.note),
				 "not reached: pam_cocoon refuses the session");
			return;
		}
		if (l->pam.decided && l->pam.a.verdict == VERDICT_SANDBOXED) {
			/* The sandbox runs the real shell in cocoon-shell's place. */
			snprintf(l->shell.note, sizeof(l->shell.note),
				 "not run: pam_cocoon's sandbox starts the real shell in "
				 "its place");
			return;
		}
	}
	l->shell.applies = true;
	char *argv[] = { login_argv0, NULL };
	struct admission_request req = {
		.kind = ENTRY_COCOON_SHELL,
		.uid = who->uid,
		.config = q->config,
		.argc = 1,
		.argv = argv,
		.groups = GROUPS_NOW,
		.who = who,
		.policy = q->policy,
		.uid_min = q->uid_min,
	};
	admission_decide(&req, &l->shell.a);
	l->shell.decided = true;
}

/* The login's verdict: a refusal anywhere ends it; a sandbox, by
 * pam_cocoon or by cocoon-shell, holds it; else what the PAM layer let
 * in as. The record compared is the last that layers wrote. */
static void conclude(struct login *l)
{
	const struct layer *pam = l->pam.decided ? &l->pam : NULL;
	const struct layer *shell = l->shell.decided ? &l->shell : NULL;
	const struct layer *last = shell ? shell : pam;
	if (pam && ((pam->a.verdict == VERDICT_REFUSED && !l->refusal_ignored) ||
		    pam->a.verdict == VERDICT_SANDBOXED))
		last = pam;
	l->decisive = last;
	if (last == pam && l->refusal_ignored) {
		/* The record says refused; the login runs on the host. */
		l->decisive = NULL;
		l->verdict = VERDICT_UNCONFINED;
		l->result = pam->a.result;
		l->reason = l->ignored_reason;
		return;
	}
	if (!last) {
		l->verdict = VERDICT_UNCONFINED;
		l->result = NULL;
		l->reason = "no entry point of cocoon's runs for this login";
		return;
	}
	l->verdict = last->a.verdict;
	l->result = last->a.result;
	l->reason = last->a.reason;
}

/* Ask both layers for WHO (looked up with its groups). */
static void explain_login(const struct question *q, struct identity *who, struct login *l)
{
	memset(l, 0, sizeof(*l));
	l->service = q->service;
	if (q->service) {
		/* libpam names the service in lower case. */
		size_t i = 0;
		for (; q->service[i] && i + 1 < sizeof(l->pam_service); i++)
			l->pam_service[i] = (char)tolower((unsigned char)q->service[i]);
		l->pam_service[i] = '\0';
		pam_stack_cocoon_read(COCOON_PAM_DIR, l->pam_service, &l->stack);
		ask_pam(q, who, l);
	}
	ask_shell(q, who, l);
	conclude(l);
}

static void login_free(struct login *l)
{
	if (l->pam.decided)
		admission_free(&l->pam.a);
	if (l->shell.decided)
		admission_free(&l->shell.a);
	pam_stack_cocoon_free(&l->stack);
}

/* The login's exit status: 0 unless it is refused (1, or 3 when a name
 * service could not be asked). */
static int login_status(const struct login *l)
{
	if (l->verdict != VERDICT_REFUSED)
		return 0;
	return l->decisive && l->decisive->a.cause == CC_UNREACHABLE ? EXIT_UNREACHABLE : 1;
}

static const struct plan *login_plan(const struct login *l)
{
	return l->decisive && l->decisive->a.have_plan ? &l->decisive->a.plan : NULL;
}

/* ---- text */

static void layer_text(const struct login *l, const struct layer *y, bool pam,
		       struct strbuf *out)
{
	sb_addf(out, "%-13s", pam ? "pam layer:" : "shell layer:");
	if (!y->applies) {
		sb_addf(out, "%s\n", y->note);
		return;
	}
	if (pam) {
		const struct pam_stack_line *line = l->stack.confining;
		sb_addf(out, "service %s, pam_cocoon at %s:%d (%s%s)", l->pam_service,
			line->file, line->line, line->optional_module ? "-" : "",
			line->control);
	} else {
		sb_addf(out, "cocoon-shell, service %s", SHELL_SERVICE);
	}
	sb_addf(out, ": %s, result=%s%s%s\n", admission_verdict_name(y->a.verdict),
		y->a.result, y->a.reason[0] ? " reason=" : "", y->a.reason);
}

static void login_text(const struct login *l, const struct identity *who, struct strbuf *out)
{
	if (!l->service && (!who->login_shell ||
			    !identity_is_cocoon_shell(who->login_shell, COCOON_SHELL_PATH)))
		sb_addf(out, "note:        %s's login shell is %s: this is what cocoon-shell "
			"does when %s runs it; a login through a PAM service: --service\n",
			who->user, who->login_shell ? who->login_shell : "(none)", who->user);
	if (!login_plan(l))
		sb_addf(out, "user:        %s (uid %u)\n", who->user, (unsigned)who->uid);
	sb_addf(out, "verdict:     %s\n", admission_verdict_name(l->verdict));
	sb_addf(out, "result:      %s\n", l->result ? l->result : "(no audit record)");
	if (l->reason[0])
		sb_addf(out, "reason:      %s\n", l->reason);
	if (l->service)
		layer_text(l, &l->pam, true, out);
	layer_text(l, &l->shell, false, out);
	if (l->stack.confining_lines > 1)
		sb_addf(out, "warning:     %s has %zu confining pam_cocoon lines (check --pam)\n",
			l->pam_service, l->stack.confining_lines);
}

/* Which Landlock walls this kernel (ABI) raises for PLAN: the plan says
 * what it asks for, the kernel what it can give. */
static void describe_landlock(const struct plan *plan, int abi, struct strbuf *out)
{
	char scope[64];
	plan_landlock_scope_format(plan->landlock_scope, scope, sizeof(scope));
	if (abi < 2) {
		sb_addf(out, "this kernel: %s: no Landlock wall; %s\n",
			abi == 1 ? "Landlock ABI 1" : "no Landlock",
			plan->landlock_required ? "landlock = required refuses the session"
						: "the session runs without it");
	} else if (!(plan->landlock_scope & LL_SCOPE_ALL)) {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall (no scope "
			"asked for)\n", abi);
	} else if (abi < LL_SCOPE_MIN_ABI) {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall; the scope "
			"(%s) needs ABI %d (Linux 6.12) and is not applied\n", abi, scope,
			LL_SCOPE_MIN_ABI);
	} else {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall and the "
			"scope (%s)\n", abi, scope);
	}
}

/* ---- JSON */

static void json_str(struct strbuf *out, const char *name, const char *value, bool comma)
{
	sb_addf(out, "\"%s\":", name);
	if (value)
		sb_add_json_string(out, value);
	else
		sb_addf(out, "null");
	sb_addf(out, "%s", comma ? "," : "");
}

static void layer_json(const struct login *l, const struct layer *y, bool pam,
		       struct strbuf *out)
{
	sb_addf(out, "{");
	json_str(out, "layer", pam ? "pam_cocoon" : "cocoon-shell", true);
	json_str(out, "service", pam ? l->pam_service : SHELL_SERVICE, true);
	sb_addf(out, "\"applies\":%s,", y->applies ? "true" : "false");
	if (pam && l->stack.path[0])
		json_str(out, "stack", l->stack.path, true);
	if (!y->applies) {
		json_str(out, "note", y->note, false);
		sb_addf(out, "}");
		return;
	}
	if (pam) {
		const struct pam_stack_line *line = l->stack.confining;
		json_str(out, "file", line->file, true);
		sb_addf(out, "\"line\":%d,", line->line);
		json_str(out, "control", line->control, true);
		sb_addf(out, "\"arguments\":[");
		for (int i = 0; i < line->argc; i++) {
			sb_addf(out, "%s", i ? "," : "");
			sb_add_json_string(out, line->argv[i]);
		}
		sb_addf(out, "],");
	}
	json_str(out, "verdict", admission_verdict_name(y->a.verdict), true);
	json_str(out, "result", y->a.result, true);
	json_str(out, "reason", y->a.reason[0] ? y->a.reason : NULL, false);
	sb_addf(out, "}");
}

/* The plan's object as today, with the login's verdict, result, reason
 * and layers beside its fields. */
static void login_json(const struct login *l, const struct identity *who, struct strbuf *out)
{
	const struct plan *plan = login_plan(l);
	if (plan) {
		plan_print_json(plan, out);
		/* Reopen the object: drop its closing "}\n". */
		if (out->len && out->data[out->len - 1] == '\n')
			out->data[--out->len] = '\0';
		if (out->len && out->data[out->len - 1] == '}')
			out->data[--out->len] = '\0';
		sb_addf(out, ",");
	} else {
		sb_addf(out, "{");
		json_str(out, "user", who->user, true);
		sb_addf(out, "\"uid\":%u,", (unsigned)who->uid);
	}
	json_str(out, "verdict", admission_verdict_name(l->verdict), true);
	json_str(out, "result", l->result, true);
	json_str(out, "reason", l->reason[0] ? l->reason : NULL, true);
	sb_addf(out, "\"layers\":[");
	if (l->service) {
		layer_json(l, &l->pam, true, out);
		sb_addf(out, ",");
	}
	layer_json(l, &l->shell, false, out);
	sb_addf(out, "]}\n");
}

/* ---- bwrap: only a sandbox has a bubblewrap rendering. */

static int login_bwrap(const struct login *l, struct strbuf *out)
{
	struct cc_error err;
	const struct plan *plan = login_plan(l);
	if (l->verdict != VERDICT_SANDBOXED || !plan) {
		fprintf(stderr, "cocoonctl: the login is %s, not sandboxed: there is no "
			"bubblewrap command for it\n", admission_verdict_name(l->verdict));
		return 1;
	}
	if (plan_print_bwrap(plan, out, &err) < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		return 1;
	}
	if (!plan->command) {
		sb_addf(out, " ");
		sb_add_shell_word(out, l->decisive->a.shell);
	}
	sb_addf(out, "\n");
	return 0;
}

/* ---- --all */

/* Whether an account can log in: a person's uid (UID_MIN to UID_MAX of
 * login.defs), or a login shell that lets one in (nologin and false do
 * not). */
static bool can_log_in(uid_t uid, const char *shell, uid_t uid_min)
{
	static uid_t uid_max;
	if (!uid_max)
		uid_max = identity_uid_max(COCOON_LOGIN_DEFS);
	if (uid >= uid_min && uid <= uid_max)
		return true;
	if (!shell || !shell[0])
		return true; /* login runs /bin/sh for an empty shell */
	const char *base = strrchr(shell, '/') ? strrchr(shell, '/') + 1 : shell;
	return strcmp(base, "nologin") != 0 && strcmp(base, "false") != 0;
}

/* The rest of an --all line: the verdict, and what gives it. */
static void summary(const struct login *l, const struct identity *who, uid_t uid_min,
		    struct strbuf *out)
{
	const struct plan *plan = login_plan(l);
	sb_addf(out, "%s", admission_verdict_name(l->verdict));
	if (l->verdict == VERDICT_SANDBOXED && plan)
		sb_addf(out, " by %s, profile %s, plan %s", plan->rule,
			plan->profile ? plan->profile : "(none)", plan->hash);
	else if (l->reason[0])
		sb_addf(out, ": %s", l->reason);
	if (l->verdict == VERDICT_UNCONFINED && plan && plan->rule)
		sb_addf(out, ", by %s", plan->rule);
	if (plan && !plan->rule && plan->who.uid < uid_min)
		sb_addf(out, " (a system account: only [user] rules match)");
	if (l->decisive && l->decisive == &l->pam)
		sb_addf(out, " (pam_cocoon)");
	else if (l->decisive && l->service)
		sb_addf(out, " (cocoon-shell)");
	/* Without --service the line is cocoon-shell's answer: say when
	 * the account's logins never run it. */
	if (!l->service && (!who->login_shell ||
			    !identity_is_cocoon_shell(who->login_shell, COCOON_SHELL_PATH)))
		sb_addf(out, " [if it ran cocoon-shell; its login shell is %s]",
			who->login_shell && who->login_shell[0] ? who->login_shell : "/bin/sh");
}

struct account {
	char *name, *shell;
	uid_t uid;
};

/* One line per account that can log in (every account with SYSTEM). */
static int explain_all(const struct options *o)
{
	struct policy policy = { 0 };
	struct diag_list diags = { 0 };
	/* A broken policy would refuse everyone alike: say it once. */
	if (load_checked(o->config, false, &policy, &diags) < 0)
		return 1;
	size_t errors = diag_count(&diags, DIAG_ERROR);
	if (errors)
		print_diags(&diags);
	diag_free(&diags);
	if (errors) {
		policy_free(&policy);
		return 1;
	}
	struct question q = {
		.config = o->config,
		.service = o->service,
		.policy = &policy,
		.uid_min = identity_uid_min(COCOON_LOGIN_DEFS),
	};
	/* Read whole before any other NSS call. */
	size_t count = 0, cap = 0;
	struct account *list = NULL;
	struct passwd *pw;
	setpwent();
	while ((pw = getpwent()))
		*ARRAY_PUSH(list, count, cap) = (struct account){
			xstrdup(pw->pw_name), xstrdup(pw->pw_shell), pw->pw_uid };
	endpwent();
	printf("%-16s %7s  %s %s\n", "USER", "UID", "ON SERVICE",
	       o->service ? o->service : SHELL_SERVICE);
	for (size_t i = 0; i < count; i++) {
		if (!o->system && !can_log_in(list[i].uid, list[i].shell, q.uid_min))
			continue;
		struct identity who;
		struct cc_error err;
		if (identity_lookup(list[i].name, GROUPS_NOW, &who, &err) < 0) {
			printf("%-16s %7u  lookup failed: %s\n", list[i].name,
			       (unsigned)list[i].uid, err.msg);
			continue;
		}
		struct login l;
		struct strbuf line = { 0 };
		explain_login(&q, &who, &l);
		summary(&l, &who, q.uid_min, &line);
		printf("%-16s %7u  %s\n", who.user, (unsigned)who.uid, line.data);
		sb_free(&line);
		login_free(&l);
		identity_free(&who);
	}
	for (size_t i = 0; i < count; i++) {
		free(list[i].name);
		free(list[i].shell);
	}
	free(list);
	policy_free(&policy);
	return 0;
}

int cmd_explain(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "csjbay");
	if (first < 0)
		return 2;
	if (o.all && (first != argc || o.json || o.bwrap)) {
		fprintf(stderr, "cocoonctl explain: --all takes no USER, --json or --bwrap\n");
		return 2;
	}
	if (o.system && !o.all) {
		fprintf(stderr, "cocoonctl explain: --system goes with --all\n");
		return 2;
	}
	if (o.all)
		return explain_all(&o);
	if (first != argc - 1) {
		usage(stderr);
		return 2;
	}
	struct identity who;
	struct cc_error err;
	if (identity_lookup_name_or_uid(argv[first], GROUPS_NOW, &who, &err) < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		return err.cause == CC_UNREACHABLE ? EXIT_UNREACHABLE : 1;
	}
	struct question q = { .config = o.config, .service = o.service };
	struct login l;
	explain_login(&q, &who, &l);
	int rc = login_status(&l);
	struct strbuf out = { 0 };
	const struct plan *plan = login_plan(&l);
	if (o.json) {
		login_json(&l, &who, &out);
	} else if (o.bwrap) {
		rc = login_bwrap(&l, &out);
		if (rc)
			sb_free(&out);
	} else {
		login_text(&l, &who, &out);
		if (plan)
			plan_print_text(plan, &out);
		if (plan && l.verdict == VERDICT_SANDBOXED)
			describe_landlock(plan, landlock_abi(), &out);
	}
	if (out.data)
		fputs(out.data, stdout);
	if (l.verdict == VERDICT_REFUSED && !o.json)
		fprintf(stderr, "cocoonctl: %s's login is refused: %s\n", who.user, l.reason);
	sb_free(&out);
	login_free(&l);
	identity_free(&who);
	return rc;
}
