// SPDX-License-Identifier: GPL-2.0-or-later
/* Who a session is for: lookups of root and nobody by name and uid, the
 * groups now or later, copies, which login shells are cocoon-shell, and
 * "no such account" apart from "the account database could not be
 * asked". Through a private nsswitch.conf (name_service_configure): the
 * host's may list a source that is down (sss with sssd stopped). */
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "identity.h"
#include "name_service.h"
#include "tap.h"
#include "util.h"

static char dir_path[] = "/tmp/cocoon-identity-unit.XXXXXX";
static char conf[] = "/tmp/cocoon-identity-nsswitch.XXXXXX";


/* "user uid gid group home shell [groups]" or "ERR message". */
static char *describe(int rc, const struct identity *who, const struct cc_error *err)
{
	if (rc < 0)
		return xasprintf("ERR %s", err->msg);
	struct strbuf out = { 0 };
	sb_addf(&out, "%s %u %u %s %s %s %s[", who->user, (unsigned)who->uid,
		(unsigned)who->gid, who->group, who->home, who->login_shell,
		who->groups_later ? "later " : "");
	for (size_t i = 0; i < who->ngroups; i++)
		sb_addf(&out, "%s%s=%u", i ? " " : "", who->group_names[i],
			(unsigned)who->groups[i]);
	sb_addf(&out, "]");
	return sb_steal(&out);
}

static void expect_lookup(int rc, struct identity *who, const struct cc_error *err,
			  const char *want, const char *name)
{
	char *got = describe(rc, who, err);
	tap_is_str(got, want, name);
	free(got);
	if (rc == 0)
		identity_free(who);
}

/* nobody as this system's passwd has it, for the lookups by number. */
static char *nobody_line(void)
{
	struct passwd *pw = getpwnam("nobody");
	if (!pw)
		return xstrdup("(no nobody here)");
	struct identity who;
	struct cc_error err;
	char *out = describe(identity_lookup_uid(pw->pw_uid, GROUPS_LATER, &who, &err),
			     &who, &err);
	identity_free(&who);
	return out;
}

/* "root 0 0 root HOME SHELL" with GROUPS: home and shell are the
 * system's, the rest is fixed. */
static char *root_line(const char *groups)
{
	struct passwd *pw = getpwnam("root");
	return xasprintf("root 0 0 root %s %s %s", pw ? pw->pw_dir : "?",
			 pw ? pw->pw_shell : "?", groups);
}

static void test_root(void)
{
	struct identity who;
	struct cc_error err;
	char *now = root_line("[root=0]"), *later = root_line("later []");
	expect_lookup(identity_lookup("root", GROUPS_NOW, &who, &err), &who, &err, now,
		      "root, groups now");
	expect_lookup(identity_lookup("root", GROUPS_LATER, &who, &err), &who, &err, later,
		      "root, groups later");
	expect_lookup(identity_lookup_uid(0, GROUPS_NOW, &who, &err), &who, &err, now,
		      "root by uid");
	expect_lookup(identity_lookup_name_or_uid("0", GROUPS_NOW, &who, &err), &who, &err,
		      now, "a uid on an admin's command line");

	identity_lookup("root", GROUPS_LATER, &who, &err);
	tap_ok(!identity_in_group(&who, "root"), "groups left for later are not known");
	tap_ok(identity_complete(&who, &err) == 0 && !who.groups_later && who.ngroups == 1 &&
	       identity_in_group(&who, "root"), "identity_complete looks them up");
	tap_ok(identity_complete(&who, &err) == 0 && who.ngroups == 1,
	       "and does nothing the second time");
	tap_ok(!identity_in_group(&who, "roo") && !identity_in_group(&who, "nogroup"),
	       "a group must match by its whole name");

	struct identity copy;
	identity_copy(&copy, &who);
	identity_free(&who);
	char *got = describe(0, &copy, &err);
	tap_is_str(got, now, "a copy outlives its original");
	free(got);
	free(now);
	free(later);
	identity_free(&copy);
	tap_ok(copy.user == NULL && copy.ngroups == 0 && copy.groups == NULL,
	       "identity_free clears the fields");
}

static void test_nobody(void)
{
	struct identity who;
	struct cc_error err;
	struct passwd *pw = getpwnam("nobody");
	if (!tap_ok(pw != NULL, "this system has nobody"))
		return;
	char *want = nobody_line(), *uid = xasprintf("%u", (unsigned)pw->pw_uid);
	expect_lookup(identity_lookup("nobody", GROUPS_LATER, &who, &err), &who, &err, want,
		      "nobody by name is nobody by uid");
	expect_lookup(identity_lookup_name_or_uid(uid, GROUPS_LATER, &who, &err), &who, &err,
		      want, "and by its uid as text");
	tap_ok(strncmp(want, "nobody ", 7) == 0, "nobody's entry: %s", want);
	free(uid);
	free(want);
}

static void test_unknown(void)
{
	struct identity who;
	struct cc_error err;
	expect_lookup(identity_lookup("cocoon-no-such-user", GROUPS_NOW, &who, &err), &who,
		      &err, "ERR unknown user 'cocoon-no-such-user'", "an unknown name");
	expect_lookup(identity_lookup("0", GROUPS_NOW, &who, &err), &who, &err,
		      "ERR unknown user '0'", "a number is a name only to identity_lookup");
	expect_lookup(identity_lookup_uid(4000000000u, GROUPS_NOW, &who, &err), &who, &err,
		      "ERR uid 4000000000 has no passwd entry", "an unknown uid");
	expect_lookup(identity_lookup_name_or_uid("4000000000", GROUPS_NOW, &who, &err), &who,
		      &err, "ERR uid 4000000000 has no passwd entry", "an unknown uid as text");
	expect_lookup(identity_lookup_name_or_uid("4294967295", GROUPS_NOW, &who, &err), &who,
		      &err, "ERR unknown user '4294967295'", "(uid_t)-1 is no uid");
	expect_lookup(identity_lookup_name_or_uid("00000000000", GROUPS_NOW, &who, &err), &who,
		      &err, "ERR unknown user '00000000000'", "nor eleven digits");
	expect_lookup(identity_lookup_name_or_uid("0x0", GROUPS_NOW, &who, &err), &who,
		      &err, "ERR unknown user '0x0'", "nor hexadecimal");
	expect_lookup(identity_lookup_name_or_uid("", GROUPS_NOW, &who, &err), &who,
		      &err, "ERR unknown user ''", "nor an empty name");
}

/* The test source (tests/nss) down behind files, as sss with sssd
 * stopped: names files has still resolve, others cannot be told. */
static void test_outage(void)
{
	struct identity who;
	struct cc_error err;
	char *state = xasprintf("%s/cocoontest.state", NSS_TEST_DIR);
	tap_write_file(conf, "passwd: files cocoontest\ngroup: files cocoontest\n");
	tap_write_file(state, "user ccdirk7 7001 7001 /nonexistent /bin/sh\n"
			  "group ccstaff7 7100 ccdirk7\n");
	expect_lookup(identity_lookup("ccdirk7", GROUPS_NOW, &who, &err), &who, &err,
		      "ccdirk7 7001 7001 7001 /nonexistent /bin/sh [7001=7001 ccstaff7=7100]",
		      "a directory user, its groups and their names");
	identity_lookup("cocoon-no-such-user", GROUPS_NOW, &who, &err);
	tap_ok(err.cause == CC_NOT_FOUND, "an unknown name: CC_NOT_FOUND");
	identity_lookup("ccdirk7", GROUPS_LATER, &who, &err);
	tap_write_file(state, "down\n");
	tap_ok(identity_complete(&who, &err) < 0 && who.groups_later, "groups asked while the "
	       "source is down: an error, and still unknown");
	tap_is_str(err.msg, "the groups of ccdirk7: the group database could not be asked "
		   "(cocoontest: Connection refused)", "which names the source and errno");
	identity_free(&who);
	expect_lookup(identity_lookup("cocoon-no-such-user", GROUPS_NOW, &who, &err), &who,
		      &err, "ERR looking up user 'cocoon-no-such-user': the account database "
		      "could not be asked (cocoontest: Connection refused)",
		      "an unknown name while a source is down: not 'unknown user'");
	tap_ok(err.cause == CC_UNREACHABLE, "CC_UNREACHABLE");
	expect_lookup(identity_lookup_uid(4000000000u, GROUPS_NOW, &who, &err), &who, &err,
		      "ERR looking up uid 4000000000: the account database could not be asked "
		      "(cocoontest: Connection refused)", "an unknown uid likewise");
	tap_ok(identity_lookup("root", GROUPS_LATER, &who, &err) == 0,
	       "root, whom files has, still resolves");
	tap_ok(identity_complete(&who, &err) < 0, "but not root's groups: every source is asked");
	identity_free(&who);
	unlink(state);
	free(state);
	tap_write_file(conf, "passwd: files\ngroup: files\n");
}

static void test_cocoon_shell(void)
{
	tap_ok(identity_is_cocoon_shell(COCOON_SHELL_PATH, COCOON_SHELL_PATH), "the installed path");
	tap_ok(identity_is_cocoon_shell("/opt/img/bin/cocoon-shell", "/nonexistent/x"),
	       "any file named cocoon-shell");
	tap_ok(identity_is_cocoon_shell("cocoon-shell", "/nonexistent/x"), "a bare name");
	tap_ok(!identity_is_cocoon_shell("/bin/cocoon-shell2", "/nonexistent/x") &&
	       !identity_is_cocoon_shell("/bin/bash", "/nonexistent/cocoon-shell"),
	       "other names are other shells");
	if (!mkdtemp(dir_path)) {
		tap_ok(false, "mkdtemp %s", dir_path);
		return;
	}
	char *real = xasprintf("%s/real", dir_path), *sym = xasprintf("%s/sym", dir_path),
	     *hard = xasprintf("%s/hard", dir_path), *other = xasprintf("%s/other", dir_path);
	FILE *f = fopen(real, "w"), *g = fopen(other, "w");
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	tap_ok(f && g && symlink(real, sym) == 0 && link(real, hard) == 0, "links made");
	tap_ok(identity_is_cocoon_shell(sym, real), "a symbolic link to the installed file");
	tap_ok(identity_is_cocoon_shell(hard, real), "a hard link to it");
	tap_ok(!identity_is_cocoon_shell(other, real), "another file is not");
	tap_ok(!identity_is_cocoon_shell(sym, "/nonexistent/x"), "nor a link when nothing is installed");
	char *cwd = getcwd(NULL, 0);
	tap_ok(chdir(dir_path) == 0 && !identity_is_cocoon_shell("sym", real),
	       "a relative path is never compared by file");
	if (cwd && chdir(cwd) < 0)
		perror("chdir");
	free(cwd);
	unlink(sym);
	unlink(hard);
	unlink(real);
	unlink(other);
	rmdir(dir_path);
	free(real);
	free(sym);
	free(hard);
	free(other);
}

int main(void)
{
	int fd = mkstemp(conf);
	if (!tap_ok(fd >= 0, "a private nsswitch.conf"))
		return tap_done();
	close(fd);
	tap_write_file(conf, "passwd: files\ngroup: files\n");
	name_service_configure(conf, NSS_TEST_DIR);
	test_root();
	test_nobody();
	test_unknown();
	test_outage();
	test_cocoon_shell();
	unlink(conf);
	return tap_done();
}
