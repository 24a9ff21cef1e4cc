// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan as text, as JSON and as a bubblewrap command line: the whole
 * output of a plan with every kind of op, the short forms of plans that
 * build no sandbox, and what bubblewrap cannot express. */
#include <stdlib.h>
#include <string.h>

#include "landlock.h"
#include "plan_build.h"
#include "plan_print.h"
#include "tap.h"
#include "util.h"

/* The outputs, kept whole: a change to any of them is a change of
 * what cocoonctl explain prints. */
static const char full_text[] =
	"user:        ann (uid 4242, gid 4242 ann)\n"
	"groups:      ann dev\n"
	"service:     sshd\n"
	"rule:        [group dev] at /etc/cocoon/cocoon.conf:7\n"
	"profile:     dev\n"
	"lost:        [default] at /etc/cocoon/cocoon.conf:1: [default] comes last\n"
	"sandbox:     yes\n"
	"plan hash:   f34cbbf4cdf7b1a9\n"
	"namespaces:  mount pid ipc user\n"
	"filesystem:\n"
	"  ro-bind /usr                                               # /etc/cocoon/cocoon.conf:10\n"
	"  bind /home/ann                                             # /etc/cocoon/cocoon.conf:11\n"
	"  dev-bind-try /dev/dri '/gpu dri'                           # /etc/cocoon/cocoon.conf:12\n"
	"  remount-ro /usr                                            # /etc/cocoon/cocoon.conf:13\n"
	"  tmpfs /tmp size=1048576 mode=1777                          # /etc/cocoon/cocoon.conf:14\n"
	"  dir /run/user mode=0700                                    # /etc/cocoon/cocoon.conf:15\n"
	"  symlink usr/bin /bin                                       # /etc/cocoon/cocoon.conf:16\n"
	"  file /etc/motd (10 bytes) mode=0644                        # /etc/cocoon/cocoon.conf:17\n"
	"  chmod 0755 /run/user                                       # /etc/cocoon/cocoon.conf:18\n"
	"  proc /proc                                                 # /etc/cocoon/cocoon.conf:19\n"
	"  dev /dev                                                   # /etc/cocoon/cocoon.conf:20\n"
	"  mqueue /dev/mqueue                                         # /etc/cocoon/cocoon.conf:21\n"
	"  private-tmp /var/tmp size=2048                             # /etc/cocoon/cocoon.conf:22\n"
	"process:\n"
	"  chdir        /srv\n"
	"  hostname     box\n"
	"  shell        /bin/zsh\n"
	"  new-session  yes\n"
	"  clearenv     yes\n"
	"  setenv       EDITOR=vi -x\n"
	"  unsetenv     LD_PRELOAD\n"
	"  seccomp      /etc/cocoon/f.bpf (refusals logged)\n"
	"  no-new-privs yes\n"
	"  landlock     required, scope signal\n"
	"  home         tmpfs (size 4096, skeleton /etc/skel)\n"
	"  private-tmp  session (size 2048)\n"
	"  root-size    16777216\n"
	"  tmpfs-size   268435456\n"
	"  name-services auto\n"
	"  ptys         128 per session, 1024 per user\n"
	"  command      /opt/menu 'a b' (instead of anything asked)\n"
	"through pam_cocoon: seccomp, no-new-privs and Landlock reach what sshd starts through the login shell\n"
	"  or /bin/sh; what it does itself (internal-sftp, port forwarding) gets the namespaces only\n"
	"  and never the command: close them with the sshd Match block of pam_cocoon(8) (KIOSK ACCOUNTS)\n";

static const char full_json[] =
	"{\"user\":\"ann\",\"uid\":4242,\"gid\":4242,\"groups\":[\"ann\",\"dev\"],"
	"\"service\":\"sshd\","
	"\"rule\":\"[group dev] at /etc/cocoon/cocoon.conf:7\","
	"\"profile\":\"dev\","
	"\"lost\":[\"[default] at /etc/cocoon/cocoon.conf:1: [default] comes last\"],"
	"\"covered\":true,\"sandbox\":true,\"hash\":\"f34cbbf4cdf7b1a9\","
	"\"namespaces\":\"pid ipc user\",\"operations\":[{\"op\":\"ro-bind\","
	"\"source\":\"/usr\",\"dest\":\"/usr\",\"file\":\"/etc/cocoon/cocoon.conf\","
	"\"line\":10},{\"op\":\"bind\",\"source\":\"/home/ann\",\"dest\":\"/home/ann\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":11},"
	"{\"op\":\"dev-bind-try\",\"source\":\"/dev/dri\",\"dest\":\"/gpu dri\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":12},{\"op\":\"remount-ro\","
	"\"dest\":\"/usr\",\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":13},"
	"{\"op\":\"tmpfs\",\"mode\":\"1777\",\"size\":1048576,\"dest\":\"/tmp\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":14},{\"op\":\"dir\","
	"\"mode\":\"0700\",\"dest\":\"/run/user\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":15},{\"op\":\"symlink\","
	"\"target\":\"usr/bin\",\"dest\":\"/bin\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":16},{\"op\":\"file\","
	"\"content\":\"it's \\\"hi\\\"\\u000a\",\"mode\":\"0644\",\"dest\":\"/etc/motd\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":17},{\"op\":\"chmod\","
	"\"mode\":\"0755\",\"dest\":\"/run/user\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":18},{\"op\":\"proc\","
	"\"dest\":\"/proc\",\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":19},"
	"{\"op\":\"dev\",\"dest\":\"/dev\",\"file\":\"/etc/cocoon/cocoon.conf\","
	"\"line\":20},{\"op\":\"mqueue\",\"dest\":\"/dev/mqueue\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":21},{\"op\":\"private-tmp\","
	"\"size\":2048,\"dest\":\"/var/tmp\",\"file\":\"/etc/cocoon/cocoon.conf\","
	"\"line\":22}],\"chdir\":\"/srv\",\"hostname\":\"box\",\"shell\":\"/bin/zsh\","
	"\"new_session\":true,\"clearenv\":true,\"env\":[{\"name\":\"EDITOR\","
	"\"value\":\"vi -x\"},{\"name\":\"LD_PRELOAD\",\"value\":null}],"
	"\"seccomp\":\"/etc/cocoon/f.bpf\",\"seccomp_log\":true,"
	"\"no_new_privs\":true,\"landlock\":\"required\","
	"\"landlock_scope\":[\"signal\"],\"home\":\"tmpfs\",\"home_size\":4096,"
	"\"home_skel\":\"/etc/skel\",\"private_tmp\":\"session\",\"name_services\":\"auto\",\"name_services_left_out\":[],\"tmp_size\":2048,"
	"\"root_size\":16777216,\"tmpfs_size\":268435456,\"pty_max\":128,"
	"\"pty_max_user\":1024,\"limits\":{},"
	"\"command\":[\"/opt/menu\",\"a b\"]}\n";

static const char full_bwrap[] =
	"bwrap --ro-bind /usr /usr --bind /home/ann /home/ann"
	" --dev-bind-try /dev/dri '/gpu dri' --remount-ro /usr --perms 1777"
	" --size 1048576 --tmpfs /tmp --perms 0700 --dir /run/user"
	" --symlink usr/bin /bin --perms 0644"
	" --file 10 /etc/motd 10< <(printf %s 'it'\\''s \"hi\"\n')"
	" --chmod 0755 /run/user --proc /proc --dev /dev"
	" --mqueue /dev/mqueue --perms 1777 --size 2048 --tmpfs /var/tmp"
	" --unshare-pid --unshare-ipc --unshare-user --hostname box"
	" --new-session --clearenv --setenv EDITOR 'vi -x'"
	" --unsetenv LD_PRELOAD --chdir /srv --die-with-parent"
	" -- /opt/menu 'a b'";

static const char limits_text[] =
	"user:        ann (uid 4242, gid 4242 ann)\n"
	"groups:      ann dev\n"
	"service:     shell\n"
	"rule:        [user ann] at t.conf:3\n"
	"sandbox:     yes\n"
	"plan hash:   f68bc65a274f5d59\n"
	"namespaces:  mount\n"
	"filesystem:\n"
	"  tmpfs /                                                    # /etc/cocoon/cocoon.conf:4\n"
	"process:\n"
	"  chdir        (home, else /)\n"
	"  hostname     (unchanged)\n"
	"  shell        (the entry point's)\n"
	"  new-session  no\n"
	"  clearenv     no\n"
	"  seccomp      none\n"
	"  no-new-privs no\n"
	"  landlock     best-effort, scope none\n"
	"  home         overlay (size 268435456)\n"
	"  private-tmp  persistent\n"
	"  root-size    16777216\n"
	"  tmpfs-size   268435456\n"
	"  name-services auto\n"
	"  ptys         32 per session, no total per user\n"
	"limits:\n"
	"  rlimit-core           0 0\n"
	"  rlimit-nofile         1024 unlimited\n"
	"  max-session-time      3600s\n"
	"  session-time-warnings 300s 60s\n"
	"  memory-max            1073741824\n"
	"  pids-max              100\n"
	"  cpu-max               150%\n";

static const char limits_json[] =
	"{\"user\":\"ann\",\"uid\":4242,\"gid\":4242,\"groups\":[\"ann\",\"dev\"],"
	"\"service\":\"shell\",\"rule\":\"[user ann] at t.conf:3\","
	"\"profile\":null,\"lost\":[],\"covered\":true,\"sandbox\":true,"
	"\"hash\":\"f68bc65a274f5d59\",\"namespaces\":\"\","
	"\"operations\":[{\"op\":\"tmpfs\",\"dest\":\"/\","
	"\"file\":\"/etc/cocoon/cocoon.conf\",\"line\":4}],\"chdir\":null,"
	"\"hostname\":null,\"shell\":null,\"new_session\":false,"
	"\"clearenv\":false,\"env\":[],\"seccomp\":\"none\",\"seccomp_log\":false,"
	"\"no_new_privs\":false,\"landlock\":\"best-effort\","
	"\"landlock_scope\":[],\"home\":\"overlay\",\"home_size\":268435456,"
	"\"home_skel\":\"/srv/skel\",\"private_tmp\":\"persistent\",\"name_services\":\"auto\",\"name_services_left_out\":[],"
	"\"tmp_size\":268435456,\"root_size\":16777216,"
	"\"tmpfs_size\":268435456,\"pty_max\":32,\"pty_max_user\":null,"
	"\"limits\":{\"rlimit-core\":\"0 0\","
	"\"rlimit-nofile\":\"1024 unlimited\",\"max-session-time\":\"3600s\",\"session-time-warnings\":\"300s 60s\","
	"\"memory-max\":\"1073741824\",\"pids-max\":\"100\",\"cpu-max\":\"150%\"},"
	"\"command\":null}\n";

/* ann (uid 4242) in groups ann and dev, on SERVICE, under RULE. */
#define POLICY_FILE "/etc/cocoon/cocoon.conf"

static void base_plan(struct plan *plan, const char *service, const char *rule)
{
	plan_init(plan);
	plan->who.user = xstrdup("ann");
	plan->who.uid = 4242;
	plan->who.gid = 4242;
	plan->who.group = xstrdup("ann");
	plan->who.home = xstrdup("/home/ann");
	plan->who.login_shell = xstrdup("/bin/bash");
	plan->who.ngroups = 2;
	plan->who.groups = xcalloc(2, sizeof(gid_t));
	plan->who.group_names = xcalloc(2, sizeof(char *));
	plan->who.groups[0] = 4242;
	plan->who.groups[1] = 50;
	plan->who.group_names[0] = xstrdup("ann");
	plan->who.group_names[1] = xstrdup("dev");
	plan->service = xstrdup(service);
	plan->rule = rule ? xstrdup(rule) : NULL;
}

/* A plan with every op bubblewrap can express, and every setting. */
static void full_plan(struct plan *plan)
{
	base_plan(plan, "sshd", "[group dev] at /etc/cocoon/cocoon.conf:7");
	plan->profile = xstrdup("dev");
	char **lost = ARRAY_PUSH(plan->lost, plan->nlost, plan->lost_cap);
	*lost = xstrdup("[default] at /etc/cocoon/cocoon.conf:1: [default] comes last");
	plan_add_op(plan, OP_RO_BIND, "/usr", "/usr", POLICY_FILE, 10);
	plan_add_op(plan, OP_BIND, "/home/ann", "/home/ann", POLICY_FILE, 11)->source_user_writable = true;
	plan_add_op(plan, OP_DEV_BIND, "/dev/dri", "/gpu dri", POLICY_FILE, 12)->optional = true;
	plan_add_op(plan, OP_REMOUNT_RO, NULL, "/usr", POLICY_FILE, 13);
	struct fs_op *op = plan_add_op(plan, OP_TMPFS, NULL, "/tmp", POLICY_FILE, 14);
	op->size = 1048576;
	op->has_mode = true;
	op->mode = 01777;
	op = plan_add_op(plan, OP_DIR, NULL, "/run/user", POLICY_FILE, 15);
	op->has_mode = true;
	op->mode = 0700;
	plan_add_op(plan, OP_SYMLINK, "usr/bin", "/bin", POLICY_FILE, 16);
	op = plan_add_op(plan, OP_FILE, NULL, "/etc/motd", POLICY_FILE, 17);
	op->content = xstrdup("it's \"hi\"\n");
	op->has_mode = true;
	op->mode = 0644;
	op = plan_add_op(plan, OP_CHMOD, NULL, "/run/user", POLICY_FILE, 18);
	op->has_mode = true;
	op->mode = 0755;
	plan_add_op(plan, OP_PROC, NULL, "/proc", POLICY_FILE, 19);
	plan_add_op(plan, OP_DEV, NULL, "/dev", POLICY_FILE, 20);
	plan_add_op(plan, OP_MQUEUE, NULL, "/dev/mqueue", POLICY_FILE, 21);
	op = plan_add_op(plan, OP_PRIVATE_TMP, NULL, "/var/tmp", POLICY_FILE, 22);
	op->mode = 01777;
	op->size = 2048;
	plan->namespaces = NS_PID | NS_IPC | NS_USER;
	plan->hostname = xstrdup("box");
	plan->chdir = xstrdup("/srv");
	plan->shell = xstrdup("/bin/zsh");
	plan->clearenv = true;
	plan->new_session = true;
	plan_add_env(plan, "EDITOR", "vi -x");
	plan_add_env(plan, "LD_PRELOAD", NULL);
	plan->seccomp = SECCOMP_FILE;
	plan->seccomp_file = xstrdup("/etc/cocoon/f.bpf");
	plan->seccomp_log = true;
	plan->landlock_required = true;
	plan->landlock_scope = LL_SCOPE_SIGNAL;
	plan->home = HOME_TMPFS;
	plan->home_size = 4096;
	plan->private_tmp = PRIVATE_TMP_SESSION;
	plan->tmp_size = 2048;
	char *cmd[] = { "/opt/menu", "a b" };
	plan_set_command(plan, cmd, 2);
	plan_hash(plan);
}

static char *text_of(const struct plan *plan)
{
	struct strbuf out = { 0 };
	plan_print_text(plan, &out);
	return sb_steal(&out);
}

static char *json_of(const struct plan *plan)
{
	struct strbuf out = { 0 };
	plan_print_json(plan, &out);
	return sb_steal(&out);
}

static char *bwrap_of(const struct plan *plan)
{
	struct strbuf out = { 0 };
	struct cc_error err;
	sb_addn(&out, "", 0);
	if (plan_print_bwrap(plan, &out, &err) < 0) {
		sb_free(&out);
		return xasprintf("ERR %s", err.msg);
	}
	return sb_steal(&out);
}

/* Limits instead of a command; a shell session; an overlay home. */
static void limits_plan(struct plan *plan)
{
	base_plan(plan, "shell", "[user ann] at t.conf:3");
	plan_add_op(plan, OP_TMPFS, NULL, "/", POLICY_FILE, 4);
	plan->seccomp = SECCOMP_NONE;
	plan->no_new_privs = false;
	plan->landlock_scope = 0;
	plan->home = HOME_OVERLAY;
	plan->home_skel = xstrdup("/srv/skel");
	plan->private_tmp = PRIVATE_TMP_PERSISTENT;
	plan->limits.rlimit[RLIMIT_NOFILE] = (struct plan_rlimit){ true, 1024, RLIM_INFINITY };
	plan->limits.rlimit[RLIMIT_CORE] = (struct plan_rlimit){ true, 0, 0 };
	plan->limits.max_session_time = 3600;
	plan->limits.memory_max = 1ULL << 30;
	plan->limits.pids_max = 100;
	plan->limits.cpu_max_percent = 150;
	plan->pty_max = 32;
	plan->pty_max_user = 0;
	plan_hash(plan);
}

/* bwrap has no option for a session limit: each is a comment line. */
static const char limits_bwrap[] =
	"# rlimit-core 0 0: no bwrap equivalent; use prlimit(1) or the shell's ulimit\n"
	"# rlimit-nofile 1024 unlimited: no bwrap equivalent; use prlimit(1) or the "
	"shell's ulimit\n"
	"# max-session-time 3600s: no bwrap equivalent; use timeout(1) or systemd-run\n"
	"# session-time-warnings 300s 60s: no bwrap equivalent; a timer running wall(1) can "
	"stand in\n"
	"# memory-max 1073741824: no bwrap equivalent; use systemd-run --scope with "
	"the cgroup limit\n"
	"# pids-max 100: no bwrap equivalent; use systemd-run --scope with the cgroup "
	"limit\n"
	"# cpu-max 150%: no bwrap equivalent; use systemd-run --scope with the cgroup "
	"limit\n"
	"bwrap --tmpfs / --chdir /home/ann --die-with-parent --";

static void expect_outputs(void (*build)(struct plan *), const char *text,
			   const char *json, const char *bwrap, const char *name)
{
	struct plan plan;
	build(&plan);
	char *t = text_of(&plan), *j = json_of(&plan), *b = bwrap_of(&plan);
	char *what = xasprintf("%s: text", name);
	tap_is_str(t, text, what);
	free(what);
	what = xasprintf("%s: JSON", name);
	tap_is_str(j, json, what);
	free(what);
	what = xasprintf("%s: bwrap", name);
	tap_is_str(b, bwrap, what);
	free(what);
	free(t);
	free(j);
	free(b);
	plan_free(&plan);
}

#define HEAD_TEXT \
	"user:        ann (uid 4242, gid 4242 ann)\n" \
	"groups:      ann dev\n" \
	"service:     sshd\n"
#define HEAD_JSON \
	"{\"user\":\"ann\",\"uid\":4242,\"gid\":4242,\"groups\":[\"ann\",\"dev\"]," \
	"\"service\":\"sshd\","

static void test_no_sandbox(void)
{
	struct plan plan;
	base_plan(&plan, "sshd", NULL);
	char *t = text_of(&plan), *j = json_of(&plan), *b = bwrap_of(&plan);
	tap_is_str(t, HEAD_TEXT "rule:        (none matches)\n"
		   "sandbox:     no (not covered by the policy)\n", "not covered: text");
	tap_is_str(j, HEAD_JSON "\"rule\":null,\"profile\":null,\"lost\":[],"
		   "\"covered\":false,\"sandbox\":false}\n", "not covered: JSON");
	tap_is_str(b, "ERR ann is not sandboxed on service sshd", "not covered: no bwrap line");
	free(t);
	free(j);
	free(b);
	plan_free(&plan);

	base_plan(&plan, "sshd", "[user ann] at t.conf:1");
	plan.sandboxed = false;
	t = text_of(&plan);
	j = json_of(&plan);
	b = bwrap_of(&plan);
	tap_is_str(t, HEAD_TEXT "rule:        [user ann] at t.conf:1\n"
		   "sandbox:     no (sandbox = none)\n", "sandbox = none: text");
	tap_is_str(j, HEAD_JSON "\"rule\":\"[user ann] at t.conf:1\",\"profile\":null,"
		   "\"lost\":[],\"covered\":true,\"sandbox\":false}\n", "sandbox = none: JSON");
	tap_is_str(b, "ERR ann is not sandboxed on service sshd", "sandbox = none: no bwrap line");
	free(t);
	free(j);
	free(b);
	plan_free(&plan);
}

/* The bwrap line of a plan whose last op is TYPE (SOURCE). */
static void expect_bwrap_op(enum op_type type, const char *source, const char *want,
			    const char *name)
{
	struct plan plan;
	base_plan(&plan, "shell", "[user ann] at t.conf:1");
	plan_add_op(&plan, OP_DIR, NULL, "/d", POLICY_FILE, 2);
	struct fs_op *op = plan_add_op(&plan, type, source, "/x", POLICY_FILE, 3);
	op->mode = 01777;
	op->size = 4096;
	char *b = bwrap_of(&plan);
	tap_is_str(b, want, name);
	free(b);
	plan_free(&plan);
}

static void test_bwrap_limits(void)
{
	expect_bwrap_op(OP_TMP_OVERLAY, NULL, "ERR tmp-overlay /x: bubblewrap 0.8 has no "
			"equivalent", "tmp-overlay has no bwrap option");
	expect_bwrap_op(OP_HOME_TMPFS, "/etc/skel", "ERR home-tmpfs /x: bubblewrap 0.8 has "
			"no equivalent (a tmpfs seeded from a skeleton)", "nor a seeded home");
	expect_bwrap_op(OP_PRIVATE_TMP, "/var/lib/cocoon/private-tmp/ann", "ERR private-tmp "
			"/x: bubblewrap 0.8 has no equivalent (a persistent instance made "
			"safely at login)", "nor a persistent /tmp");
	expect_bwrap_op(OP_PRIVATE_TMP, NULL, "bwrap --dir /d --perms 1777 --size 4096 "
			"--tmpfs /x --chdir /home/ann --die-with-parent --",
			"a session /tmp is a tmpfs; chdir defaults to the home");
}

/* An endpoint says which daemon it serves and that the host gave it. */
static void test_name_service(void)
{
	struct plan plan;
	base_plan(&plan, "shell", "[user ann] at t.conf:1");
	plan_add_op(&plan, OP_NAME_SERVICE, "/run/nscd", "/run/nscd", POLICY_FILE,
		    2)->content = xstrdup("nscd");
	char *t = text_of(&plan), *j = json_of(&plan), *b = bwrap_of(&plan);
	tap_like(t, "  name-service /run/nscd                                     "
		 "# nscd on this host; /etc/cocoon/cocoon.conf:2\n", "name-service: text");
	tap_like(t, "  name-services auto\n", "name-services: text");
	tap_like(j, "{\"op\":\"name-service\",\"source\":\"/run/nscd\",\"daemon\":"
		 "\"nscd\",\"dest\":\"/run/nscd\"", "name-service: JSON, with its daemon");
	tap_like(b, " --ro-bind-try /run/nscd /run/nscd ", "name-service: bwrap");
	free(t);
	free(j);
	free(b);
	plan.name_services = false;
	t = text_of(&plan);
	j = json_of(&plan);
	tap_like(t, "  name-services none\n", "name-services none: text");
	tap_like(j, "\"name_services\":\"none\"", "name-services none: JSON");
	free(t);
	free(j);
	char **note = ARRAY_PUSH(plan.endpoints_left_out, plan.nendpoints_left_out,
				 plan.endpoints_left_out_cap);
	*note = xstrdup("/run/nslcd (nslcd): /run/nslcd is a symlink");
	t = text_of(&plan);
	j = json_of(&plan);
	tap_like(t, "  (name-service left out: /run/nslcd (nslcd): /run/nslcd is a symlink)\n",
		 "an endpoint left out: text, with why");
	tap_like(j, "\"name_services_left_out\":[\"/run/nslcd (nslcd): /run/nslcd is a "
		 "symlink\"]", "and JSON");
	free(t);
	free(j);
	plan_free(&plan);
}

/* A program made unavailable: bwrap binds the stub over it only where
 * this host has it (bubblewrap would make a missing one). */
static void test_unavailable(void)
{
	struct plan plan;
	base_plan(&plan, "shell", "[user ann] at t.conf:1");
	plan_add_op(&plan, OP_UNAVAILABLE, COCOON_UNAVAILABLE_STUB, "/usr/bin/env", POLICY_FILE,
		    3);
	plan_add_op(&plan, OP_UNAVAILABLE, COCOON_UNAVAILABLE_STUB, "/nonexistent/su",
		    POLICY_FILE, 3);
	char *t = text_of(&plan), *j = json_of(&plan), *b = bwrap_of(&plan);
	tap_like(t, "  unavailable /usr/bin/env                                   "
		 "# /etc/cocoon/cocoon.conf:3\n", "unavailable: text");
	tap_like(j, "{\"op\":\"unavailable\",\"source\":\"" COCOON_UNAVAILABLE_STUB
		 "\",\"dest\":\"/usr/bin/env\"", "unavailable: JSON, with the stub");
	tap_like(b, " --ro-bind " COCOON_UNAVAILABLE_STUB " /usr/bin/env ",
		 "unavailable: bwrap binds the stub over a program the host has");
	tap_ok(!strstr(b, "/nonexistent/su"), "and leaves out one it lacks");
	free(t);
	free(j);
	free(b);
	char before[sizeof(plan.hash)];
	plan_hash(&plan);
	memcpy(before, plan.hash, sizeof(before));
	free(plan.ops[1].dest);
	plan.ops[1].dest = xstrdup("/nonexistent/sudo");
	plan_hash(&plan);
	tap_ok(strcmp(before, plan.hash) != 0, "unavailable: its path is in the hash");
	plan_free(&plan);
}

/* The limits' label column is as wide as the widest label printed:
 * every value starts in the same column, with or without the long
 * session-time-warnings. */
static void test_limit_column(void)
{
	struct plan plan;
	base_plan(&plan, "shell", "[user ann] at t.conf:1");
	plan_add_op(&plan, OP_TMPFS, NULL, "/", POLICY_FILE, 2);
	plan.limits.rlimit[RLIMIT_NOFILE] = (struct plan_rlimit){ true, 64, 64 };
	plan.limits.pids_max = 10;
	char *t = text_of(&plan);
	tap_like(t, "limits:\n  rlimit-nofile 64 64\n  pids-max      10\n",
		 "limits without a deadline: the column fits rlimit-nofile");
	free(t);
	plan.limits.max_session_time = 60;
	plan.limits.ntime_warnings = 0;
	t = text_of(&plan);
	tap_like(t, "limits:\n  rlimit-nofile         64 64\n  max-session-time      60s\n"
		 "  session-time-warnings none\n  pids-max              10\n",
		 "with a deadline: the column fits session-time-warnings");
	free(t);
	plan_free(&plan);
}

/* tap_like, then free all three. */
static void like_freed(char *got, char *want, char *name)
{
	tap_like(got, want, name);
	free(got);
	free(want);
	free(name);
}

/* share-sandbox and linger: printed only when share-sandbox is on,
 * linger as the policy says it (a duration in seconds). */
static void test_share(void)
{
	struct plan plan;
	base_plan(&plan, "sshd", "[user ann] at t.conf:1");
	plan_add_op(&plan, OP_TMPFS, NULL, "/", POLICY_FILE, 2);
	plan.namespaces = NS_PID;
	char *t = text_of(&plan), *j = json_of(&plan), *b = bwrap_of(&plan);
	tap_ok(!strstr(t, "share-sandbox") && !strstr(t, "linger") &&
	       !strstr(j, "share_sandbox") && !strstr(j, "linger") &&
	       !strstr(b, "share-sandbox"),
	       "share-sandbox off: text, JSON and bwrap say nothing of it");
	free(t);
	free(j);
	free(b);
	static const struct { enum linger_mode mode; unsigned long long time; const char *word; }
	lingers[] = { { LINGER_NO, 0, "no" }, { LINGER_YES, 0, "yes" },
		      { LINGER_FOR, 1800, "1800s" } };
	plan.share = true;
	for (size_t i = 0; i < ARRAY_SIZE(lingers); i++) {
		const char *w = lingers[i].word;
		plan.linger = lingers[i].mode;
		plan.linger_time = lingers[i].time;
		like_freed(text_of(&plan), xasprintf("namespaces:  mount pid\nshare-sandbox: "
			   "yes\nlinger:      %s\nfilesystem:\n", w),
			   xasprintf("text: share-sandbox yes, linger %s", w));
		like_freed(json_of(&plan), xasprintf("\"namespaces\":\"pid\",\"share_sandbox"
			   "\":true,\"linger\":\"%s\",\"operations\":", w),
			   xasprintf("JSON: share_sandbox true, linger %s", w));
		like_freed(bwrap_of(&plan), xasprintf("# share-sandbox yes, linger %s: no bwrap "
			   "equivalent; every bwrap is a sandbox of its own\nbwrap ", w),
			   xasprintf("bwrap: a comment says it has none, linger %s", w));
	}
	plan_free(&plan);
}

int main(void)
{
	expect_outputs(full_plan, full_text, full_json, full_bwrap, "every op and setting");
	expect_outputs(limits_plan, limits_text, limits_json, limits_bwrap,
		       "limits, a shell session, an overlay home");
	test_no_sandbox();
	test_bwrap_limits();
	test_name_service();
	test_unavailable();
	test_limit_column();
	test_share();
	return tap_done();
}
