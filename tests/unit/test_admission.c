// SPDX-License-Identifier: GPL-2.0-or-later
/* The front door's verdict ladder, rung by rung, for every entry point, without PAM. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "admission.h"
#include "policy.h"
#include "tap.h"
#include "util.h"

#define UID_MIN 1000

/* Not under /run, /etc or /usr: a PAM session refuses a bind of the
 * user's there (plan_check_service). */
static char home_root[] = "/home/cocoon-unit.XXXXXX";
static char home[256];

/* A made-up account: ann (4242, groups ann and wheel), or a system
 * account below UID_MIN, or root. */
static struct identity account(const char *name, uid_t uid, const char *shell)
{
	static const char *names[] = { "ann", "wheel" };
	struct identity who = { 0 };
	who.user = xstrdup(name);
	who.uid = uid;
	who.gid = uid;
	who.group = xstrdup(name);
	who.home = xstrdup(home);
	who.login_shell = xstrdup(shell);
	who.ngroups = 2;
	who.groups = xcalloc(2, sizeof(gid_t));
	who.group_names = xcalloc(2, sizeof(char *));
	for (size_t i = 0; i < 2; i++) {
		who.groups[i] = uid + (gid_t)i;
		who.group_names[i] = xstrdup(names[i]);
	}
	return who;
}

static struct policy policy_of(const char *text)
{
	struct policy policy = { 0 };
	policy_parse_text(&policy, COCOON_EMBEDDED_NAME, cocoon_default_profile,
			  strlen(cocoon_default_profile));
	policy_parse_text(&policy, "t.conf", text, strlen(text));
	return policy;
}

#define SANDBOXED "[default]\nprofile = default\n"
#define NONE "[default]\nsandbox = none\n"

struct outcome {
	char text[1200];
	struct admission a;
};

/* The verdict, result and reason of REQ against the policy TEXT, as one
 * line: "verdict result: reason". */
static void ask(struct admission_request *req, const char *text, struct identity *who,
		struct outcome *o)
{
	struct policy policy = policy_of(text);
	req->policy = &policy;
	req->who = who;
	req->uid_min = UID_MIN;
	admission_decide(req, &o->a);
	snprintf(o->text, sizeof(o->text), "%s %s: %s", admission_verdict_name(o->a.verdict),
		 o->a.result, o->a.reason);
	policy_free(&policy);
}

static void expect(struct admission_request req, const char *text, struct identity *who,
		   const char *want, const char *name)
{
	struct outcome o;
	ask(&req, text, who, &o);
	tap_like(o.text, want, name);
	admission_free(&o.a);
}

static int checked, check_applied;
static int failing_check(void *data, const struct plan *plan, bool apply,
			 struct cc_error *err)
{
	(void)data;
	(void)plan;
	checked++;
	check_applied = apply;
	return cc_fail(err, "memory_max is not set");
}

static void test_pam(void)
{
	struct identity ann = account("ann", 4242, "/bin/bash");
	struct identity root = account("root", 0, "/bin/bash");
	struct identity daemon = account("sysd", 500, "/usr/sbin/nologin");
	struct admission_request pam = { .kind = ENTRY_PAM, .user = "ann", .service = "sshd" };

	expect(pam, SANDBOXED, &ann, "sandboxed sandboxed: ", "PAM: a covered user is sandboxed");
	expect(pam, NONE, &ann, "unconfined unconfined: sandbox = none",
	       "PAM: sandbox = none lets in unconfined");
	expect(pam, SANDBOXED, &daemon, "unconfined unconfined: no rule",
	       "PAM: a system account no [user] rule names is not covered");
	expect(pam, "[default]\nprofile = nosuch\n", &root, "exempt exempt: root",
	       "PAM: root is exempt before the policy is read (a broken one too)");
	struct admission_request r = pam;
	r.exempt = "bob,ann";
	expect(r, "[default]\nprofile = nosuch\n", &ann, "exempt exempt: exempt=",
	       "PAM: exempt= names the user");
	r.exempt = "@wheel";
	expect(r, SANDBOXED, &ann, "exempt exempt: exempt=", "PAM: exempt=@group");
	r.exempt = "@staff,bob";
	expect(r, SANDBOXED, &ann, "sandboxed", "PAM: exempt= that names neither sandboxes");

	r = pam;
	r.bad_arguments = "bad module arguments";
	expect(r, SANDBOXED, &ann, "refused refused: bad module arguments",
	       "PAM: a mistyped line refuses a user");
	expect(r, SANDBOXED, &root, "exempt exempt: root", "PAM: and lets root in");
	r.audit = true;
	expect(r, SANDBOXED, &ann, "refused refused: bad module arguments",
	       "PAM: mode=audit does not soften a mistyped line");

	r = pam;
	expect(r, "[default]\nprofile = nosuch\n", &ann, "refused refused: ",
	       "PAM: a broken policy refuses");
	r.audit = true;
	expect(r, "[default]\nprofile = nosuch\n", &ann, "audit would-refuse: ",
	       "PAM mode=audit: a broken policy would refuse");
	expect(r, SANDBOXED, &ann, "audit unconfined: mode=audit: the plan was not applied",
	       "PAM mode=audit: a plan is judged, not applied");
	expect(r, NONE, &ann, "unconfined unconfined: sandbox = none",
	       "PAM mode=audit: sandbox = none stays unconfined");

	r = pam;
	r.entry_check = failing_check;
	checked = 0;
	expect(r, SANDBOXED, &ann, "refused refused: memory_max is not set",
	       "PAM: the entry's own check refuses");
	tap_ok(checked == 1 && check_applied, "PAM: and is asked to apply");
	r.audit = true;
	expect(r, SANDBOXED, &ann, "audit would-refuse: memory_max is not set",
	       "PAM mode=audit: the entry's check would refuse");
	tap_ok(checked == 2 && !check_applied, "PAM mode=audit: and is told not to apply");
	expect(r, NONE, &ann, "unconfined", "PAM: the check is not asked for sandbox = none");
	tap_ok(checked == 2, "PAM: (it was not called)");

	/* Decided without the entry's check (the return line), finished
	 * with it (the confining line): the same answers. */
	struct admission_request early = pam, late = pam;
	late.entry_check = failing_check;
	const char *texts[] = { SANDBOXED, SANDBOXED, NONE };
	const char *wants[] = { "refused refused: memory_max is not set",
				"audit would-refuse: memory_max is not set",
				"unconfined unconfined: sandbox = none" };
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		early.audit = late.audit = i == 1;
		struct outcome two;
		checked = 0;
		ask(&early, texts[i], &ann, &two);
		tap_ok(checked == 0, "PAM, decided early: the entry's check is not asked");
		admission_entry_check(&late, &two.a);
		snprintf(two.text, sizeof(two.text), "%s %s: %s",
			 admission_verdict_name(two.a.verdict), two.a.result, two.a.reason);
		tap_like(two.text, wants[i], "PAM, finished late: as one decision answers");
		tap_ok(checked == (i < 2), "PAM, finished late: the check asked where it applies");
		admission_free(&two.a);
	}

	r = pam;
	r.user = NULL;
	expect(r, SANDBOXED, NULL, "refused refused: no user or service name",
	       "PAM: no PAM_USER refuses");

	struct identity shell_account = account("ann", 4242, COCOON_SHELL_PATH);
	struct outcome o;
	r = pam;
	r.exempt = "ann";
	ask(&r, SANDBOXED, &shell_account, &o);
	tap_ok(o.a.verdict == VERDICT_EXEMPT && o.a.cut_environment,
	       "PAM: an exempt cocoon-shell account gets its environment cut");
	tap_is_str(o.a.reason, "exempt=; cocoon-shell account, environment cut",
		   "PAM: and the reason says so");
	admission_free(&o.a);
	r = pam;
	ask(&r, SANDBOXED, &shell_account, &o);
	tap_ok(o.a.verdict == VERDICT_SANDBOXED && !o.a.cut_environment,
	       "PAM: a sandboxed cocoon-shell account is not cut (the sandbox replaces its shell)");
	admission_free(&o.a);
	r.audit = true;
	ask(&r, "[default]\nprofile = nosuch\n", &shell_account, &o);
	tap_ok(o.a.cut_environment && strstr(o.a.reason, "environment cut") == NULL,
	       "PAM mode=audit: a would-refuse is cut and keeps its reason whole");
	admission_free(&o.a);

	/* su -s: a forced command needs a login shell /etc/shells does not list. */
	if (shells_lists(COCOON_SHELLS_FILE, "/bin/sh")) {
		struct identity sh = account("ann", 4242, "/bin/sh");
		expect(pam, SANDBOXED "command = /bin/true\n", &sh,
		       "refused refused: a forced command needs a login shell",
		       "PAM: a forced command with a listed login shell is refused");
		identity_free(&sh);
	} else {
		tap_ok(true, "# SKIP %s does not list /bin/sh", COCOON_SHELLS_FILE);
	}
	identity_free(&shell_account);
	identity_free(&ann);
	identity_free(&root);
	identity_free(&daemon);
}

static bool has(char **strv, const char *want)
{
	for (; strv && *strv; strv++)
		if (strcmp(*strv, want) == 0)
			return true;
	return false;
}

static void test_cocoon_shell(void)
{
	struct identity ann = account("ann", 4242, COCOON_SHELL_PATH);
	struct identity root = account("root", 0, COCOON_SHELL_PATH);
	struct identity daemon = account("sysd", 500, COCOON_SHELL_PATH);
	char *argv[] = { "-cocoon-shell", NULL };
	char *envp[] = { "TERM=xterm", "LD_PRELOAD=/tmp/x.so", "SSH_ORIGINAL_COMMAND=id", NULL };
	struct admission_request shell = { .kind = ENTRY_COCOON_SHELL, .argc = 1, .argv = argv,
					   .envp = envp };

	expect(shell, SANDBOXED, &root, "refused refused: refusing to run for root",
	       "cocoon-shell: root is refused");
	expect(shell, SANDBOXED, &daemon, "refused refused: no rule of the policy covers sysd",
	       "cocoon-shell: no rule refuses the login");
	struct admission_request r = shell;
	r.exempt = "ann";
	r.audit = true;
	expect(r, SANDBOXED, &ann, "sandboxed", "cocoon-shell: PAM's exempt= and audit mean nothing");

	struct outcome o;
	ask(&shell, SANDBOXED, &ann, &o);
	const char *real = access("/bin/bash", X_OK) == 0 ? "/bin/bash" : "/bin/sh";
	tap_is_str(o.a.path, real, "cocoon-shell: the real shell runs");
	tap_is_str(o.a.argv[0], access("/bin/bash", X_OK) == 0 ? "-bash" : "-sh",
		   "cocoon-shell: as a login shell");
	tap_ok(has(o.a.envp, "TERM=xterm") && !has(o.a.envp, "LD_PRELOAD=/tmp/x.so"),
	       "cocoon-shell: the environment is the session's allow-list");
	admission_free(&o.a);

	ask(&shell, NONE, &ann, &o);
	tap_ok(o.a.verdict == VERDICT_UNCONFINED && o.a.path && strcmp(o.a.path, real) == 0,
	       "cocoon-shell: sandbox = none runs the real shell unconfined");
	admission_free(&o.a);

	char *asked[] = { "cocoon-shell", "-c", "ls -l", NULL };
	r = shell;
	r.argc = 3;
	r.argv = asked;
	r.envp = (char *[]){ "TERM=xterm", NULL };
	ask(&r, SANDBOXED "command = /usr/bin/printf forced\n", &ann, &o);
	tap_ok(o.a.verdict == VERDICT_SANDBOXED && strcmp(o.a.path, "/usr/bin/printf") == 0 &&
		       strcmp(o.a.argv[1], "forced") == 0 && !o.a.argv[2],
	       "cocoon-shell: a forced command replaces what was asked");
	tap_ok(has(o.a.envp, "SSH_ORIGINAL_COMMAND=ls -l"),
	       "cocoon-shell: and what was asked is told in SSH_ORIGINAL_COMMAND");
	admission_free(&o.a);
	expect(r, SANDBOXED "command = " COCOON_SHELL_PATH "\n", &ann,
	       "refused refused: the policy's command " COCOON_SHELL_PATH " is cocoon-shell itself",
	       "cocoon-shell: a forced command that is cocoon-shell is refused");
	identity_free(&ann);
	identity_free(&root);
	identity_free(&daemon);
}

static void test_run_and_enter(void)
{
	struct identity ann = account("ann", 4242, "/bin/bash");
	struct identity daemon = account("sysd", 500, "/bin/bash");
	char *command[] = { "/bin/true", NULL };
	struct admission_request run = { .kind = ENTRY_RUN, .user = "ann", .service = "sshd",
					 .argc = 1, .argv = command };
	expect(run, NONE, &ann, "refused refused: ann is not sandboxed on service sshd "
	       "(sandbox = none); refusing to run unconfined", "run: sandbox = none is refused");
	expect(run, SANDBOXED, &daemon, "refused refused: sysd is not sandboxed on service sshd "
	       "(no rule covers it)", "run: no rule is refused");
	struct outcome o;
	ask(&run, SANDBOXED, &ann, &o);
	tap_ok(o.a.verdict == VERDICT_SANDBOXED && strcmp(o.a.path, "/bin/true") == 0 &&
		       has(o.a.envp, "SHELL=/bin/bash"),
	       "run: the command, with SHELL the login's real shell");
	char hash[sizeof(o.a.plan.hash)];
	memcpy(hash, o.a.plan.hash, sizeof(hash));
	admission_free(&o.a);

	struct admission_request enter = { .kind = ENTRY_ENTER, .user = "ann",
					   .expect_user = "ann", .service = "sshd",
					   .live_hash = hash };
	ask(&enter, SANDBOXED, &ann, &o);
	tap_ok(o.a.verdict == VERDICT_SANDBOXED && strcmp(o.a.argv[0], "/bin/bash") == 0 &&
		       !o.a.argv[1], "enter: the live plan's hash enters the login's shell");
	admission_free(&o.a);
	struct admission_request r = enter;
	r.live_hash = "0123";
	expect(r, SANDBOXED, &ann, "refused refused: the policy now gives ann on sshd plan",
	       "enter: another plan is refused");
	expect(enter, NONE, &ann, "plan (none), and the session runs under plan",
	       "enter: sandbox = none is refused");
	/* enter --root: root inside, which a plan that binds the user's
	 * files over a system path must not have. */
#define UNSAFE_FOR_ROOT SANDBOXED "bind = %h /usr/lib/cocoon-unit\n"
	char saved_hash[sizeof(hash)];
	memcpy(saved_hash, hash, sizeof(hash));
	r = run;
	ask(&r, UNSAFE_FOR_ROOT, &ann, &o);
	memcpy(hash, o.a.plan.hash, sizeof(hash));
	admission_free(&o.a);
	r = enter;
	expect(r, UNSAFE_FOR_ROOT, &ann, "sandboxed sandboxed", "enter: as the user, such a plan enters");
	r.enter_as_root = true;
	expect(r, UNSAFE_FOR_ROOT, &ann, "refused refused: enter --root: ",
	       "enter --root: the front door refuses a plan unsafe with root inside");
	memcpy(hash, saved_hash, sizeof(hash));
	r = enter;
	r.expect_user = "bob";
	expect(r, SANDBOXED, &ann, "refused refused: uid 4242 is ann now, not bob",
	       "enter: a uid that changed owner is refused");
	identity_free(&ann);
	identity_free(&daemon);
}

int main(void)
{
	if (!tap_make_home(home_root, "ann", 4242, home, sizeof(home)))
		return 1;
	test_pam();
	test_cocoon_shell();
	test_run_and_enter();
	tap_remove_home(home_root);
	return tap_done();
}
