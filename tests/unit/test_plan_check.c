// SPDX-License-Identifier: GPL-2.0-or-later
/* Whether a plan is safe to build: its shape, what a root service would
 * read, what root would read below the code paths, the mode of a tmpfs,
 * the list of system paths, and creations inside a bind the user can
 * write, each refusal with its exact message. Plans are built by hand;
 * test_resolve judges code paths over plans made from policies, and
 * test_plan and test_resolve how plan_path_user_writable walks a path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "plan_build.h"
#include "plan_check.h"
#include "tap.h"
#include "util.h"

#define CODE_PATHS "/etc, /usr, /lib*, /bin, /sbin, the nscd, nslcd, samba/winbindd, " \
	"systemd and dbus directories of /run and /var/run, and /var/lib/sss"
#define SERVICE_READER "root (the service, its PAM modules, cocoonctl enter --root)"

/* An op at t.conf, its line its position in the plan. */
static struct fs_op *add_op(struct plan *plan, enum op_type type, const char *source,
			    const char *dest)
{
	return plan_add_op(plan, type, source, dest, "t.conf", (int)plan->nops + 1);
}

/* CHECK on PLAN says WANT, "ok" or its error; the plan is then freed. */
static void expect(struct plan *plan, int (*check)(const struct plan *, struct cc_error *),
		   const char *want, const char *name)
{
	struct cc_error err;
	tap_is_str(check(plan, &err) < 0 ? err.msg : "ok", want, name);
	plan_free(plan);
}

/* PLAN made anew with one op, TYPE from SOURCE to DEST, at t.conf:1. */
static struct fs_op *only_op(struct plan *plan, enum op_type type, const char *source,
			     const char *dest)
{
	plan_init(plan);
	return add_op(plan, type, source, dest);
}

/* The same, for judging it as it is. */
static struct plan *one_op(struct plan *plan, enum op_type type, const char *source,
			   const char *dest)
{
	only_op(plan, type, source, dest);
	return plan;
}

#define NOT_NORMAL "is not an absolute, normalised path"

static void test_shape(void)
{
	struct plan p;
	expect(one_op(&p, OP_TMPFS, NULL, "tmp"), plan_check_shape,
	       "t.conf:1: tmpfs tmp: the destination " NOT_NORMAL, "a relative destination");
	expect(one_op(&p, OP_DIR, NULL, "/a//b"), plan_check_shape,
	       "t.conf:1: dir /a//b: the destination " NOT_NORMAL, "a destination with //");
	expect(one_op(&p, OP_REMOUNT_RO, NULL, "/usr/"), plan_check_shape,
	       "t.conf:1: remount-ro /usr/: the destination " NOT_NORMAL,
	       "a destination with a trailing slash");
	expect(one_op(&p, OP_RO_BIND, "/usr/../etc", "/usr"), plan_check_shape,
	       "t.conf:1: ro-bind /usr/../etc /usr: the source " NOT_NORMAL,
	       "a bind source with '..'");
	only_op(&p, OP_BIND, "/srv", "/srv")->optional = true;
	add_op(&p, OP_DEV_BIND, NULL, "/dev");
	expect(&p, plan_check_shape, "t.conf:2: dev-bind /dev: the source " NOT_NORMAL,
	       "a bind without a source, at its own line");
	expect(one_op(&p, OP_HOME_TMPFS, "etc/skel", "/home/ann"), plan_check_shape,
	       "t.conf:1: home-tmpfs etc/skel /home/ann: the source " NOT_NORMAL,
	       "a home's relative skeleton");
	expect(one_op(&p, OP_PRIVATE_TMP, "var/tmp", "/tmp"), plan_check_shape,
	       "t.conf:1: private-tmp var/tmp /tmp: the source " NOT_NORMAL,
	       "a persistent private /tmp's relative instance");
	expect(one_op(&p, OP_PRIVATE_TMP, NULL, "/tmp"), plan_check_shape, "ok",
	       "a fresh private /tmp needs no source");
	expect(one_op(&p, OP_SYMLINK, NULL, "/l"), plan_check_shape,
	       "t.conf:1: symlink /l: the symlink has no target", "a symlink without a target");
	expect(one_op(&p, OP_SYMLINK, "", "/l"), plan_check_shape,
	       "t.conf:1: symlink  /l: the symlink has no target", "an empty target");
	expect(one_op(&p, OP_SYMLINK, "/x", "/"), plan_check_shape,
	       "t.conf:1: symlink /x /: cannot replace the root", "a symlink at /");
	only_op(&p, OP_FILE, NULL, "/")->content = xstrdup("x");
	expect(&p, plan_check_shape, "t.conf:1: file /: cannot replace the root", "a file at /");
	expect(one_op(&p, OP_FILE, NULL, "/f"), plan_check_shape,
	       "t.conf:1: file /f: no content given", "a file without content");
	expect(one_op(&p, OP_CHMOD, NULL, "/f"), plan_check_shape,
	       "t.conf:1: chmod /f: no mode given", "a chmod without a mode");
	one_op(&p, OP_PROC, NULL, "/proc");
	p.namespaces = NS_ALL & ~NS_PID;
	expect(&p, plan_check_shape, "t.conf:1: proc /proc: needs a pid namespace",
	       "proc without a pid namespace");
	one_op(&p, OP_MQUEUE, NULL, "/dev/mqueue");
	p.namespaces = NS_ALL & ~NS_IPC;
	expect(&p, plan_check_shape, "t.conf:1: mqueue /dev/mqueue: needs an ipc namespace",
	       "mqueue without an ipc namespace");
	only_op(&p, OP_CHMOD, NULL, "/f")->file = NULL;
	expect(&p, plan_check_shape, "chmod /f: no mode given",
	       "an op from no file is named without file:line");

	plan_init(&p);
	p.namespaces = NS_PID | NS_IPC;
	add_op(&p, OP_RO_BIND, "/usr", "/usr")->optional = true;
	add_op(&p, OP_TMPFS, NULL, "/");
	add_op(&p, OP_SYMLINK, "usr/bin", "/bin");
	add_op(&p, OP_FILE, NULL, "/etc/motd")->content = xstrdup("");
	struct fs_op *chmod_op = add_op(&p, OP_CHMOD, NULL, "/etc/motd");
	chmod_op->has_mode = true;
	chmod_op->mode = 0644;
	add_op(&p, OP_PROC, NULL, "/proc");
	add_op(&p, OP_MQUEUE, NULL, "/dev/mqueue");
	add_op(&p, OP_HOME_TMPFS, "/etc/skel", "/home/ann");
	expect(&p, plan_check_shape, "ok", "a plan of every shape rule's ops, each well formed");
}

/* "DEST: SP comes from WHY, and ..." as plan_check_service words it. */
#define SERVICE_REFUSAL(op, sp, why) "t.conf:1: " op ": " sp " comes from " why \
	", and the root service process would read it"

/* only_op and one_op for a plan service mode can run (its namespaces). */
static struct fs_op *service_only_op(struct plan *plan, enum op_type type,
				     const char *source, const char *dest)
{
	struct fs_op *op = only_op(plan, type, source, dest);
	plan->namespaces = NS_ALL;
	return op;
}

static struct plan *service_op(struct plan *plan, enum op_type type, const char *source,
			       const char *dest)
{
	service_only_op(plan, type, source, dest);
	return plan;
}

static void test_service_mode(void)
{
	struct plan p;
	plan_init(&p);
	p.sandboxed = false;
	expect(&p, plan_check_service_mode, "the plan has no sandbox (sandbox = none)",
	       "sandbox = none");
	plan_init(&p);
	p.namespaces = NS_ALL | NS_USER;
	expect(&p, plan_check_service, "a user namespace cannot hold a root service: "
	       "'unshare = user' is refused for PAM sessions", "a user namespace");
	plan_init(&p);
	p.namespaces = NS_ALL & ~NS_PID;
	expect(&p, plan_check_service, "a PAM session needs a pid namespace "
	       "('unshare = pid'): it is what ends the session", "no pid namespace");
	plan_init(&p);
	p.namespaces = NS_ALL;
	p.no_new_privs = false;
	expect(&p, plan_check_service, "a PAM session with a seccomp filter needs "
	       "'no-new-privs = yes': the user's launcher cannot load the filter otherwise",
	       "a filter without no_new_privs");
	plan_init(&p);
	p.namespaces = NS_ALL;
	p.no_new_privs = false;
	p.seccomp = SECCOMP_NONE;
	expect(&p, plan_check_service_mode, "ok", "no filter: no_new_privs may be off");
	plan_init(&p);
	p.namespaces = NS_ALL & ~NS_UTS;
	p.hostname = xstrdup("box");
	expect(&p, plan_check_service, "'hostname' needs a uts namespace: it would rename "
	       "the host", "a hostname without a uts namespace");
}

/* The one judgement every mode and the merge take their answer from. */
static void test_hostname(void)
{
	struct plan p;
	plan_init(&p);
	p.namespaces = NS_ALL & ~NS_UTS;
	p.hostname = xstrdup("box");
	tap_ok(plan_hostname_renames_host(&p), "a hostname without uts renames the host");
	expect(&p, plan_check_hostname, "'hostname' needs a uts namespace: it would rename "
	       "the host", "and is refused");
	plan_init(&p);
	p.namespaces = NS_ALL;
	p.hostname = xstrdup("box");
	tap_ok(!plan_hostname_renames_host(&p), "with a uts namespace it does not");
	expect(&p, plan_check_hostname, "ok", "and is allowed");
	plan_init(&p);
	p.namespaces = NS_ALL & ~NS_UTS;
	tap_ok(!plan_hostname_renames_host(&p), "no hostname, no uts namespace: nothing renamed");
	expect(&p, plan_check_hostname, "ok", "and allowed");
}

static void test_service(void)
{
	struct plan p;
	service_only_op(&p, OP_BIND, "/home/ann/usr", "/usr")->source_user_writable = true;
	expect(&p, plan_check_service, SERVICE_REFUSAL("bind /usr", "/usr",
	       "a source a non-root user can write"), "a bind over /usr from the user's source");
	service_only_op(&p, OP_RO_BIND, "/home/ann", "/")->source_user_writable = true;
	expect(&p, plan_check_service, SERVICE_REFUSAL("ro-bind /", "/",
	       "a source a non-root user can write"), "a bind over / itself");
	service_only_op(&p, OP_RO_BIND, "/home/ann/x", "/var/lib/x")->source_user_writable = true;
	expect(&p, plan_check_service, SERVICE_REFUSAL("ro-bind /var/lib/x", "/var",
	       "a source a non-root user can write"), "or below a system path");
	expect(service_op(&p, OP_DIR, NULL, "/var"), plan_check_service,
	       SERVICE_REFUSAL("dir /var", "/var", "a `dir`, which belongs to the user"),
	       "a `dir` at a system path");
	expect(service_op(&p, OP_SYMLINK, "/home/ann/bin", "/sbin"), plan_check_service,
	       SERVICE_REFUSAL("symlink /sbin", "/sbin",
			       "a symlink that leads out of the system paths"),
	       "a symlink at a system path leading out");
	expect(service_op(&p, OP_SYMLINK, "/usr/../home", "/bin"), plan_check_service,
	       SERVICE_REFUSAL("symlink /bin", "/bin",
			       "a symlink that leads out of the system paths"),
	       "a target that climbs with '..' counts as leading out");
	expect(service_op(&p, OP_SYMLINK, "usr/lib64", "/lib64"), plan_check_service, "ok",
	       "a symlink at a system path staying among them");
	expect(service_op(&p, OP_DIR, NULL, "/etc/pam.d"), plan_check_service,
	       "t.conf:1: dir /etc/pam.d: a `dir` there belongs to the session's user, and "
	       SERVICE_READER " would read what the user puts there",
	       "then the code paths, for the service as reader");

	plan_init(&p);
	p.namespaces = NS_ALL;
	add_op(&p, OP_RO_BIND, "/usr", "/usr");
	add_op(&p, OP_BIND, "/home/ann", "/home/ann")->source_user_writable = true;
	add_op(&p, OP_TMPFS, NULL, "/var");
	add_op(&p, OP_DIR, NULL, "/var/tmp");
	add_op(&p, OP_SYMLINK, "usr/bin", "/bin");
	expect(&p, plan_check_service, "ok", "a plan root's service may read");
}

/* The message of plan_check_code_paths for the op at t.conf:1. */
#define CODE_REFUSAL(op, why) "t.conf:1: " op ": " why \
	", and READER would read what the user puts there"

static int check_code_paths(const struct plan *plan, struct cc_error *err)
{
	return plan_check_code_paths(plan, "READER", err);
}

static void test_code_paths(void)
{
	struct plan p;
	expect(one_op(&p, OP_DIR, NULL, "/etc/profile.d"), check_code_paths,
	       CODE_REFUSAL("dir /etc/profile.d", "a `dir` there belongs to the session's user"),
	       "a `dir` under /etc");
	expect(one_op(&p, OP_TMPFS, NULL, "/usr/share/doc"), check_code_paths,
	       CODE_REFUSAL("tmpfs /usr/share/doc",
			    "a tmpfs there is writable by others (give it mode=0755)"),
	       "a tmpfs under /usr without mode=");
	/* Where the service's NSS modules read answers: sssd's memory
	 * caches are parsed by libnss_sss without asking sssd. */
	expect(one_op(&p, OP_DIR, NULL, "/var/lib/sss/mc"), check_code_paths,
	       CODE_REFUSAL("dir /var/lib/sss/mc", "a `dir` there belongs to the session's user"),
	       "a `dir` at sssd's memory caches");
	expect(one_op(&p, OP_DIR, NULL, "/run/nslcd"), check_code_paths,
	       CODE_REFUSAL("dir /run/nslcd", "a `dir` there belongs to the session's user"),
	       "a `dir` at nslcd's socket directory");
	struct fs_op *op = only_op(&p, OP_FILE, NULL, "/etc/pam.d/other");
	op->content = xstrdup("auth sufficient pam_permit.so\n");
	op->has_mode = true;
	op->mode = 0666;
	expect(&p, check_code_paths, CODE_REFUSAL("file /etc/pam.d/other",
	       "its mode lets group or others write it"), "a file of mode 0666 under /etc");
	op = only_op(&p, OP_CHMOD, NULL, "/usr/lib/x");
	op->has_mode = true;
	op->mode = 0460;
	expect(&p, check_code_paths, CODE_REFUSAL("chmod /usr/lib/x",
	       "its mode lets group or others write it"), "a chmod letting the group write");
	expect(one_op(&p, OP_SYMLINK, "/home/ann/security", "/lib/security"), check_code_paths,
	       CODE_REFUSAL("symlink /lib/security", "a symlink there leads out of the paths "
			    "root reads (" CODE_PATHS ")"), "a symlink under /lib leading out");
	expect(one_op(&p, OP_SYMLINK, "/srv/run", "/run"), check_code_paths,
	       CODE_REFUSAL("symlink /run", "a symlink there takes paths root reads ("
			    CODE_PATHS ") elsewhere"), "a symlink above them taking them away");

	plan_init(&p);
	add_op(&p, OP_DIR, NULL, "/home/ann");
	add_op(&p, OP_TMPFS, NULL, "/tmp");
	op = add_op(&p, OP_TMPFS, NULL, "/usr/share/doc");
	op->has_mode = true;
	op->mode = 0755;
	add_op(&p, OP_SYMLINK, "/usr/lib/security", "/lib/security");
	add_op(&p, OP_BIND, "/home/ann", "/etc/x")->source_user_writable = true;
	expect(&p, check_code_paths, "ok",
	       "a plan leaving the code paths root's (binds are plan_check_service's)");
}

static void test_tmpfs_mode(void)
{
	struct fs_op op = { .type = OP_TMPFS, .dest = "/tmp", .has_mode = true, .mode = 0700 };
	tap_ok(plan_tmpfs_mode(&op, false) == 0700 && plan_tmpfs_mode(&op, true) == 0700,
	       "mode= wins in both modes");
	op.has_mode = false;
	tap_ok(plan_tmpfs_mode(&op, false) == 0755, "run mode: 0755");
	tap_ok(plan_tmpfs_mode(&op, true) == 01777, "service mode: 01777, a usable /tmp");
	static const char *const system[] = { "/", "/var", "/opt", "/run", "/proc" };
	for (size_t i = 0; i < sizeof(system) / sizeof(system[0]); i++) {
		op.dest = (char *)system[i];
		tap_ok(plan_tmpfs_mode(&op, true) == 0755,
		       "service mode at the system path %s: 0755", system[i]);
	}
	op.dest = "/var/tmp";
	tap_ok(plan_tmpfs_mode(&op, true) == 01777, "but below one, 01777");
}

static void test_system_paths(void)
{
	struct strbuf got = { 0 };
	size_t n = 0;
	for (const char *p; (p = plan_service_system_path(n)); n++)
		sb_addf(&got, "%s ", p);
	tap_is_str(got.data, "/ /etc /usr /lib /lib64 /lib32 /libx32 /bin /sbin /dev /run /var ",
		   "the service's system paths, in order");
	tap_ok(n == 12 && plan_service_system_path(13) == NULL && plan_service_system_path(1000) == NULL,
	       "NULL after the last");
	sb_free(&got);
}

/* The first unsafe creation in PLAN is WANT, "LATER_LINE<BIND_LINE:
 * message", or "none"; the plan is then freed. */
static void expect_unsafe(struct plan *plan, bool symbolic, const char *want, const char *name)
{
	const struct fs_op *bind = NULL, *later = plan_find_unsafe_creation(plan, symbolic, &bind);
	char msg[1024], got[1100] = "none";
	if (later) {
		plan_describe_unsafe_creation(later, bind, msg, sizeof(msg));
		snprintf(got, sizeof(got), "%d<%d: %s", later->line, bind->line, msg);
	}
	tap_is_str(got, want, name);
	plan_free(plan);
}

#define CREATES(later, bind, source, line) "'" later "' would create inside '" bind \
	"', whose source " source " a non-root user can write (t.conf:" line "); bind a " \
	"root-owned source or put it before that bind"

static void test_unsafe_creation(void)
{
	struct plan p;
	plan_init(&p);
	add_op(&p, OP_BIND, "%h", "/h");
	add_op(&p, OP_TMPFS, NULL, "/h");
	add_op(&p, OP_REMOUNT_RO, NULL, "/h/x");
	add_op(&p, OP_TMPFS, NULL, "/hx");
	expect_unsafe(&p, true, "none", "a mount on the bind itself, a remount, a sibling: "
		      "none creates inside");

	plan_init(&p);
	add_op(&p, OP_DIR, NULL, "/h/early");
	add_op(&p, OP_BIND, "%h", "/h");
	add_op(&p, OP_DIR, NULL, "/h");
	expect_unsafe(&p, true, "3<2: " CREATES("dir /h", "/h", "%h", "2"),
		      "a `dir` at the bind's own root, after it (one before is fine)");

	plan_init(&p);
	add_op(&p, OP_RO_BIND, "/usr", "/usr");
	add_op(&p, OP_BIND, "%h/src", "/h");
	add_op(&p, OP_RO_BIND, "/srv", "/h/srv")->optional = true;
	expect_unsafe(&p, true, "3<2: " CREATES("ro-bind-try /h/srv", "/h", "%h/src", "2"),
		      "a mount below a bind of the home; a root-owned bind before it is fine");

	plan_init(&p);
	add_op(&p, OP_BIND, "%h", "/h");
	add_op(&p, OP_DIR, NULL, "/h/x");
	expect_unsafe(&p, false, "none",
		      "not symbolic: only a bind marked user-writable counts");
	plan_init(&p);
	add_op(&p, OP_BIND, "/srv/ann", "/h")->source_user_writable = true;
	add_op(&p, OP_SYMLINK, "x", "/h/l");
	expect_unsafe(&p, false, "2<1: " CREATES("symlink /h/l", "/h", "/srv/ann", "1"),
		      "and one that is");
}

/* The plan "bind SOURCE /data; dir /data/sub", judged after expansion;
 * "ok" or the error, with whether the bind was marked. */
static char *expanded(const char *source)
{
	struct plan p;
	struct cc_error err;
	plan_init(&p);
	add_op(&p, OP_BIND, source, "/data");
	add_op(&p, OP_DIR, NULL, "/data/sub");
	char *out = plan_check_expanded(&p, &err) < 0 ? xstrdup(err.msg) : xstrdup("ok");
	char *marked = xasprintf("%s%s", p.ops[0].source_user_writable ? "marked: " : "", out);
	free(out);
	plan_free(&p);
	return marked;
}

static void test_expanded(void)
{
	char tmp[] = "/tmp/cocoon-plan-check.XXXXXX", run[] = "/run/cocoon-plan-check.XXXXXX";
	if (!mkdtemp(tmp) || !mkdtemp(run)) {
		tap_ok(false, "mkdtemp");
		return;
	}
	char *in_tmp = xasprintf("%s/src", tmp), *in_run = xasprintf("%s/src", run);
	bool made = mkdir(in_tmp, 0755) == 0 && chmod(run, 0755) == 0 && mkdir(in_run, 0755) == 0;
	tap_ok(made, "the sources are made");

	char *got = expanded(in_tmp);
	char *want = xasprintf("marked: t.conf:2: " CREATES("dir /data/sub", "/data", "%s", "1"),
			       in_tmp);
	tap_is_str(got, want, "a source below /tmp (1777) is the user's; creating in it is "
		   "refused");
	free(got);
	free(want);
	got = expanded(in_run);
	tap_is_str(got, "ok", "a source below root's 0755 directory in /run is root's");
	free(got);

	rmdir(in_tmp);
	rmdir(in_run);
	rmdir(tmp);
	rmdir(run);
	free(in_tmp);
	free(in_run);
}

int main(void)
{
	test_shape();
	test_service_mode();
	test_hostname();
	test_service();
	test_code_paths();
	test_tmpfs_mode();
	test_system_paths();
	test_unsafe_creation();
	test_expanded();
	return tap_done();
}
