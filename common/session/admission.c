// SPDX-License-Identifier: GPL-2.0-or-later
/* The front door: one ladder decides every login's verdict and finished plan. */
/* The ladder, in the order a login climbs it:
 *   the account (and, for enter, that it is still the session's owner);
 *   a PAM line with bad arguments (root passes, everyone else is refused);
 *   root (exempt under PAM, refused elsewhere) and exempt=;
 *   the groups, the policy and its rule (no rule: unconfined under PAM,
 *   refused elsewhere; sandbox = none: unconfined where the entry allows);
 *   the checks of the entry's mode; mode=audit, which lets in what it
 *   would refuse or sandbox; then the finished command.
 * Root and the exempt pass before the policy is read, so a broken policy
 * never locks an administrator out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admission.h"
#include "environment.h"
#include "forced_command.h"
#include "plan_check.h"
#include "resolve.h"
#include "shells.h"
#include "util.h"

#define DEFAULT_SERVICE SHELL_SERVICE

static int refuse(struct admission *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int refuse(struct admission *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof(out->reason), fmt, ap);
	va_end(ap);
	out->verdict = VERDICT_REFUSED;
	out->result = "refused";
	return -1;
}

static int refuse_error(struct admission *out, const struct cc_error *err)
{
	out->cause = err->cause;
	return refuse(out, "%s", err->msg);
}

/* A refusal mode=audit only reports: audit is for trying a policy on a
 * live host without locking anyone out. */
static int refuse_unless_audit(const struct admission_request *req, struct admission *out,
			       const struct cc_error *err)
{
	refuse_error(out, err);
	if (!req->audit)
		return -1;
	out->verdict = VERDICT_AUDIT;
	out->result = "would-refuse";
	out->mode_audit = true;
	return 0;
}

static int let_in(struct admission *out, enum verdict verdict, const char *result,
		  const char *reason)
{
	out->verdict = verdict;
	out->result = result;
	snprintf(out->reason, sizeof(out->reason), "%s", reason);
	return 0;
}

static int look_up(const struct admission_request *req, struct identity *who,
		   struct cc_error *err)
{
	if (!req->user)
		return identity_lookup_uid(req->uid, req->groups, who, err);
	if (req->name_or_uid)
		return identity_lookup_name_or_uid(req->user, req->groups, who, err);
	return identity_lookup(req->user, req->groups, who, err);
}

/* exempt=alice,@wheel: names users, and groups with '@'. The groups are
 * looked up only for a list that names one; a lookup that fails exempts
 * nobody (the session is then sandboxed, or refused). */
static bool is_exempt(const char *list, struct identity *who)
{
	if (!list)
		return false;
	AUTOFREE char *copy = xstrdup(list);
	struct cc_error err;
	for (char *save = NULL, *item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save))
		if (item[0] == '@' ? identity_complete(who, &err) == 0 &&
				     identity_in_group(who, item + 1)
				   : strcmp(item, who->user) == 0)
			return true;
	return false;
}

/* The policy's plan for WHO on SERVICE, or an error. */
static enum resolve_result resolve(const struct admission_request *req, struct identity *who,
				   const char *service, struct plan *plan,
				   struct cc_error *err)
{
	struct policy loaded = { 0 };
	const struct policy *policy = req->policy;
	enum resolve_result rc = RESOLVE_ERROR;
	plan_init(plan);
	if (!policy) {
		if (policy_load(&loaded, req->config, err) < 0)
			goto out;
		policy = &loaded;
	}
	if (policy_needs_groups(policy) && identity_complete(who, err) < 0)
		goto out;
	uid_t uid_min = req->uid_min ? req->uid_min : identity_uid_min(COCOON_LOGIN_DEFS);
	plan_free(plan);
	rc = policy_resolve(policy, who, service, uid_min, plan, err);
out:
	policy_free(&loaded);
	return rc;
}

/* What only a PAM session needs of a plan. */
static int check_pam_plan(const struct admission_request *req, const struct plan *plan,
			  struct cc_error *err)
{
	/* The forced command holds through the login shell's path alone: su
	 * -s (or -m with $SHELL) runs another shell for any caller when the
	 * target's login shell is listed. */
	if (plan->command && shells_lists(COCOON_SHELLS_FILE, plan->who.login_shell))
		return cc_fail(err, "a forced command needs a login shell that %s does "
			       "not list (%s is listed, so su -s would run another "
			       "shell): give the account /usr/sbin/nologin",
			       COCOON_SHELLS_FILE, plan->who.login_shell);
	if (plan_check_service(plan, err) < 0)
		return -1;
	if (req->entry_check)
		return req->entry_check(req->entry_check_data, plan, !req->audit, err);
	return 0;
}

static char **strv_copy(char *const *strv)
{
	char **out = NULL;
	size_t n = 0, cap = 0;
	for (; strv && *strv; strv++)
		*ARRAY_PUSH(out, n, cap) = xstrdup(*strv);
	*ARRAY_PUSH(out, n, cap) = NULL;
	return out;
}

/* argv for the real shell: the caller's, with argv[0] naming the real
 * shell and keeping the login-shell '-'. CMD after -c stays one word. */
static char **shell_argv(int argc, char **argv, const char *shell)
{
	char **out = xcalloc((size_t)(argc > 0 ? argc : 1) + 1, sizeof(char *));
	const char *base = strrchr(shell, '/') ? strrchr(shell, '/') + 1 : shell;
	bool login = argc > 0 && argv[0] && argv[0][0] == '-';
	out[0] = xasprintf("%s%s", login ? "-" : "", base);
	for (int i = 1; i < argc; i++)
		out[i] = xstrdup(argv[i]);
	return out;
}

/* `command`: the policy's argv replaces whatever the caller asked (a
 * login, -c CMD, su's options); what was asked is only told, in
 * SSH_ORIGINAL_COMMAND, set after the plan's own environment. */
static int force_command(const struct admission_request *req, struct admission *out)
{
	const struct plan *plan = &out->plan;
	if (identity_is_cocoon_shell(plan->command[0], COCOON_SHELL_PATH))
		return refuse(out, "the policy's command %s is cocoon-shell itself",
			      plan->command[0]);
	static const char name[] = "SSH_ORIGINAL_COMMAND=";
	const char *inherited = NULL;
	char **env = NULL;
	size_t n = 0, cap = 0;
	for (char **e = out->envp; *e; e++) {
		if (!str_starts_with(*e, name))
			*ARRAY_PUSH(env, n, cap) = *e;
		else {
			if (!inherited)
				inherited = *e + strlen(name);
			else
				free(*e);
		}
	}
	const char *original = forced_command_original(req->argv, inherited, plan->command);
	if (original)
		*ARRAY_PUSH(env, n, cap) = xasprintf("%s%s", name, original);
	*ARRAY_PUSH(env, n, cap) = NULL;
	/* The inherited value may be what ORIGINAL points into. */
	if (inherited)
		free((char *)inherited - strlen(name));
	free(out->envp);
	out->envp = env;
	environment_free(out->argv);
	out->argv = strv_copy(plan->command);
	out->path = out->argv[0];
	return 0;
}

/* The real shell, and what the entry runs: cocoon-shell its caller's
 * argv (or the forced command) with the session's environment; run its
 * command; enter its command or the shell. */
static int finish_command(const struct admission_request *req, struct admission *out)
{
	struct cc_error err;
	bool by_cocoon_shell = req->kind == ENTRY_COCOON_SHELL ||
			       (req->kind != ENTRY_PAM &&
				shell_service_is_cocoon_shell(out->plan.service));
	if (shell_real(&out->plan, by_cocoon_shell, &out->shell, &err) < 0)
		return refuse_error(out, &err);
	switch (req->kind) {
	case ENTRY_PAM:
		return 0;
	case ENTRY_COCOON_SHELL:
		out->argv = shell_argv(req->argc, req->argv, out->shell);
		out->path = out->shell;
		out->envp = environment_for_session(&out->plan, req->envp, out->shell);
		return out->plan.command ? force_command(req, out) : 0;
	case ENTRY_RUN:
		out->argv = strv_copy(req->argv);
		out->path = out->argv[0];
		out->envp = environment_for_session(&out->plan, req->envp, out->shell);
		return 0;
	case ENTRY_ENTER:
		out->argv = req->argv ? strv_copy(req->argv)
				      : strv_copy((char *const[]){ (char *)out->shell, NULL });
		out->path = out->argv[0];
		return 0;
	}
	return refuse(out, "unknown entry point");
}

/* No rule, or sandbox = none: what each entry makes of a plan that does
 * not sandbox. */
static int not_sandboxed(const struct admission_request *req, struct admission *out,
			 bool no_rule, const char *service)
{
	const char *reason = no_rule ? "no rule" : "sandbox = none";
	struct cc_error err;
	switch (req->kind) {
	case ENTRY_PAM:
		return let_in(out, VERDICT_UNCONFINED, "unconfined", reason);
	case ENTRY_COCOON_SHELL:
		if (no_rule)
			return refuse(out, "no rule of the policy covers %s for service %s; "
				      "refusing the login", out->who.user, service);
		/* The administrator's explicit choice; the shell switches to
		 * the user with every group. */
		if (identity_complete(&out->plan.who, &err) < 0)
			return refuse_error(out, &err);
		let_in(out, VERDICT_UNCONFINED, "unconfined", reason);
		return finish_command(req, out);
	case ENTRY_RUN:
		return refuse(out, "%s is not sandboxed on service %s (%s); refusing to "
			      "run unconfined", out->who.user, service,
			      no_rule ? "no rule covers it" : "sandbox = none");
	case ENTRY_ENTER:
		if (no_rule)
			return refuse(out, "no rule covers the session's user and service "
				      "any more");
		return refuse(out, "the policy now gives %s on %s plan (none), and the "
			      "session runs under plan %s: refusing to enter with another "
			      "confinement", req->expect_user, service, req->live_hash);
	}
	return refuse(out, "unknown entry point");
}

static int root_verdict(const struct admission_request *req, struct admission *out)
{
	if (req->kind == ENTRY_PAM)
		return let_in(out, VERDICT_EXEMPT, "exempt", "root");
	if (req->kind == ENTRY_COCOON_SHELL)
		return refuse(out, "refusing to run for root (root is never sandboxed)");
	return refuse(out, "%s has uid 0: root is never sandboxed",
		      req->user ? req->user : out->who.user);
}

static int climb(const struct admission_request *req, struct admission *out)
{
	struct cc_error err;
	const char *service = req->service ? req->service
					   : req->kind == ENTRY_PAM ? NULL : DEFAULT_SERVICE;
	if (req->kind == ENTRY_PAM && (!req->user || !service))
		return refuse(out, "no user or service name");
	if (req->who) {
		identity_copy(&out->who, req->who);
	} else if (look_up(req, &out->who, &err) < 0) {
		return refuse_error(out, &err);
	}
	out->known_account = true;
	struct identity *who = &out->who;
	out->cocoon_shell_account = who->login_shell &&
				    identity_is_cocoon_shell(who->login_shell, COCOON_SHELL_PATH);
	if (req->expect_user && strcmp(who->user, req->expect_user) != 0)
		return refuse(out, "uid %u is %s now, not %s", (unsigned)who->uid, who->user,
			      req->expect_user);
	if (req->bad_arguments)
		return who->uid == 0 ? root_verdict(req, out)
				     : refuse(out, "bad module arguments");
	if (who->uid == 0)
		return root_verdict(req, out);
	if (req->kind == ENTRY_PAM && is_exempt(req->exempt, who))
		return let_in(out, VERDICT_EXEMPT, "exempt", "exempt=");
	/* The group list, complete, or no login (cocoon.conf(5), NAME
	 * SERVICE OUTAGES): the policy may match on it, the session's
	 * credentials are made of it, and the service's own initgroups
	 * would drop, without a word, the groups of a source that is down. */
	if (req->kind == ENTRY_PAM && identity_complete(who, &err) < 0)
		return refuse_unless_audit(req, out, &err);
	enum resolve_result rc = resolve(req, who, service, &out->plan, &err);
	if (rc == RESOLVE_ERROR)
		return refuse_unless_audit(req, out, &err);
	out->have_plan = true;
	if (rc == RESOLVE_NOT_COVERED || !out->plan.sandboxed)
		return not_sandboxed(req, out, rc == RESOLVE_NOT_COVERED, service);
	if (req->kind == ENTRY_PAM && check_pam_plan(req, &out->plan, &err) < 0)
		return refuse_unless_audit(req, out, &err);
	if (req->kind == ENTRY_PAM && req->audit) {
		out->mode_audit = true;
		return let_in(out, VERDICT_AUDIT, "unconfined",
			      "mode=audit: the plan was not applied");
	}
	if (req->live_hash && strcmp(out->plan.hash, req->live_hash) != 0)
		return refuse(out, "the policy now gives %s on %s plan %s, and the session "
			      "runs under plan %s: refusing to enter with another "
			      "confinement", who->user, service, out->plan.hash,
			      req->live_hash);
	if (req->enter_as_root && plan_check_service(&out->plan, &err) < 0)
		return refuse(out, "enter --root: %s", err.msg);
	let_in(out, VERDICT_SANDBOXED, "sandboxed", "");
	return finish_command(req, out);
}

int admission_decide(const struct admission_request *req, struct admission *out)
{
	memset(out, 0, sizeof(*out));
	plan_init(&out->plan);
	out->result = "refused";
	if (climb(req, out) < 0 || out->verdict == VERDICT_REFUSED) {
		/* A refused login runs nothing. */
		environment_free(out->argv);
		environment_free(out->envp);
		out->argv = out->envp = NULL;
		out->path = out->shell = NULL;
		return -1;
	}
	if (req->kind == ENTRY_PAM && out->verdict != VERDICT_SANDBOXED &&
	    out->cocoon_shell_account && out->who.uid != 0) {
		out->cut_environment = true;
		/* A would-refuse keeps its reason whole. */
		if (strcmp(out->result, "would-refuse") != 0) {
			size_t len = strlen(out->reason);
			snprintf(out->reason + len, sizeof(out->reason) - len, "%s%s",
				 len ? "; " : "", "cocoon-shell account, environment cut");
		}
	}
	return 0;
}

int admission_entry_check(const struct admission_request *req, struct admission *a)
{
	/* The rung runs for a plan every other PAM check passed: a sandbox,
	 * or mode=audit's "not applied". */
	bool reached = a->have_plan &&
		       (a->verdict == VERDICT_SANDBOXED ||
			(a->verdict == VERDICT_AUDIT && strcmp(a->result, "unconfined") == 0));
	struct cc_error err;
	if (req->kind != ENTRY_PAM || !req->entry_check || !reached ||
	    req->entry_check(req->entry_check_data, &a->plan, !req->audit, &err) == 0)
		return a->verdict == VERDICT_REFUSED ? -1 : 0;
	/* A would-refuse keeps its reason whole; the cut stays as it was
	 * (audit, never sandboxed). */
	return refuse_unless_audit(req, a, &err);
}

void admission_free(struct admission *a)
{
	environment_free(a->argv);
	environment_free(a->envp);
	plan_free(&a->plan);
	if (a->known_account)
		identity_free(&a->who);
	memset(a, 0, sizeof(*a));
}

const char *admission_verdict_name(enum verdict verdict)
{
	static const char *const names[] = {
		[VERDICT_REFUSED] = "refused",       [VERDICT_EXEMPT] = "exempt",
		[VERDICT_UNCONFINED] = "unconfined", [VERDICT_AUDIT] = "audit",
		[VERDICT_SANDBOXED] = "sandboxed",
	};
	return (size_t)verdict < ARRAY_SIZE(names) ? names[verdict] : "?";
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

void admission_kept_asked(struct admission_kept *k, const struct admission_request *req)
{
	k->user = dup_or_null(req->user);
	k->service = dup_or_null(req->service);
	k->config = dup_or_null(req->config);
	k->exempt = dup_or_null(req->exempt);
	k->audit = req->audit;
}

bool admission_kept_answers(const struct admission_kept *k,
			    const struct admission_request *req)
{
	return same_text(k->user, req->user) && same_text(k->service, req->service) &&
	       same_text(k->config, req->config) && same_text(k->exempt, req->exempt) &&
	       k->audit == req->audit;
}

void admission_kept_free(struct admission_kept *k)
{
	admission_free(&k->a);
	free(k->user);
	free(k->service);
	free(k->config);
	free(k->exempt);
	free(k);
}

void admission_record(const struct admission *a, struct audit_record *r)
{
	if (a->known_account)
		r->uid = a->who.uid;
	r->plan = a->have_plan ? &a->plan : NULL;
	r->result = a->result;
	r->reason = a->reason[0] ? a->reason : NULL;
	r->mode = a->mode_audit ? "audit" : NULL;
}
