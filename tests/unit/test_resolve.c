// SPDX-License-Identifier: GPL-2.0-or-later
/* Rule precedence, merging, token expansion and the home checks. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan_print.h"
#include "plan_build.h"
#include "plan_check.h"
#include "policy.h"
#include "resolve.h"
#include "sandbox.h"
#include "tap.h"
#include "util.h"

#define UID_MIN 1000

static char home_root[] = "/run/cocoon-unit.XXXXXX";
static char home[256];

/* A made-up user 4242 ("ann") in groups ann, staff, dev; home under a
 * root-owned temporary directory. */
static struct identity ann(void)
{
	static const char *names[] = { "ann", "staff", "dev" };
	struct identity who = { 0 };
	who.user = xstrdup("ann");
	who.uid = 4242;
	who.gid = 4242;
	who.group = xstrdup("ann");
	who.home = xstrdup(home);
	who.login_shell = xstrdup("/bin/bash");
	who.ngroups = 3;
	who.groups = xcalloc(3, sizeof(gid_t));
	who.group_names = xcalloc(3, sizeof(char *));
	for (size_t i = 0; i < 3; i++) {
		who.groups[i] = 4242 + (gid_t)i;
		who.group_names[i] = xstrdup(names[i]);
	}
	return who;
}

static enum resolve_result resolve_as(const char *text, struct identity *who,
				      const char *service, struct plan *plan,
				      struct cc_error *err)
{
	struct policy policy = { 0 };
	policy_parse_text(&policy, COCOON_EMBEDDED_NAME, cocoon_default_profile,
			  strlen(cocoon_default_profile));
	policy_parse_text(&policy, "t.conf", text, strlen(text));
	enum resolve_result rc = policy_resolve(&policy, who, service, UID_MIN, plan, err);
	policy_free(&policy);
	return rc;
}

/* The rule that wins for ann on SERVICE, or the error. */
static char *winner(const char *text, const char *service)
{
	struct identity who = ann();
	struct plan plan;
	struct cc_error err;
	enum resolve_result rc = resolve_as(text, &who, service, &plan, &err);
	char *out = rc == RESOLVE_ERROR ? xasprintf("error: %s", err.msg)
		: rc == RESOLVE_NOT_COVERED ? xstrdup("not covered")
		: xstrdup(plan.rule);
	plan_free(&plan);
	identity_free(&who);
	return out;
}

static void expect_winner(const char *text, const char *service, const char *want,
			  const char *name)
{
	char *got = winner(text, service);
	tap_is_str(got, want, name);
	free(got);
}

#define RULES \
	"[default]\nprofile = default\n"            /* 1 */ \
	"[group staff]\nprofile = default\n"        /* 3 */ \
	"[group dev]\nprofile = default\n"          /* 5 */ \
	"[user ann]\nprofile = default\nservice = sshd\n" /* 7 */

static void test_precedence(void)
{
	expect_winner(RULES, "sshd", "[user ann] at t.conf:7", "a [user] rule beats every group rule");
	expect_winner(RULES, "login", "[group staff] at t.conf:3",
		      "a user rule whose service list excludes the service is skipped");
	expect_winner("[group dev]\nprofile = default\n[group staff]\nprofile = default\n"
		      "[default]\nprofile = default\n", "login", "[group dev] at t.conf:1",
		      "the first matching group rule in file order wins");
	expect_winner("[default]\nprofile = default\n[group other]\nprofile = default\n",
		      "login", "[default] at t.conf:1", "[default] comes last");
	expect_winner("[default]\nprofile = default\nservice = sshd\n", "login", "not covered",
		      "a default limited to other services covers nothing");
	expect_winner("[default]\nsandbox = none\n", "login", "[default] at t.conf:1",
		      "sandbox = none is an explicit rule");
	expect_winner("[default]\nprofile = default\n[user bob]\nprofile = nope\n", "login",
		      "error: t.conf:4: unknown profile 'nope'",
		      "an error anywhere in the policy refuses every session");

	struct identity who = ann();
	struct plan plan;
	struct cc_error err;
	resolve_as(RULES, &who, "login", &plan, &err);
	tap_ok(plan.nlost == 3, "three rules lost (%zu)", plan.nlost);
	tap_like(plan.nlost > 0 ? plan.lost[0] : NULL,
		 "[user ann] at t.conf:7: its service list excludes this service", "why the user rule lost");
	tap_like(plan.nlost > 1 ? plan.lost[1] : NULL,
		 "[group dev] at t.conf:5: an earlier [group] rule matched first", "why the later group lost");
	tap_like(plan.nlost > 2 ? plan.lost[2] : NULL, "[default] at t.conf:1: [default] comes last",
		 "why default lost");
	plan_free(&plan);

	/* Accounts below UID_MIN: only an explicit [user] rule. */
	who.uid = 999;
	const char *system_rules = "[default]\nprofile = p\n[group staff]\nprofile = p\n"
				   "[user ann]\nprofile = p\nservice = sshd\n"
				   "[profile p]\ntmpfs = /x\n";
	tap_ok(resolve_as(system_rules, &who, "login", &plan, &err) == RESOLVE_NOT_COVERED,
	       "a system account is not matched by group or default rules");
	plan_free(&plan);
	tap_ok(resolve_as(system_rules, &who, "sshd", &plan, &err) == RESOLVE_PLAN,
	       "a system account is matched by its [user] rule");
	plan_free(&plan);
	who.uid = 0;
	tap_ok(resolve_as(RULES, &who, "sshd", &plan, &err) == RESOLVE_ERROR &&
	       strstr(err.msg, "root is never sandboxed"), "uid 0 is never matched");
	plan_free(&plan);
	identity_free(&who);
}

static char *plan_text(const char *text, const char *service)
{
	struct identity who = ann();
	struct plan plan;
	struct cc_error err;
	struct strbuf out = { 0 };
	if (resolve_as(text, &who, service, &plan, &err) == RESOLVE_ERROR)
		sb_addf(&out, "error: %s", err.msg);
	else
		plan_print_text(&plan, &out);
	plan_free(&plan);
	identity_free(&who);
	return sb_steal(&out);
}

static void test_merge(void)
{
	const char *policy =
		"[default]\nprofile = base\ntmpfs = /rule\nsetenv = B 2\nhostname = rule\nunshare = uts ipc\n"
		"[profile base]\nprofile = inner\ntmpfs = /base\nsetenv = A 1\nhostname = base\nunshare = pid net uts\n"
		"[profile inner]\ntmpfs = /inner\nunsetenv = Z\nchdir = /inner\n";
	char *text = plan_text(policy, "login");
	const char *inner = strstr(text, "tmpfs /inner"), *base = strstr(text, "tmpfs /base"),
		   *rule = strstr(text, "tmpfs /rule");
	tap_ok(inner && base && rule && inner < base && base < rule,
	       "operations: included profiles first, then the rule's own");
	const char *z = strstr(text, "unsetenv     Z"), *a = strstr(text, "setenv       A=1"),
		   *b = strstr(text, "setenv       B=2");
	tap_ok(z && a && b && z < a && a < b, "setenv and unsetenv are appended in order");
	tap_like(text, "hostname     rule", "single-valued settings take the last value");
	tap_like(text, "chdir        /inner", "settings not overridden are kept");
	tap_like(text, "namespaces:  mount ipc uts\n", "unshare replaces, never adds");
	free(text);
}

static void test_tokens(void)
{
	char *text = plan_text("[default]\nprofile = p\n[profile p]\n"
			       "tmpfs = //srv///%u/%U/%g/%G/%%/\nsetenv = H %h\n"
			       "hostname = box-%u\nunshare = uts\n", "login");
	tap_like(text, "tmpfs /srv/ann/4242/ann/4242/%", "tokens expand and the path is normalised");
	char want[300];
	snprintf(want, sizeof(want), "setenv       H=%s", home);
	tap_like(text, want, "%h expands in values");
	tap_like(text, "hostname     box-ann", "tokens expand in the hostname");
	free(text);

	struct identity who = ann();
	struct plan plan;
	struct cc_error err;
	const char *uses_home = "[default]\nprofile = p\n[profile p]\nbind = %h\n";
	tap_ok(resolve_as(uses_home, &who, "login", &plan, &err) == RESOLVE_PLAN,
	       "a home owned by the user is accepted");
	/* Then the host's name-service endpoints, if any (name_services.c). */
	tap_ok(plan.nops >= 1 && plan.ops[0].source_user_writable &&
	       (plan.nops == 1 || plan.ops[1].type == OP_NAME_SERVICE),
	       "the user's home is marked user-writable for the engine");
	plan_free(&plan);

	free(who.home);
	who.home = xstrdup("/");
	tap_ok(resolve_as(uses_home, &who, "login", &plan, &err) == RESOLVE_ERROR &&
	       strstr(err.msg, "home directory of ann is '/'"), "a home of / is refused");
	plan_free(&plan);
	free(who.home);
	who.home = xstrdup("relative/home");
	tap_ok(resolve_as(uses_home, &who, "login", &plan, &err) == RESOLVE_ERROR &&
	       strstr(err.msg, "is not absolute"), "a relative home is refused");
	plan_free(&plan);
	free(who.home);
	who.home = xasprintf("%s/rootowned", home_root);
	mkdir(who.home, 0755);
	tap_ok(resolve_as(uses_home, &who, "login", &plan, &err) == RESOLVE_ERROR &&
	       strstr(err.msg, "is owned by uid 0, not by ann"), "a home the user does not own is refused");
	plan_free(&plan);
	char *link = xasprintf("%s/link", home_root);
	if (symlink(home, link) < 0)
		perror("symlink");
	free(who.home);
	who.home = link;
	tap_ok(resolve_as(uses_home, &who, "login", &plan, &err) == RESOLVE_ERROR &&
	       strstr(err.msg, "is a symlink"), "a home that is a symlink is refused");
	plan_free(&plan);
	tap_ok(resolve_as("[default]\nprofile = p\n[profile p]\ntmpfs = /x\n", &who, "login",
			  &plan, &err) == RESOLVE_PLAN, "a bad home matters only when %%h is used");
	plan_free(&plan);
	identity_free(&who);
}

static void test_hash(void)
{
	struct identity who = ann();
	struct plan a, b, c;
	struct cc_error err;
	resolve_as("[default]\nprofile = default\n", &who, "login", &a, &err);
	resolve_as("# same content, other text\n\n[default]\nprofile = default\n", &who, "sshd", &b, &err);
	resolve_as("[default]\nprofile = default\nhostname = x\n", &who, "login", &c, &err);
	tap_ok(strlen(a.hash) == 16 && strcmp(a.hash, b.hash) == 0,
	       "the plan hash depends on content only");
	tap_ok(strcmp(a.hash, c.hash) != 0, "a different plan has a different hash");
	plan_free(&a);
	plan_free(&b);
	plan_free(&c);
	identity_free(&who);
}

/* share-sandbox and linger: off by default, taken from profiles like
 * every setting, the last one winning, and in the hash only when on. */
static void test_share(void)
{
	struct identity who = ann();
	struct plan off, on, longer, overridden, turned_off;
	struct cc_error err;
	resolve_as("[default]\nprofile = default\n", &who, "login", &off, &err);
	tap_ok(!off.share && off.linger == LINGER_NO && off.linger_time == 0,
	       "share-sandbox = no and linger = no by default");
	resolve_as("[default]\nprofile = p\n[profile p]\nprofile = default\n"
		   "share-sandbox = yes\nlinger = 30m\n", &who, "login", &on, &err);
	tap_ok(on.share && on.linger == LINGER_FOR && on.linger_time == 1800,
	       "a profile's share-sandbox and linger reach the rule's plan");
	resolve_as("[default]\nprofile = p\n[profile p]\nprofile = default\n"
		   "share-sandbox = yes\nlinger = 1h\n", &who, "login", &longer, &err);
	resolve_as("[default]\nprofile = p\nlinger = yes\n[profile p]\nprofile = default\n"
		   "share-sandbox = yes\nlinger = 30m\n", &who, "login", &overridden, &err);
	tap_ok(overridden.share && overridden.linger == LINGER_YES &&
	       overridden.linger_time == 0, "the rule's linger = yes replaces the profile's");
	resolve_as("[default]\nprofile = p\nshare-sandbox = no\nlinger = no\n"
		   "[profile p]\nprofile = default\nshare-sandbox = yes\nlinger = 30m\n",
		   &who, "login", &turned_off, &err);
	tap_ok(!turned_off.share && turned_off.linger == LINGER_NO,
	       "and its share-sandbox = no, linger = no turn both off");
	tap_ok(strcmp(off.hash, on.hash) != 0 && strcmp(on.hash, longer.hash) != 0 &&
	       strcmp(on.hash, overridden.hash) != 0,
	       "the hash changes with share-sandbox and with linger");
	tap_is_str(turned_off.hash, off.hash, "turned off, the plan hashes as one without them");
	plan_free(&off);
	plan_free(&on);
	plan_free(&longer);
	plan_free(&overridden);
	plan_free(&turned_off);
	identity_free(&who);
}

/* The plan's filesystem lines, without their file:line comments. */
static char *ops_of(const char *text)
{
	char *full = plan_text(text, "login");
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	const char *p = strstr(full, "filesystem:\n");
	const char *end = p ? strstr(p, "process:\n") : NULL;
	if (!p || !end) {
		sb_addf(&out, "%s", full);
	} else {
		for (p += strlen("filesystem:\n"); p < end; p = strchr(p, '\n') + 1) {
			const char *line = p + 2, *hash = strstr(line, " # ");
			size_t n = (size_t)(hash - line);
			/* The host's endpoints: test_name_services.c. */
			if (strncmp(line, "name-service ", 13) == 0)
				continue;
			while (n && line[n - 1] == ' ')
				n--;
			sb_addf(&out, "%.*s;", (int)n, line);
		}
	}
	free(full);
	return sb_steal(&out);
}

static void expect_ops(const char *text, const char *want, const char *name)
{
	char *got = ops_of(text);
	char *expanded = xstrdup(want);
	/* H in WANT stands for ann's home. */
	struct strbuf w = { 0 };
	sb_addn(&w, "", 0);
	for (const char *c = expanded; *c; c++)
		if (*c == 'H')
			sb_addf(&w, "%s", home);
		else
			sb_addn(&w, c, 1);
	tap_is_str(got, w.data, name);
	sb_free(&w);
	free(expanded);
	free(got);
}

#define GUEST "[default]\nprofile = p\n[profile p]\n"

static void test_guest(void)
{
	expect_ops(GUEST "ro-bind = /usr\nbind = %h\ntmpfs = /run\nhome = tmpfs\n",
		   "ro-bind /usr;home-tmpfs H from /etc/skel size=268435456 mode=0700;tmpfs /run;",
		   "home = tmpfs: the bind of %h becomes the tmpfs home, in its place");
	expect_ops(GUEST "bind = %h\nro-bind = %h\nhome = tmpfs\nhome-size = 1M\n"
		   "home-skel = /srv/skel\n",
		   "home-tmpfs H from /srv/skel size=1048576 mode=0700;",
		   "later binds of %h go; home-size and home-skel are used");
	expect_ops(GUEST "bind = %h\ntmpfs = /run\nhome = overlay\n",
		   "bind H;tmp-overlay H size=268435456;tmpfs /run;",
		   "home = overlay: the bind stays, an overlay right after it");
	expect_ops(GUEST "bind = %h\nbind = /srv %h/srv\n",
		   "error: t.conf:5: 'bind %h/srv' would create inside '%h', whose source %h a "
		   "non-root user can write (t.conf:4); bind a root-owned source or put it "
		   "before that bind", "control: a mount inside the bound home is refused");
	expect_ops(GUEST "bind = %h\nbind = /srv %h/srv\nhome = tmpfs\n",
		   "home-tmpfs H from /etc/skel size=268435456 mode=0700;bind /srv H/srv;",
		   "but fine inside a tmpfs home, which the user cannot race");
	expect_ops(GUEST "ro-bind = /usr\nbind = %h\nhome = none\n", "ro-bind /usr;",
		   "home = none: the bind of %h goes");
	expect_ops(GUEST "ro-bind = /usr\nbind = %h/ %h//\nhome = none\n", "ro-bind /usr;",
		   "home = none: so does a bind of %h/ at %h//");
	char *none = plan_text(GUEST "bind = %h\nchdir = %h\nhome = none\n", "login");
	tap_like(none, "chdir        (home, else /)", "home = none: chdir = %h falls back");
	free(none);
	expect_ops(GUEST "ro-bind = /usr\nbind = %h\nhome = bind\n", "ro-bind /usr;bind H;",
		   "home = bind leaves the plan as it was");
	expect_ops(GUEST "ro-bind = /usr\nhome = tmpfs\ntmpfs = /run\n",
		   "ro-bind /usr;tmpfs /run;home-tmpfs H from /etc/skel size=268435456 mode=0700;",
		   "with no bind of %h the tmpfs home comes after every op");
	expect_ops(GUEST "bind = /srv/%u %h\nhome = tmpfs\n",
		   "bind /srv/ann H;home-tmpfs H from /etc/skel size=268435456 mode=0700;",
		   "only a bind of %h at %h is the home");
	expect_ops("[default]\nprofile = p\nhome = tmpfs\n[profile p]\nbind = %h\nhome = overlay\n",
		   "home-tmpfs H from /etc/skel size=268435456 mode=0700;",
		   "a rule's home overrides its profile's");
	expect_ops(GUEST "tmpfs = /tmp\nprivate-tmp = session\ntmp-size = 8M\nro-bind = /usr\n",
		   "tmpfs /tmp;ro-bind /usr;private-tmp /tmp size=8388608 mode=1777;"
		   "private-tmp /var/tmp size=8388608 mode=1777;"
		   "private-tmp /dev/shm size=8388608 mode=1777;",
		   "private-tmp = session: sized tmpfs after every op");
	expect_ops(GUEST "private-tmp = persistent\nprivate-tmp = no\n", "",
		   "private-tmp: the last one wins");
	char want[1024];
	snprintf(want, sizeof(want), "private-tmp /tmp instance %s/4242/tmp mode=1777;"
		 "private-tmp /var/tmp instance %s/4242/var-tmp mode=1777;"
		 "private-tmp /dev/shm instance %s/4242/shm mode=1777;",
		 COCOON_PRIVATE_TMP_DIR, COCOON_PRIVATE_TMP_DIR, COCOON_PRIVATE_TMP_DIR);
	expect_ops(GUEST "private-tmp = persistent\n", want,
		   "private-tmp = persistent: the user's instances under the state directory");

	char *text = plan_text(GUEST "bind = %h\nhome = tmpfs\nprivate-tmp = session\n", "login");
	tap_like(text, "home         tmpfs (size 268435456, skeleton /etc/skel)",
		 "the text plan shows the home setting");
	tap_like(text, "private-tmp  session (size 268435456)", "and private-tmp");
	free(text);

	/* A tmpfs home does not read the host's home: it need not exist. */
	struct identity who = ann();
	struct plan a, b;
	struct cc_error err;
	free(who.home);
	who.home = xasprintf("%s/missing", home_root);
	tap_ok(resolve_as(GUEST "bind = %h\nhome = tmpfs\n", &who, "login", &a, &err) ==
	       RESOLVE_PLAN, "a tmpfs home needs no home on the host");
	plan_free(&a);
	tap_ok(resolve_as(GUEST "bind = %h\nhome = overlay\n", &who, "login", &a, &err) ==
	       RESOLVE_ERROR && strstr(err.msg, "No such file"),
	       "an overlay home does (it shows the real one)");
	plan_free(&a);
	identity_free(&who);

	who = ann();
	resolve_as(GUEST "bind = %h\nhome = tmpfs\n", &who, "login", &a, &err);
	resolve_as(GUEST "bind = %h\nhome = tmpfs\nhome-size = 1M\n", &who, "login", &b, &err);
	tap_ok(strcmp(a.hash, b.hash) != 0, "the hash covers home-size");
	plan_free(&a);
	plan_free(&b);
	resolve_as(GUEST "private-tmp = session\n", &who, "login", &a, &err);
	resolve_as(GUEST "private-tmp = session\ntmp-size = 1M\n", &who, "login", &b, &err);
	tap_ok(strcmp(a.hash, b.hash) != 0, "and tmp-size");
	tap_ok(a.root_size == COCOON_DEFAULT_ROOT_SIZE &&
	       a.tmpfs_size == COCOON_DEFAULT_TMPFS_SIZE,
	       "root-size and tmpfs-size have bounded defaults");
	plan_free(&a);
	plan_free(&b);
	resolve_as(GUEST "root-size = 2M\n", &who, "login", &a, &err);
	resolve_as(GUEST "tmpfs-size = 2M\n", &who, "login", &b, &err);
	tap_ok(a.root_size == 2u << 20 && b.tmpfs_size == 2u << 20 &&
	       strcmp(a.hash, b.hash) != 0, "a policy sets them, and the hash covers each");
	plan_free(&a);
	plan_free(&b);
	resolve_as(GUEST "", &who, "login", &a, &err);
	resolve_as(GUEST "pty-max = 16\npty-max-user = none\n", &who, "login", &b, &err);
	tap_ok(a.pty_max == COCOON_DEFAULT_PTY_MAX && a.pty_max_user == COCOON_DEFAULT_PTY_MAX_USER &&
	       b.pty_max == 16 && b.pty_max_user == 0 && strcmp(a.hash, b.hash) != 0,
	       "pty-max and pty-max-user: defaults, set by the policy, in the hash");
	plan_free(&a);
	plan_free(&b);
	resolve_as(GUEST "pty-max-user = 64\n", &who, "login", &a, &err);
	resolve_as(GUEST "pty-max-user = 65\n", &who, "login", &b, &err);
	tap_ok(a.pty_max_user == 64 && strcmp(a.hash, b.hash) != 0,
	       "the hash tells one total from another");
	plan_free(&a);
	plan_free(&b);
	identity_free(&who);
	text = plan_text(GUEST "tmpfs-size = 1M\n", "login");
	tap_like(text, "root-size    16777216\n  tmpfs-size   1048576",
		 "the text plan shows both bounds");
	free(text);
	text = plan_text(GUEST "pty-max = 16\n", "login");
	tap_like(text, "  ptys         16 per session, 1024 per user\n",
		 "the text plan shows the pty limits");
	free(text);
}

static void test_command(void)
{
	const char *policy =
		"[default]\nprofile = kiosk\ncommand = /opt/menu --for %u \"a b\"\n"
		"[profile kiosk]\nprofile = default\ncommand = /opt/old\n"
		"[user ann]\nprofile = kiosk\nservice = login\n";
	char *text = plan_text(policy, "sshd");
	tap_like(text, "  command      /opt/menu --for ann 'a b' (instead", "the rule's command "
		 "overrides its profile's, tokens expanded");
	free(text);
	text = plan_text(policy, "login");
	tap_like(text, "  command      /opt/old (instead", "a profile's command holds");
	free(text);
	text = plan_text("[default]\nprofile = default\n", "login");
	tap_ok(!strstr(text, "command"), "no command without the directive");
	free(text);
	text = plan_text("[default]\nprofile = default\ncommand = //opt//m/\n", "login");
	tap_like(text, "command      /opt/m (", "the command's path is normalised");
	free(text);

	struct identity who = ann();
	struct plan plan;
	struct cc_error err;
	struct strbuf out = { 0 };
	resolve_as(policy, &who, "sshd", &plan, &err);
	plan_print_json(&plan, &out);
	tap_like(out.data, "\"command\":[\"/opt/menu\",\"--for\",\"ann\",\"a b\"]}",
		 "JSON lists the command's words");
	sb_free(&out);
	plan_print_bwrap(&plan, &out, &err);
	tap_like(out.data, "--die-with-parent -- /opt/menu --for ann 'a b'",
		 "bwrap runs the command");
	sb_free(&out);
	char *joined = plan_command_text(&plan);
	tap_is_str(joined, "/opt/menu --for ann a b", "the command as text");
	free(joined);
	struct plan other;
	resolve_as(policy, &who, "login", &other, &err);
	tap_ok(strcmp(plan.hash, other.hash) != 0, "the hash covers the command");
	plan_free(&other);
	plan_free(&plan);

	struct strbuf big = { 0 };
	sb_addf(&big, "[default]\nprofile = default\ncommand = /m");
	for (int i = 0; i < 600; i++)
		sb_addf(&big, " arg");
	sb_addf(&big, "\n");
	tap_ok(resolve_as(big.data, &who, "login", &plan, &err) == RESOLVE_ERROR &&
	       strstr(err.msg, "command: longer than"), "an overlong command is refused");
	plan_free(&plan);
	sb_free(&big);
	identity_free(&who);
}

/* login.defs: only a whole UID_MIN key with a number counts; the last
 * one wins, as in shadow's own parser; 1000 without one. */
static void test_login_defs(void)
{
	char path[sizeof(home_root) + 16];
	snprintf(path, sizeof(path), "%s/login.defs", home_root);
	static const struct {
		const char *text;
		unsigned want;
		const char *name;
	} cases[] = {
		{ "# UID_MIN 5\nUID_MIN\t\t 2000\nUID_MAX 60000\n", 2000, "a tab-separated UID_MIN" },
		{ "UID_MINIMUM 7\nUID_MIN\n  UID_MIN 1500  \n", 1500, "only the whole key, indented or not" },
		{ "UID_MIN 2000\nUID_MIN 3000\n", 3000, "the last one wins" },
		{ "UID_MIN 12abc\nUID_MIN -5\nUID_MIN 0\n", 1000, "no valid number: 1000" },
		{ "", 1000, "none: 1000" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");
		if (!f || fputs(cases[i].text, f) < 0 || fclose(f) != 0) {
			tap_ok(false, "login.defs: writing %s", path);
			continue;
		}
		tap_ok(identity_uid_min(path) == cases[i].want, "login.defs: %s", cases[i].name);
	}
	tap_ok(identity_uid_min("/nonexistent/login.defs") == 1000, "login.defs: missing file: 1000");
	tap_write_file(path, "UID_MIN 1000\nUID_MAX\t59999\n");
	tap_ok(identity_uid_max(path) == 59999, "login.defs: UID_MAX, read as UID_MIN is");
	tap_ok(identity_uid_max("/nonexistent/login.defs") == 60000,
	       "login.defs: missing file: UID_MAX 60000");
	unlink(path);
}

/* plan_path_user_writable follows the path as the kernel resolves it. */
static void test_user_writable(void)
{
	char *r = xasprintf("%s/r", home_root), *d = xasprintf("%s/d", r);
	char *target = xasprintf("%s/target", home), *p;
	mkdir(r, 0755);
	mkdir(d, 0755);
	mkdir(target, 0755); /* root's, in ann's home */
	tap_ok(!plan_path_user_writable(d), "a path through root's directories is root's");
	tap_ok(plan_path_user_writable(target), "a path through the user's home is not");
	p = xasprintf("%s/into", r);
	if (symlink(target, p) < 0)
		perror("symlink");
	tap_ok(plan_path_user_writable(p), "a root-owned link into the user's home is the "
	       "user's, though the link and where it ends are root's");
	free(p);
	p = xasprintf("%s/up", r);
	if (symlink("../r/./d", p) < 0)
		perror("symlink");
	tap_ok(!plan_path_user_writable(p), "a relative link between root's directories is root's");
	free(p);
	p = xasprintf("%s/up/../up/", r);
	tap_ok(!plan_path_user_writable(p), "and so are '..' and '.' after it");
	free(p);
	p = xasprintf("%s/ann-link", r);
	if (symlink(d, p) < 0 || lchown(p, 4242, 4242) < 0)
		perror("symlink");
	tap_ok(plan_path_user_writable(p), "a link the user owns is the user's");
	free(p);
	p = xasprintf("%s/loop", r);
	if (symlink(p, p) < 0)
		perror("symlink");
	tap_ok(plan_path_user_writable(p), "a link loop counts as the user's");
	free(p);
	p = xasprintf("/../..%s/missing/x", r);
	tap_ok(!plan_path_user_writable(p), "a missing component ends the walk");
	free(p);
	free(target);
	free(d);
	free(r);
}

/* What root would read below the code paths (pam_cocoon, enter --root). */
static void test_code_paths(void)
{
	static const struct {
		const char *op;
		const char *refused; /* NULL: accepted */
	} cases[] = {
		{ "tmpfs = /usr/local/share", "a tmpfs there is writable by others" },
		{ "tmpfs = /usr/local/share mode=0775", "a tmpfs there is writable by others" },
		{ "tmpfs = /usr/local/share mode=0755", NULL },
		{ "tmpfs = /etc", NULL }, /* root's 0755 at a system path itself */
		{ "dir = /etc/update-motd.d", "a `dir` there belongs to the session's user" },
		{ "dir = /run/user/%U", NULL },
		{ "symlink = /home/ann /etc/security/limits.d", "leads out of the paths root reads" },
		{ "symlink = ../../usr/x /etc/y/z", "leads out of the paths root reads" },
		{ "symlink = /usr/lib/x /etc/x", NULL },
		{ "symlink = usr/lib /lib", NULL },
		{ "file = /etc/motd hi mode=0666", "its mode lets group or others write it" },
		{ "file = /etc/motd hi mode=0644", NULL },
		{ "chmod = 0777 /etc", "its mode lets group or others write it" },
		{ "chmod = 0755 /etc", NULL },
		{ "dir = /run/nscd", "a `dir` there belongs to the session's user" },
		{ "tmpfs = /run/systemd", "a tmpfs there is writable by others" },
		{ "tmpfs = /run/systemd mode=0755", NULL },
		/* Above those paths: a writable parent lets the user replace them. */
		{ "tmpfs = /run", NULL }, /* root's 0755 at a system path */
		{ "tmpfs = /run mode=0777", "a tmpfs there is writable by others" },
		{ "chmod = 1777 /run", "its mode lets group or others write it" },
		{ "chmod = 0777 /", "its mode lets group or others write it" },
		{ "tmpfs = /var/run", "a tmpfs there is writable by others" },
		{ "dir = /var/run/nscd", "a `dir` there belongs to the session's user" },
		{ "symlink = /run/user/%U /var/run", "takes paths root reads" },
		{ "symlink = /tmp /var", "takes paths root reads" },
		{ "symlink = ../run /var/run", NULL },
		{ "symlink = /run /var/run", NULL },
	};
	struct identity who = ann();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = xasprintf("[default]\nprofile = p\n[profile p]\n%s\n", cases[i].op);
		struct plan plan;
		struct cc_error err = { "" };
		bool planned = resolve_as(text, &who, "login", &plan, &err) == RESOLVE_PLAN;
		int rc = planned ? plan_check_code_paths(&plan, "--root", &err) : -1;
		if (cases[i].refused)
			tap_ok(planned && rc < 0 && strstr(err.msg, cases[i].refused) &&
			       strstr(err.msg, "--root would read"), "%s: refused (%s)",
			       cases[i].op, err.msg);
		else
			tap_ok(planned && rc == 0, "%s: accepted%s%s", cases[i].op,
			       err.msg[0] ? ": " : "", err.msg);
		if (planned)
			plan_free(&plan);
		free(text);
	}
	/* An account whose home is a system path (Debian's games: /usr/games). */
	free(who.home);
	who.home = xstrdup("/usr/games");
	struct plan plan;
	struct cc_error err = { "" };
	bool planned = resolve_as("[default]\nprofile = p\n[profile p]\nhome = tmpfs\n",
				  &who, "login", &plan, &err) == RESOLVE_PLAN;
	tap_ok(planned && plan_check_code_paths(&plan, "--root", &err) < 0 &&
	       strstr(err.msg, "home-tmpfs /usr/games: the home there"),
	       "a tmpfs home at /usr/games is refused (%s)", err.msg);
	if (planned)
		plan_free(&plan);
	identity_free(&who);
}

int main(void)
{
	if (!tap_make_home(home_root, "ann", 4242, home, sizeof(home)))
		return 1;
	test_precedence();
	test_merge();
	test_tokens();
	test_hash();
	test_share();
	test_guest();
	test_command();
	test_login_defs();
	test_user_writable();
	test_code_paths();
	tap_remove_home(home_root);
	return tap_done();
}
