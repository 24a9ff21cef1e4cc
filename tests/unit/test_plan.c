// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan itself: defaults, the forced command, the hash, token
 * expansion with its home checks and errors at file:line, and whether a
 * path is the user's to write. Plans are built by hand here; test_resolve
 * makes them from policies. The names of its values are in
 * test_plan_values. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "forced_command.h"
#include "landlock.h"
#include "plan.h"
#include "plan_build.h"
#include "plan_check.h"
#include "resolve.h"
#include "tap.h"
#include "util.h"

static char root_dir[] = "/run/cocoon-plan-unit.XXXXXX";

/* A made-up user ann, uid 4242, whose home lies in root_dir. */
static struct identity ann(void)
{
	struct identity who = { 0 };
	who.user = xstrdup("ann");
	who.uid = 4242;
	who.gid = 4343;
	who.group = xstrdup("staff");
	who.home = xasprintf("%s/ann", root_dir);
	who.login_shell = xstrdup("/bin/sh");
	return who;
}

/* An op at t.conf, its line its position in the plan. */
static struct fs_op *add_op(struct plan *plan, enum op_type type, const char *source,
			    const char *dest)
{
	return plan_add_op(plan, type, source, dest, "t.conf", (int)plan->nops + 1);
}

/* Expand PLAN for WHO and judge its binds, as a login does. */
static int expand_and_check(struct plan *plan, const struct identity *who,
			    struct cc_error *err)
{
	if (plan_expand(plan, who, err) < 0)
		return -1;
	return plan_check_expanded(plan, err);
}

/* "ok" or the error of expanding PLAN for WHO; the plan is freed. */
static char *expand_for(struct plan *plan, const struct identity *who)
{
	struct cc_error err;
	char *out = expand_and_check(plan, who, &err) < 0 ? xstrdup(err.msg) : xstrdup("ok");
	plan_free(plan);
	return out;
}

static void expect_expand(struct plan *plan, const struct identity *who, const char *want,
			  const char *name)
{
	char *got = expand_for(plan, who);
	tap_is_str(got, want, name);
	free(got);
}

static void test_defaults(void)
{
	struct plan plan;
	plan_init(&plan);
	tap_ok(plan.sandboxed && plan.seccomp == SECCOMP_DEFAULT && plan.no_new_privs &&
	       !plan.landlock_required && plan.landlock_scope == LL_SCOPE_ALL,
	       "safe defaults: sandboxed, default seccomp, no-new-privs, both scopes");
	tap_ok(plan.home_size == 256ULL << 20 && plan.tmp_size == 256ULL << 20 &&
	       plan.root_size == 16ULL << 20 && plan.tmpfs_size == 256ULL << 20,
	       "the default sizes");
	tap_ok(plan.nops == 0 && plan.namespaces == 0 && !plan.command && !plan.chdir &&
	       plan.home == HOME_BIND && plan.private_tmp == PRIVATE_TMP_NO,
	       "nothing else");
	char name[] = "/etc/cocoon/a.conf";
	const char *a = plan_intern_file(&plan, name);
	name[12] = 'b';
	const char *b = plan_intern_file(&plan, "/etc/cocoon/a.conf");
	tap_ok(a == b && strcmp(a, "/etc/cocoon/a.conf") == 0 && plan.nfiles == 1,
	       "a file name is copied once and shared");
	tap_ok(plan_intern_file(&plan, name) != a && plan.nfiles == 2, "another is added");
	plan_free(&plan);
	tap_ok(plan.files == NULL && plan.nfiles == 0, "plan_free clears the plan");
}

static void test_command(void)
{
	struct plan plan;
	plan_init(&plan);
	tap_ok(plan_command_text(&plan) == NULL, "no command, no text");
	char *words[] = { "/opt/menu", "a b", "" };
	plan_set_command(&plan, words, 3);
	words[0] = "changed";
	char *text = plan_command_text(&plan);
	tap_is_str(text, "/opt/menu a b ", "the words joined by spaces, as written");
	free(text);
	tap_ok(plan.command[3] == NULL, "the copy ends in NULL");
	plan_set_command(&plan, words + 1, 1);
	text = plan_command_text(&plan);
	tap_is_str(text, "a b", "a new command replaces the old");
	free(text);
	plan_set_command(&plan, NULL, 0);
	tap_ok(plan.command == NULL, "count 0 removes it");
	plan_free(&plan);

	struct session_limits l = { 0 };
	tap_ok(!plan_limits_need_cgroup(&l), "no limits, no cgroup");
	l.max_session_time = 60;
	l.rlimit[RLIMIT_NOFILE].set = true;
	tap_ok(!plan_limits_need_cgroup(&l), "nor for rlimits and the session time");
	l.pids_max = 1;
	tap_ok(plan_limits_need_cgroup(&l), "pids-max needs one");
	l.pids_max = 0;
	l.cpu_max_percent = 50;
	tap_ok(plan_limits_need_cgroup(&l), "cpu-max needs one");
	l.cpu_max_percent = 0;
	l.memory_max = 64ULL << 20;
	tap_ok(plan_limits_need_cgroup(&l), "memory-max needs one");
}

/* The hash of a default plan changed by CHANGE. */
static void hash_of(void (*change)(struct plan *), char out[17])
{
	struct plan plan;
	plan_init(&plan);
	if (change)
		change(&plan);
	plan_hash(&plan);
	memcpy(out, plan.hash, 17);
	plan_free(&plan);
}

static void one_op(struct plan *p) { add_op(p, OP_TMPFS, NULL, "/t"); }
static void op_mode_0(struct plan *p) { add_op(p, OP_TMPFS, NULL, "/t")->has_mode = true; }
static void op_line(struct plan *p) { add_op(p, OP_TMPFS, NULL, "/t")->line = 99; }
static void empty_host(struct plan *p) { p->hostname = xstrdup(""); }
static void rlimit(struct plan *p) { p->limits.rlimit[RLIMIT_CORE].set = true; }
static void no_scope(struct plan *p) { p->landlock_scope = 0; }
static void empty_command(struct plan *p) { p->command = xcalloc(1, sizeof(char *)); }
static void user(struct plan *p) { p->who.uid = 1; p->service = xstrdup("sshd"); }
static void share(struct plan *p) { p->share = true; }
static void share_linger(struct plan *p) { p->share = true; p->linger = LINGER_YES; }
static void share_30m(struct plan *p)
{
	p->share = true;
	p->linger = LINGER_FOR;
	p->linger_time = 1800;
}
static void share_1h(struct plan *p) { share_30m(p); p->linger_time = 3600; }

static void test_hash(void)
{
	char base[17], again[17], other[17];
	hash_of(NULL, base);
	tap_is_str(base, "8c00a0db256e685b", "a default plan's hash (records keep it)");
	hash_of(NULL, again);
	tap_is_str(again, base, "the same plan, the same hash");
	static const struct { void (*change)(struct plan *); const char *name; } changes[] = {
		{ one_op, "an op" }, { op_mode_0, "a mode of 0000 against none" },
		{ empty_host, "an empty hostname against none" },
		{ rlimit, "an rlimit set to 0 against none" }, { no_scope, "the landlock scope" },
		{ empty_command, "an empty command against none" },
	};
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		hash_of(changes[i].change, other);
		tap_ok(strcmp(other, base) != 0, "the hash covers %s", changes[i].name);
	}
	/* A shared sandbox is joined by the hash: each must tell apart. */
	static void (*const shares[])(struct plan *) = {
		NULL, share, share_linger, share_30m, share_1h,
	};
	char hashes[5][17];
	for (size_t i = 0; i < 5; i++)
		hash_of(shares[i], hashes[i]);
	bool distinct = true;
	for (size_t i = 0; i < 5; i++)
		for (size_t k = i + 1; k < 5; k++)
			distinct = distinct && strcmp(hashes[i], hashes[k]) != 0;
	tap_ok(distinct, "share-sandbox, linger yes, 30m and 1h: five plans, five hashes");
	tap_is_str(hashes[0], "8c00a0db256e685b", "share-sandbox off: the default hash unchanged");
	hash_of(one_op, base);
	hash_of(op_line, other);
	tap_is_str(other, base, "where the policy said it is not content");
	hash_of(NULL, base);
	hash_of(user, other);
	tap_is_str(other, base, "nor who and which service");
}

static void test_expand(void)
{
	struct identity who = ann();
	struct plan plan;
	struct cc_error err;
	plan_init(&plan);
	add_op(&plan, OP_RO_BIND, "//srv//%u/%U/", "/srv/%g/%G/%%");
	add_op(&plan, OP_SYMLINK, "../%u", "/l/%u");
	add_op(&plan, OP_FILE, NULL, "/f")->content = xstrdup("%u %U %g %G %h %%");
	add_op(&plan, OP_TMPFS, NULL, "/");
	plan.chdir = xstrdup("%h/");
	plan.shell = xstrdup("/bin//%u");
	plan.hostname = xstrdup("box-%u");
	plan_add_env(&plan, "H", "%h/x");
	plan_add_env(&plan, "GONE", NULL);
	char *cmd[] = { "//opt/menu/", "%u", "--home=%h" };
	plan_set_command(&plan, cmd, 3);
	int rc = expand_and_check(&plan, &who, &err);
	tap_ok(rc == 0, "a plan using every token expands%s%s", rc ? ": " : "", rc ? err.msg : "");
	struct strbuf got = { 0 }, want = { 0 };
	sb_addf(&got, "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s", plan.ops[0].source,
		plan.ops[0].dest, plan.ops[1].source, plan.ops[1].dest, plan.ops[2].content,
		plan.ops[3].dest, plan.chdir, plan.shell, plan.hostname, plan.env[0].value,
		plan.command[0], plan.command[1], plan.command[2]);
	sb_addf(&want, "/srv/ann/4242|/srv/staff/4343/%%|../ann|/l/ann|ann 4242 staff 4343 "
		"%s %%|/|%s|/bin/ann|box-ann|%s/x|/opt/menu|ann|--home=%s", who.home, who.home,
		who.home, who.home);
	tap_is_str(got.data, want.data, "tokens expand; paths are normalised, symlink "
		   "targets and values are not");
	tap_ok(plan.env[1].value == NULL, "an unsetenv stays unset");
	tap_ok(!plan.ops[0].source_user_writable, "a bind of a root-owned source is root's");
	sb_free(&got);
	sb_free(&want);
	plan_free(&plan);

	plan_init(&plan);
	add_op(&plan, OP_BIND, "%h", "%h");
	add_op(&plan, OP_TMPFS, NULL, "%h");
	tap_ok(expand_and_check(&plan, &who, &err) == 0 && plan.ops[0].source_user_writable,
	       "the user's home is marked user-writable; a mount on the bind itself is fine");
	plan_free(&plan);

	plan_init(&plan);
	add_op(&plan, OP_BIND, "%h", "/h");
	add_op(&plan, OP_TMPFS, NULL, "/usr");
	add_op(&plan, OP_DIR, NULL, "/h/x");
	char *want_msg = xasprintf("t.conf:3: 'dir /h/x' would create inside '/h', whose "
				   "source %s a non-root user can write (t.conf:1); bind a "
				   "root-owned source or put it before that bind", who.home);
	expect_expand(&plan, &who, want_msg, "creating inside a user-writable bind, at file:line");
	free(want_msg);

	plan_init(&plan);
	add_op(&plan, OP_TMPFS, NULL, "/a");
	add_op(&plan, OP_RO_BIND, "%u/x", "/b");
	expect_expand(&plan, &who, "t.conf:2: ro-bind: source 'ann/x' is not an absolute path",
		      "a source that expands to a relative path, at file:line");
	plan_init(&plan);
	add_op(&plan, OP_DEV_BIND, "/dev", "/dev")->optional = true;
	add_op(&plan, OP_DIR, NULL, "/home/%u");
	struct identity dots = ann();
	free(dots.user);
	dots.user = xstrdup("..");
	expect_expand(&plan, &dots, "t.conf:2: dir: destination '/home/..' has a '.' or '..' "
		      "component", "a user named '..' cannot climb out");
	identity_free(&dots);

	plan_init(&plan);
	plan.chdir = xstrdup("%u");
	expect_expand(&plan, &who, "chdir 'ann' is not an absolute path", "chdir");
	plan_init(&plan);
	plan.shell = xstrdup("/bin/../sh");
	expect_expand(&plan, &who, "shell '/bin/../sh' has a '.' or '..' component", "shell");
	plan_init(&plan);
	plan.hostname = xstrdup("box@%u");
	expect_expand(&plan, &who, "hostname 'box@ann' is not a valid host name",
		      "a hostname with a character outside the set");
	plan_init(&plan);
	plan.hostname = xstrdup("");
	expect_expand(&plan, &who, "hostname '' is not a valid host name", "an empty hostname");
	plan_init(&plan);
	char *nl[] = { "/opt/m", "a\nb" };
	plan_set_command(&plan, nl, 2);
	expect_expand(&plan, &who, "command: a newline in 'a\nb'", "a newline in the command");
	plan_init(&plan);
	char *rel[] = { "opt/m" };
	plan_set_command(&plan, rel, 1);
	expect_expand(&plan, &who, "command 'opt/m' is not an absolute path",
		      "a relative command");

	/* Each word costs its length and "command=\n" in the launcher's file. */
	char *fits = xcalloc(4096, 1);
	memset(fits, 'a', 4096 - 2 * FORCED_COMMAND_LINE - 2);
	char *big[] = { "/m", fits };
	plan_init(&plan);
	plan_set_command(&plan, big, 2);
	expect_expand(&plan, &who, "ok", "a command of 4096 bytes in the launcher's file");
	fits[strlen(fits) - 1] = '%';
	fits[strlen(fits) - 2] = '%';
	plan_init(&plan);
	plan_set_command(&plan, big, 2);
	expect_expand(&plan, &who, "ok", "measured after expansion (%% is one byte)");
	strcpy(fits + strlen(fits) - 2, "aaa");
	plan_init(&plan);
	plan_set_command(&plan, big, 2);
	expect_expand(&plan, &who, "command: longer than 4096 bytes", "one byte more");
	free(fits);
	identity_free(&who);
}

static void expect_home(const char *home, const char *source, const char *want,
			const char *name)
{
	struct identity who = ann();
	free(who.home);
	who.home = xstrdup(home);
	struct plan plan;
	plan_init(&plan);
	if (source)
		add_op(&plan, OP_BIND, source, "/h");
	else
		plan_add_env(&plan, "HOME", "%h");
	char *w = strstr(want, "HOME") ? xasprintf("%.*s%s%s", (int)(strstr(want, "HOME") - want),
						   want, home, strstr(want, "HOME") + 4)
		: xstrdup(want);
	expect_expand(&plan, &who, w, name);
	free(w);
	identity_free(&who);
}

static void test_home(void)
{
	char *file = xasprintf("%s/file", root_dir), *link = xasprintf("%s/link", root_dir),
	     *mine = xasprintf("%s/ann", root_dir), *slash = xasprintf("%s/ann/", root_dir),
	     *doubled = xasprintf("%s//ann", root_dir), *missing = xasprintf("%s/gone", root_dir);
	FILE *f = fopen(file, "w");
	if (f)
		fclose(f);
	if (symlink(mine, link) < 0)
		perror("symlink");
	expect_home(mine, "%h", "ok", "the user's own directory");
	expect_home(slash, "%h", "ok", "with a trailing slash");
	expect_home("home/ann", NULL, "home directory 'home/ann' of ann is not absolute",
		    "a relative home, even for a value");
	expect_home("/", NULL, "home directory of ann is '/'", "a home of /");
	expect_home(doubled, NULL, "home directory 'HOME' of ann is not in normal form",
		    "a home with //");
	expect_home("/home/../root", NULL, "home directory '/home/../root' has a '.' or '..' "
		    "component", "a home with ..");
	expect_home(missing, NULL, "ok", "a missing home is fine when no op reads it");
	expect_home(missing, "%h/x", "home directory HOME of ann: No such file or directory",
		    "but not for a bind of it");
	expect_home(link, "%h", "home directory HOME of ann is a symlink", "a symlinked home");
	expect_home(file, "%h", "home directory HOME of ann is not a directory", "a file");
	expect_home(root_dir, "%h", "home directory HOME is owned by uid 0, not by ann",
		    "a home ann does not own");
	expect_home("/", "/x/%%h", "ok", "%%h is no use of the home");
	unlink(link);
	unlink(file);
	free(file);
	free(link);
	free(mine);
	free(slash);
	free(doubled);
	free(missing);
}

/* Cases test_resolve's test_user_writable leaves out. */
static void test_user_writable(void)
{
	char *group = xasprintf("%s/group", root_dir), *in_group = xasprintf("%s/x", group);
	char *owned = xasprintf("%s/ann/f", root_dir);
	mkdir(group, 0775);
	chmod(group, 0775);
	tap_ok(!plan_path_user_writable("/"), "/ is root's");
	tap_ok(!plan_path_user_writable(root_dir), "a root-owned 0700 directory is root's");
	tap_ok(plan_path_user_writable(group), "a group-writable directory is not");
	tap_ok(plan_path_user_writable(in_group), "nor is what lies in one, even when missing");
	tap_ok(plan_path_user_writable("/tmp/cocoon-plan-unit-missing"),
	       "a missing name in the sticky /tmp is the user's");
	FILE *f = fopen(owned, "w");
	if (f)
		fclose(f);
	tap_ok(plan_path_user_writable(owned), "a file in the user's directory");
	char *deep = xcalloc(PATH_MAX + 2, 1);
	memset(deep, '/', PATH_MAX);
	tap_ok(plan_path_user_writable(deep), "a path longer than PATH_MAX cannot be judged");
	free(deep);
	unlink(owned);
	rmdir(group);
	free(group);
	free(in_group);
	free(owned);
}

int main(void)
{
	if (!mkdtemp(root_dir))
		return 1;
	char *home = xasprintf("%s/ann", root_dir);
	if (mkdir(home, 0755) < 0 || chown(home, 4242, 4343) < 0)
		return 1;
	test_defaults();
	test_command();
	test_hash();
	test_expand();
	test_home();
	test_user_writable();
	rmdir(home);
	rmdir(root_dir);
	free(home);
	return tap_done();
}
