// SPDX-License-Identifier: GPL-2.0-or-later
/* The words of the plan's values, both ways: op names and descriptions,
 * home and private-tmp modes, namespaces, Landlock scopes, resource
 * limits. The directives that read these words are in test_directives,
 * parsing an rlimit's numbers in test_rlimits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "plan.h"
#include "plan_values.h"
#include "tap.h"
#include "util.h"

static void test_op_names(void)
{
	static const struct { enum op_type type; bool optional; const char *name; } ops[] = {
		{ OP_BIND, false, "bind" }, { OP_BIND, true, "bind-try" },
		{ OP_RO_BIND, false, "ro-bind" }, { OP_RO_BIND, true, "ro-bind-try" },
		{ OP_DEV_BIND, false, "dev-bind" }, { OP_DEV_BIND, true, "dev-bind-try" },
		{ OP_REMOUNT_RO, false, "remount-ro" }, { OP_REMOUNT_RO, true, "remount-ro" },
		{ OP_TMPFS, false, "tmpfs" }, { OP_TMPFS, true, "tmpfs" },
		{ OP_DIR, false, "dir" }, { OP_DIR, true, "dir" },
		{ OP_SYMLINK, false, "symlink" }, { OP_SYMLINK, true, "symlink" },
		{ OP_FILE, false, "file" }, { OP_FILE, true, "file" },
		{ OP_CHMOD, false, "chmod" }, { OP_CHMOD, true, "chmod" },
		{ OP_PROC, false, "proc" }, { OP_PROC, true, "proc" },
		{ OP_DEV, false, "dev" }, { OP_DEV, true, "dev" },
		{ OP_MQUEUE, false, "mqueue" }, { OP_MQUEUE, true, "mqueue" },
		{ OP_TMP_OVERLAY, false, "tmp-overlay" }, { OP_TMP_OVERLAY, true, "tmp-overlay" },
		{ OP_HOME_TMPFS, false, "home-tmpfs" }, { OP_HOME_TMPFS, true, "home-tmpfs" },
		{ OP_PRIVATE_TMP, false, "private-tmp" }, { OP_PRIVATE_TMP, true, "private-tmp" },
		{ (enum op_type)99, false, "?" },
	};
	struct strbuf got = { 0 }, want = { 0 };
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		sb_addf(&got, "%s ", plan_op_type_name(ops[i].type, ops[i].optional));
		sb_addf(&want, "%s ", ops[i].name);
	}
	tap_is_str(got.data, want.data, "each op's directive name; -try only for binds");
	sb_free(&got);
	sb_free(&want);
}

/* plan_op_describe of an op of TYPE from SOURCE (may be NULL) to DEST. */
static void expect_describe(enum op_type type, bool optional, const char *source,
			    const char *dest, const char *want, const char *name)
{
	struct fs_op op = { .type = type, .optional = optional, .source = (char *)source,
			    .dest = (char *)dest };
	char buf[128];
	plan_op_describe(&op, buf, sizeof(buf));
	tap_is_str(buf, want, name);
}

static void test_describe(void)
{
	expect_describe(OP_RO_BIND, true, "/srv/a", "/a", "ro-bind-try /srv/a /a",
			"a source other than the destination is shown");
	expect_describe(OP_BIND, false, "/usr", "/usr", "bind /usr",
			"a source equal to the destination is not");
	expect_describe(OP_TMPFS, false, NULL, "/tmp", "tmpfs /tmp", "no source");
	expect_describe(OP_SYMLINK, false, "usr/bin", "/bin", "symlink usr/bin /bin",
			"a symlink's target is its source");
	struct fs_op op = { .type = OP_DIR, .dest = "/a/long/path" };
	char small[12];
	plan_op_describe(&op, small, sizeof(small));
	tap_is_str(small, "dir /a/long", "cut to the buffer, terminated");
}

static void test_modes(void)
{
	static const enum home_mode homes[] = { HOME_BIND, HOME_TMPFS, HOME_OVERLAY, HOME_NONE };
	static const enum private_tmp tmps[] = { PRIVATE_TMP_NO, PRIVATE_TMP_SESSION,
						 PRIVATE_TMP_PERSISTENT };
	struct strbuf names = { 0 };
	struct cc_error err;
	bool round = true;
	for (size_t i = 0; i < sizeof(homes) / sizeof(homes[0]); i++) {
		enum home_mode back = (enum home_mode)99;
		sb_addf(&names, "%s ", plan_home_mode_name(homes[i]));
		round &= plan_parse_home_mode(plan_home_mode_name(homes[i]), &back, &err) == 0 &&
			 back == homes[i];
	}
	sb_addf(&names, "%s|", plan_home_mode_name((enum home_mode)9));
	tap_ok(round, "each home mode parses back from its name");
	for (size_t i = 0; i < sizeof(tmps) / sizeof(tmps[0]); i++) {
		enum private_tmp back = (enum private_tmp)99;
		sb_addf(&names, "%s ", plan_private_tmp_name(tmps[i]));
		round &= plan_parse_private_tmp(plan_private_tmp_name(tmps[i]), &back, &err) == 0 &&
			 back == tmps[i];
	}
	sb_addf(&names, "%s", plan_private_tmp_name((enum private_tmp)9));
	tap_ok(round, "and each private-tmp mode");
	tap_is_str(names.data, "bind tmpfs overlay none ?|no session persistent ?",
		   "the names of the modes; '?' for any other value");
	sb_free(&names);

	enum home_mode home = HOME_OVERLAY;
	tap_ok(plan_parse_home_mode("Bind", &home, &err) < 0 && home == HOME_OVERLAY,
	       "names are lower-case; a refused word leaves the mode alone");
	tap_is_str(err.msg, "home takes bind, tmpfs, overlay or none, not 'Bind'",
		   "the home mode's message");
	enum private_tmp tmp = PRIVATE_TMP_SESSION;
	tap_ok(plan_parse_private_tmp("", &tmp, &err) < 0 && tmp == PRIVATE_TMP_SESSION,
	       "an empty private-tmp word is refused");
	tap_is_str(err.msg, "private-tmp takes no, session or persistent, not ''",
		   "the private-tmp message");
}

/* PARSE reads WORDS (COUNT of them) as WANT: "bits N", or "ERR message"
 * with the output left alone. */
static void expect_flags(int (*parse)(char *const *, size_t, unsigned *, struct cc_error *),
			 char *const *words, size_t count, const char *want, const char *name)
{
	unsigned out = 0x5a5a;
	struct cc_error err;
	char got[sizeof(err.msg) + 32];
	if (parse(words, count, &out, &err) < 0)
		snprintf(got, sizeof(got), "ERR %s%s", err.msg, out == 0x5a5a ? "" : " (out changed)");
	else
		snprintf(got, sizeof(got), "bits %#x", out);
	tap_is_str(got, want, name);
}

#define NS_CHOICES "(pid net ipc uts cgroup user all, or none alone)"

static void test_namespaces(void)
{
	char *all[] = { "all" }, *user[] = { "user", "pid" }, *none[] = { "none" },
	     *none_first[] = { "none", "pid" }, *twice[] = { "none", "none" },
	     *unknown[] = { "net", "mount" };
	char *want = xasprintf("bits %#x", NS_ALL);
	expect_flags(plan_parse_namespaces, all, 1, want, "all is every namespace but user");
	free(want);
	want = xasprintf("bits %#x", NS_USER | NS_PID);
	expect_flags(plan_parse_namespaces, user, 2, want, "user and pid");
	free(want);
	expect_flags(plan_parse_namespaces, none, 1, "bits 0", "none alone is no namespace");
	expect_flags(plan_parse_namespaces, none, 0, "bits 0", "and so are no words");
	expect_flags(plan_parse_namespaces, none_first, 2, "ERR unknown namespace 'none' "
		     NS_CHOICES, "none before another namespace is refused");
	expect_flags(plan_parse_namespaces, twice, 2, "ERR unknown namespace 'none' " NS_CHOICES,
		     "none twice too");
	expect_flags(plan_parse_namespaces, unknown, 2, "ERR unknown namespace 'mount' "
		     NS_CHOICES, "an unknown name after a known one");

	char buf[64];
	plan_ns_format(NS_ALL | NS_USER, buf, sizeof(buf));
	tap_is_str(buf, "pid net ipc uts cgroup user", "every namespace, in table order");
	plan_ns_format(NS_UTS | NS_PID, buf, sizeof(buf));
	tap_is_str(buf, "pid uts", "two namespaces");
	plan_ns_format(0, buf, sizeof(buf));
	tap_is_str(buf, "", "none is empty");
	memset(buf, 'x', sizeof(buf));
	plan_ns_format(NS_PID | NS_NET | NS_IPC | NS_UTS, buf, 8);
	tap_is_str(buf, "pid net", "a short buffer keeps whole names only");
	bool untouched = true;
	for (size_t i = 8; i < sizeof(buf); i++)
		untouched &= buf[i] == 'x';
	tap_ok(untouched, "and nothing is written past it");
}

static void test_landlock_scope(void)
{
	char *both[] = { "signal", "abstract-unix" }, *none[] = { "none" },
	     *with_none[] = { "signal", "none" }, *upper[] = { "Signal" };
	char *want = xasprintf("bits %#x", LL_SCOPE_ALL);
	expect_flags(plan_parse_landlock_scope, both, 2, want, "both scopes, in any order");
	free(want);
	expect_flags(plan_parse_landlock_scope, none, 1, "bits 0", "none is no scope");
	expect_flags(plan_parse_landlock_scope, with_none, 2, "ERR unknown landlock-scope 'none' "
		     "(abstract-unix signal, or none alone)", "none with a scope is refused");
	expect_flags(plan_parse_landlock_scope, upper, 1, "ERR unknown landlock-scope 'Signal' "
		     "(abstract-unix signal, or none alone)", "names are lower-case");

	static const struct { unsigned scope; const char *words; } scopes[] = {
		{ LL_SCOPE_ALL, "abstract-unix signal" }, { LL_SCOPE_SIGNAL, "signal" },
		{ LL_SCOPE_ABSTRACT_UNIX, "abstract-unix" }, { 0, "none" },
	};
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		char buf[64], *name = xasprintf("scope %#x as '%s'", scopes[i].scope,
						scopes[i].words);
		plan_landlock_scope_format(scopes[i].scope, buf, sizeof(buf));
		tap_is_str(buf, scopes[i].words, name);
		free(name);
	}
}

static void test_rlimit_names(void)
{
	static const struct { const char *name; int resource; enum plan_rlimit_unit unit; } limits[] = {
		{ "nproc", RLIMIT_NPROC, UNIT_COUNT }, { "nofile", RLIMIT_NOFILE, UNIT_COUNT },
		{ "as", RLIMIT_AS, UNIT_SIZE }, { "fsize", RLIMIT_FSIZE, UNIT_SIZE },
		{ "cpu", RLIMIT_CPU, UNIT_SECONDS }, { "core", RLIMIT_CORE, UNIT_SIZE },
		{ "memlock", RLIMIT_MEMLOCK, UNIT_SIZE },
	};
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		int resource = plan_rlimit_by_name(limits[i].name);
		tap_ok(resource == limits[i].resource &&
		       plan_rlimit_name(resource) && strcmp(plan_rlimit_name(resource), limits[i].name) == 0 &&
		       plan_rlimit_unit(resource) == limits[i].unit,
		       "rlimit-%s: its resource, its name back, its unit", limits[i].name);
	}
	tap_ok(plan_rlimit_by_name("stack") == -1 && plan_rlimit_by_name("") == -1 &&
	       plan_rlimit_by_name("rlimit-nproc") == -1 && plan_rlimit_by_name("NPROC") == -1,
	       "other names are -1");
	tap_ok(plan_rlimit_name(RLIMIT_STACK) == NULL &&
	       plan_rlimit_unit(RLIMIT_STACK) == RLIMIT_UNIT_NONE &&
	       plan_rlimit_name(-1) == NULL && plan_rlimit_unit(RLIM_NLIMITS) == RLIMIT_UNIT_NONE,
	       "a limit cocoon does not set has no name and no unit");
}

static void test_rlimit_format(void)
{
	char buf[24];
	plan_rlimit_format(RLIM_INFINITY, buf, sizeof(buf));
	tap_is_str(buf, "unlimited", "RLIM_INFINITY is unlimited");
	plan_rlimit_format(0, buf, sizeof(buf));
	tap_is_str(buf, "0", "zero");
	plan_rlimit_format(4096, buf, sizeof(buf));
	tap_is_str(buf, "4096", "a number in decimal");
	plan_rlimit_format(RLIM_INFINITY - 1, buf, sizeof(buf));
	tap_is_str(buf, "18446744073709551614", "the largest finite value");
}

int main(void)
{
	test_op_names();
	test_describe();
	test_modes();
	test_namespaces();
	test_landlock_scope();
	test_rlimit_names();
	test_rlimit_format();
	return tap_done();
}
