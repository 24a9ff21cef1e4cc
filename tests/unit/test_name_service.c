// SPDX-License-Identifier: GPL-2.0-or-later
/* name_service through the test NSS sources (tests/nss): an entry found,
 * not found, or a source that cannot be reached; a group list complete
 * or an error; the status actions; libnss_systemd's ESRCH. */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "name_service.h"
#include "tap.h"
#include "util.h"

static char conf[] = "/tmp/cocoon-name-service-unit.XXXXXX";


static void state(const char *source, const char *text)
{
	char *path = xasprintf("%s/%s.state", NSS_TEST_DIR, source);
	if (text)
		tap_write_file(path, text);
	else
		unlink(path);
	free(path);
}

static const char *answer_names[] = { "found", "not found", "unreachable", "error" };

/* "found NAME UID" / "not found" / "unreachable: MESSAGE". */
static char *user(const char *name)
{
	struct name_passwd e;
	struct cc_error err;
	enum name_answer a = name_service_user_by_name(name, &e, &err);
	char *out;
	if (a == NAME_FOUND)
		out = xasprintf("found %s %u", e.pw.pw_name, (unsigned)e.pw.pw_uid);
	else
		out = xasprintf("%s: %s%s", answer_names[a], err.msg,
				(a == NAME_NOT_FOUND) == (err.cause == CC_NOT_FOUND) &&
				(a == NAME_UNREACHABLE) == (err.cause == CC_UNREACHABLE)
					? "" : " (WRONG CAUSE)");
	if (a == NAME_FOUND)
		name_service_passwd_free(&e);
	return out;
}

/* "found G G G" or "ANSWER: MESSAGE". */
static char *group_list(const char *name, gid_t primary)
{
	gid_t *groups;
	size_t n;
	struct cc_error err;
	enum name_answer a = name_service_group_list(name, primary, &groups, &n, &err);
	if (a != NAME_FOUND)
		return xasprintf("%s: %s", answer_names[a], err.msg);
	struct strbuf out = { 0 };
	sb_addf(&out, "found");
	for (size_t i = 0; i < n; i++)
		sb_addf(&out, " %u", (unsigned)groups[i]);
	free(groups);
	return sb_steal(&out);
}

static void is(char *got, const char *want, const char *name)
{
	tap_is_str(got, want, name);
	free(got);
}

#define DIRECTORY "user dirk 7001 7001 /home/dirk /bin/sh\n" \
		  "group staff7 7100 dirk,other\ngroup lab7 7200 dirk\ngroup none7 7300 -\n"

static void test_entries(void)
{
	tap_write_file(conf, "passwd: files cocoontest\ngroup: files cocoontest\n");
	state("cocoontest", DIRECTORY);
	is(user("dirk"), "found dirk 7001", "a user of the second source");
	is(user("root"), "found root 0", "a user of files");
	is(user("cocoon-nobody-here"), "not found: user 'cocoon-nobody-here' has no passwd entry",
	   "every source says no: not found");
	char *name = NULL;
	struct cc_error err;
	tap_ok(name_service_group_name(7200, &name, &err) == NAME_FOUND && name &&
	       strcmp(name, "lab7") == 0, "a group's name");
	free(name);
	tap_ok(name_service_group_name(7999, &name, &err) == NAME_NOT_FOUND &&
	       err.cause == CC_NOT_FOUND, "a gid nobody names");
	struct name_passwd e;
	tap_ok(name_service_user_by_uid(7001, &e, &err) == NAME_FOUND &&
	       strcmp(e.pw.pw_name, "dirk") == 0, "a user by uid");
	name_service_passwd_free(&e);

	state("cocoontest", "down\n" DIRECTORY);
	is(user("cocoon-nobody-here"),
	   "unreachable: the account database could not be asked (cocoontest: Connection "
	   "refused)", "the second source down: unreachable, not 'no such user'");
	is(user("root"), "found root 0", "files answers first: the outage does not matter");
	tap_ok(name_service_group_name(7200, &name, &err) == NAME_UNREACHABLE &&
	       err.cause == CC_UNREACHABLE, "a group's name while its source is down");
	state("cocoontest", "busy\n");
	is(user("dirk"), "unreachable: the account database could not be asked (cocoontest: "
	   "Resource temporarily unavailable)", "TRYAGAIN is an outage too");
	state("cocoontest", NULL);
	is(user("dirk"), "unreachable: the account database could not be asked (cocoontest: "
	   "No such file or directory)", "UNAVAIL with ENOENT (sss without its socket) too");
	state("cocoontest", "down\n");
	tap_write_file(conf, "passwd: files [NOTFOUND=return] cocoontest\n");
	is(user("cocoon-nobody-here"), "not found: user 'cocoon-nobody-here' has no passwd "
	   "entry", "[NOTFOUND=return] stops before the source that is down");
	tap_write_file(conf, "passwd: files nosuchmodule7\n");
	is(user("cocoon-nobody-here"), "not found: user 'cocoon-nobody-here' has no passwd "
	   "entry", "a source without a module has nothing to give");
}

/* A module that is there but does not load is no module without entries:
 * taken as one, a broken file, or a descriptor or memory limit the
 * caller set, would drop the source's groups from a list. */
static void test_unloadable_modules(void)
{
	char *broken = xasprintf("%s/libnss_cocoonbroken.so.2", NSS_TEST_DIR);
	tap_write_file(broken, "not an ELF file\n");
	tap_write_file(conf, "passwd: cocoonbroken\ngroup: cocoonbroken\n");
	char *got = user("cocoon-nobody-here");
	tap_like(got, "unreachable: the account database could not be asked (cocoonbroken: ",
		 "a module that is there but broken: unreachable, not 'no such user'");
	free(got);
	got = group_list("dirk", 7001);
	tap_like(got, "unreachable: the group database could not be asked (cocoonbroken: ",
		 "and no group list without it");
	free(got);
	unlink(broken);
	free(broken);
}

static void test_group_lists(void)
{
	tap_write_file(conf, "group: files cocoontest\n");
	state("cocoontest", DIRECTORY);
	is(group_list("dirk", 7001), "found 7001 7100 7200",
	   "the primary group, then the source's groups");
	is(group_list("cocoon-nobody-here", 7001), "found 7001", "no groups anywhere");
	state("cocoontest", "down\n" DIRECTORY);
	is(group_list("dirk", 7001),
	   "unreachable: the group database could not be asked (cocoontest: Connection "
	   "refused)", "a source down: no list (getgrouplist would drop its groups)");
	tap_write_file(conf, "group: files [SUCCESS=return] cocoontest\n");
	is(group_list("root", 0), "unreachable: the group database could not be asked "
	   "(cocoontest: Connection refused)",
	   "group's SUCCESS=return does not stop an initgroups walk");
	tap_write_file(conf, "group: files\ninitgroups: files [NOTFOUND=return] cocoontest\n");
	is(group_list("root", 0), "found 0", "initgroups' NOTFOUND=return stops it");
	tap_write_file(conf, "group: cocoontestenum\n");
	state("cocoontestenum", DIRECTORY);
	is(group_list("dirk", 7001), "found 7001 7100 7200",
	   "a module without initgroups_dyn: its groups walked");
	state("cocoontestenum", "down\n");
	is(group_list("dirk", 7001),
	   "unreachable: the group database could not be asked (cocoontestenum: Connection "
	   "refused)", "and the walk of one that is down fails");
	state("cocoontestenum", NULL);
	tap_write_file(conf, "group: files systemd\n");
	char *esrch = xasprintf("down %d\n", ESRCH), *enoent = xasprintf("down %d\n", ENOENT);
	state("systemd", esrch);
	is(group_list("root", 0), "found 0",
	   "systemd's UNAVAIL with ESRCH (no userdbd): no entries, no outage");
	state("systemd", enoent);
	is(group_list("root", 0), "found 0", "nor with ENOENT (no /run/systemd/userdb)");
	state("systemd", "down\n");
	is(group_list("root", 0), "unreachable: the group database could not be asked "
	   "(systemd: Connection refused)", "systemd refusing a connection is an outage");
	state("systemd", NULL);
	free(esrch);
	free(enoent);
	tap_write_file(conf, "group: files cocoontest cocoontest\n");
	state("cocoontest", DIRECTORY);
	is(group_list("dirk", 7100), "found 7100 7200", "each group once");
}

/* glibc keeps "files" itself: a lookup through it finds root's entry
 * without loading libnss_files.so.2 (an empty library since 2.34), as
 * glibc's own lookups do. The control: that library can be loaded here,
 * so its absence is the lookup's doing. */
static void test_files_builtin(void)
{
	tap_write_file(conf, "passwd: files\n");
	is(user("root"), "found root 0", "files finds root");
	void *stub = dlopen("libnss_files.so.2", RTLD_NOW | RTLD_NOLOAD);
	tap_ok(!stub, "without loading libnss_files.so.2");
	if (stub)
		dlclose(stub);
	stub = dlopen("libnss_files.so.2", RTLD_NOW);
	tap_ok(stub != NULL, "which is there to load (the control)");
	if (stub)
		dlclose(stub);
}

int main(void)
{
	int fd = mkstemp(conf);
	if (!tap_ok(fd >= 0, "a temporary file"))
		return tap_done();
	close(fd);
	name_service_configure(conf, NSS_TEST_DIR);
	test_files_builtin();
	test_entries();
	test_group_lists();
	test_unloadable_modules();
	state("cocoontest", NULL);
	unlink(conf);
	return tap_done();
}
