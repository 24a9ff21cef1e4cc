// SPDX-License-Identifier: GPL-2.0-or-later
/* Policy files: the trust rule (root's, writable by nobody else, all the
 * way up), reading a trusted file, loading the policy with its drop-ins,
 * and installing a new one. The files live in a root-owned directory
 * under /run; the system policy is loaded in a child whose mount
 * namespace shows that directory as /etc. */
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "policy.h"
#include "tap.h"
#include "trusted_file.h"
#include "util.h"

static char dir_path[] = "/run/cocoon-policy-files-unit.XXXXXX";

#define REFUSED ": refused (policy files and the directories above them must be owned " \
	"by root and not writable by group or others): "

/* DIR_PATH/NAME with TEXT, owned by UID, with MODE; returns the path. */
static char *put(const char *name, const char *text, mode_t mode, uid_t uid)
{
	char *path = xasprintf("%s/%s", dir_path, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_full(fd, text, strlen(text)) < 0 || fchown(fd, uid, 0) < 0 ||
	    fchmod(fd, mode) < 0)
		abort();
	close(fd);
	return path;
}

static char *sub(const char *name)
{
	return xasprintf("%s/%s", dir_path, name);
}

/* "ok" or the error of path_trusted, with DIR_PATH written as D. */
static char *trust(const char *path)
{
	struct cc_error err;
	if (path_trusted(path, &err) == 0)
		return xstrdup("ok");
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	size_t n = strlen(dir_path);
	for (const char *p = err.msg; *p;) {
		if (strncmp(p, dir_path, n) == 0) {
			sb_addn(&out, "D", 1);
			p += n;
		} else {
			sb_addn(&out, p++, 1);
		}
	}
	return sb_steal(&out);
}

static void expect_trust(const char *path, const char *want, const char *name)
{
	char *got = trust(path);
	tap_is_str(got, want, name);
	free(got);
}

static void test_trust(void)
{
	char *good = put("good.conf", "x", 0644, 0);
	expect_trust(good, "ok", "a root-owned 0644 file in root's directories");
	expect_trust("etc/cocoon.conf", "etc/cocoon.conf: not an absolute path",
		     "a relative path");
	char *missing = sub("missing.conf");
	expect_trust(missing, "D/missing.conf: No such file or directory", "a missing file");
	char *group = put("group.conf", "x", 0664, 0);
	expect_trust(group, "D/group.conf" REFUSED "D/group.conf is writable by its group "
		     "(mode 0664)", "a group-writable file");
	char *others = put("others.conf", "x", 0646, 0);
	expect_trust(others, "D/others.conf" REFUSED "D/others.conf is writable by others "
		     "(mode 0646)", "a file writable by others");
	char *ann = put("ann.conf", "x", 0644, 4242);
	expect_trust(ann, "D/ann.conf" REFUSED "D/ann.conf is owned by uid 4242, not root",
		     "a file another uid owns");

	char *open_dir = sub("open"), *inside = NULL;
	mkdir(open_dir, 0755);
	chmod(open_dir, 0775);
	inside = put("open/in.conf", "x", 0644, 0);
	expect_trust(inside, "D/open/in.conf" REFUSED "D/open is writable by its group "
		     "(mode 0775)", "a directory above the file is judged too");

	char *link = sub("link.conf"), *ann_link = sub("ann-link.conf"),
	     *into_open = sub("into-open.conf");
	if (symlink(good, link) < 0 || symlink(good, ann_link) < 0 ||
	    lchown(ann_link, 4242, 4242) < 0 || symlink(inside, into_open) < 0)
		perror("symlink");
	expect_trust(link, "ok", "root's symlink to a trusted file");
	expect_trust(ann_link, "D/ann-link.conf" REFUSED "D/ann-link.conf is a symlink owned "
		     "by uid 4242, not root", "a symlink another uid owns");
	expect_trust(into_open, "D/into-open.conf" REFUSED "D/open is writable by its group "
		     "(mode 0775)", "root's symlink into an untrusted directory");
	unlink(link);
	unlink(ann_link);
	unlink(into_open);
	unlink(inside);
	unlink(group);
	unlink(others);
	unlink(ann);
	unlink(good);
	rmdir(open_dir);
	free(link);
	free(ann_link);
	free(into_open);
	free(inside);
	free(open_dir);
	free(group);
	free(others);
	free(ann);
	free(missing);
	free(good);
}

/* "LEN:TEXT" or the error of read_trusted_file. */
static char *read_back(const char *path, size_t max)
{
	char *text;
	size_t len;
	struct cc_error err;
	if (read_trusted_file(path, max, &text, &len, &err) < 0)
		return xstrdup(err.msg);
	char *out = xasprintf("%zu:%s", len, text);
	free(text);
	return out;
}

static void expect_read(const char *path, size_t max, const char *want, const char *name)
{
	char *got = read_back(path, max);
	tap_is_str(got, want, name);
	free(got);
}

static void test_read(void)
{
	char *file = put("r.conf", "abc\n", 0600, 0), *empty = put("e.conf", "", 0644, 0);
	char *link = sub("r-link"), *fifo = sub("fifo"), *dir = sub("d");
	expect_read(file, 4, "4:abc\n", "a file of exactly MAX bytes is read whole");
	expect_read(empty, 0, "0:", "an empty file");
	char *want = xasprintf("%s: larger than 3 bytes", file);
	expect_read(file, 3, want, "one byte more is refused");
	free(want);
	if (symlink(file, link) < 0 || mkfifo(fifo, 0644) < 0 || mkdir(dir, 0755) < 0)
		perror("setup");
	want = xasprintf("%s: a symbolic link, not followed", link);
	expect_read(link, 100, want, "a trusted symlink is not followed");
	free(want);
	want = xasprintf("%s: not a regular file", fifo);
	expect_read(fifo, 100, want, "a FIFO is refused, without waiting for a writer");
	free(want);
	want = xasprintf("%s: not a regular file", dir);
	expect_read(dir, 100, want, "so is a directory");
	free(want);
	chmod(file, 0620);
	want = xasprintf("%s" REFUSED "%s is writable by its group (mode 0620)", file, file);
	expect_read(file, 100, want, "an untrusted file is not read");
	free(want);
	unlink(link);
	unlink(fifo);
	rmdir(dir);
	unlink(file);
	unlink(empty);
	free(link);
	free(fifo);
	free(dir);
	free(file);
	free(empty);
}

/* A loaded policy as "files=A,B sections=N diags=N embedded_only=B", with
 * the first diagnostic, or "rc=-1 MSG"; DIR_PATH is written as D. */
static char *describe(int rc, const struct policy *policy, const struct cc_error *err)
{
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	size_t n = strlen(dir_path);
	if (rc < 0) {
		sb_addf(&out, "rc=%d %s", rc, err->msg);
	} else {
		sb_addf(&out, "files=");
		for (size_t i = 0; i < policy->nfiles; i++)
			sb_addf(&out, "%s%s", i ? "," : "", policy->files[i]);
		sb_addf(&out, " sections=%zu diags=%zu embedded_only=%d", policy->nsections,
			policy->diags.count, policy->embedded_only);
		if (policy->diags.count)
			sb_addf(&out, " %s:%d: %s", policy->diags.items[0].file,
				policy->diags.items[0].line, policy->diags.items[0].msg);
	}
	char *text = sb_steal(&out);
	for (char *p; (p = strstr(text, dir_path));) {
		p[0] = 'D';
		memmove(p + 1, p + n, strlen(p + n) + 1);
	}
	return text;
}

static void expect_load(const char *config, const char *want, const char *name)
{
	struct policy policy = { 0 };
	struct cc_error err;
	int rc = policy_load(&policy, config, &err);
	char *got = describe(rc, &policy, &err);
	tap_is_str(got, want, name);
	free(got);
	policy_free(&policy);
}

/* How many sections the embedded default profile alone makes. */
static size_t embedded_sections(void)
{
	struct policy policy = { 0 };
	policy_parse_text(&policy, COCOON_EMBEDDED_NAME, cocoon_default_profile,
			  strlen(cocoon_default_profile));
	size_t n = policy.nsections;
	policy_free(&policy);
	return n;
}

static void test_load_one(void)
{
	size_t base = embedded_sections();
	char *good = put("one.conf", "[default]\nprofile = default\n[user ann]\n"
			 "profile = default\n", 0644, 0);
	char *want = xasprintf("files=D/one.conf sections=%zu diags=0 embedded_only=0",
			       base + 2);
	expect_load(good, want, "one file after the embedded default");
	free(want);
	char *bad = put("bad.conf", "[default]\nprofile default\n", 0644, 0);
	want = xasprintf("files=D/bad.conf sections=%zu diags=1 embedded_only=0 D/bad.conf:2: "
			 "expected 'key = value', a [section] or a comment", base + 1);
	expect_load(bad, want, "a syntax error is a finding at file:line, not a failure");
	free(want);
	chmod(good, 0666);
	expect_load(good, "rc=-1 D/one.conf" REFUSED "D/one.conf is writable by others "
		    "(mode 0666)", "an untrusted file fails the load");
	char *missing = sub("none.conf");
	expect_load(missing, "rc=-1 D/none.conf: No such file or directory",
		    "a missing file named on the command line fails it");
	unlink(good);
	unlink(bad);
	free(good);
	free(bad);
	free(missing);
}

/* When set, the child loads this candidate as if installed at
 * child_as (policy_load_candidate) in place of the system policy. */
static const char *child_candidate, *child_as;

/* In a child: DIR_PATH/etc shown as /etc, the system policy loaded and
 * described into FD. */
static void load_system_in_child(int fd)
{
	char *etc = sub("etc");
	const char *text;
	char *owned = NULL;
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount(etc, COCOON_SYSCONFDIR, NULL, MS_BIND, NULL) < 0) {
		text = "SKIP";
	} else {
		struct policy policy = { 0 };
		struct cc_error err;
		int rc = child_candidate
				 ? policy_load_candidate(&policy, child_candidate, child_as, &err)
				 : policy_load(&policy, NULL, &err);
		text = owned = describe(rc, &policy, &err);
		policy_free(&policy);
	}
	if (write_full(fd, text, strlen(text)) < 0)
		_exit(1);
	free(owned);
	free(etc);
	_exit(0);
}

static void expect_system(const char *want, const char *name)
{
	int fds[2];
	if (pipe(fds) < 0)
		abort();
	pid_t child = fork();
	if (child == 0) {
		close(fds[0]);
		load_system_in_child(fds[1]);
	}
	close(fds[1]);
	struct strbuf got = { 0 };
	char buf[512];
	ssize_t n;
	sb_addn(&got, "", 0);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		sb_addn(&got, buf, (size_t)n);
	close(fds[0]);
	waitpid(child, NULL, 0);
	if (strcmp(got.data, "SKIP") == 0)
		tap_ok(true, "# SKIP %s: no mount namespace here", name);
	else
		tap_is_str(got.data, want, name);
	sb_free(&got);
}

static void test_load_system(void)
{
	size_t base = embedded_sections();
	char *etc = sub("etc"), *cocoon = sub("etc/cocoon"), *dropins = sub("etc/cocoon/cocoon.d");
	mkdir(etc, 0755);
	mkdir(cocoon, 0755);
	char *want = xasprintf("files= sections=%zu diags=0 embedded_only=1", base + 1);
	expect_system(want, "nothing installed: the embedded default is the whole policy");
	free(want);

	char *main_file = put("etc/cocoon/cocoon.conf", "[default]\nprofile = default\n",
			      0644, 0);
	mkdir(dropins, 0755);
	char *b = put("etc/cocoon/cocoon.d/b.conf", "[user b]\nprofile = default\n", 0644, 0);
	char *a = put("etc/cocoon/cocoon.d/a.conf", "[user a]\nprofile = default\n", 0644, 0);
	char *hidden = put("etc/cocoon/cocoon.d/.h.conf", "[", 0644, 0);
	char *bak = put("etc/cocoon/cocoon.d/c.conf.bak", "[", 0644, 0);
	char *bare = put("etc/cocoon/cocoon.d/.conf", "[", 0644, 0);
	want = xasprintf("files=" COCOON_SYSCONFDIR "/cocoon/cocoon.conf," COCOON_SYSCONFDIR "/cocoon/cocoon.d/a.conf,"
			 COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.conf sections=%zu diags=0 embedded_only=0",
			 base + 3);
	expect_system(want, "cocoon.conf, then the *.conf drop-ins in byte order");
	free(want);

	/* A candidate in the place of an installed file, or a new one. */
	char *cand = put("cand.conf", "[user c]\nprofile = default\n", 0600, 0);
	child_candidate = cand;
	child_as = COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.conf";
	want = xasprintf("files=" COCOON_SYSCONFDIR "/cocoon/cocoon.conf," COCOON_SYSCONFDIR
			 "/cocoon/cocoon.d/a.conf,D/cand.conf sections=%zu diags=0 embedded_only=0",
			 base + 3);
	expect_system(want, "candidate: read in the place of the drop-in it replaces");
	free(want);
	child_as = COCOON_SYSCONFDIR "/cocoon/cocoon.d/ab.conf";
	want = xasprintf("files=" COCOON_SYSCONFDIR "/cocoon/cocoon.conf," COCOON_SYSCONFDIR
			 "/cocoon/cocoon.d/a.conf,D/cand.conf," COCOON_SYSCONFDIR
			 "/cocoon/cocoon.d/b.conf sections=%zu diags=0 embedded_only=0", base + 4);
	expect_system(want, "candidate: a new drop-in, read where its name sorts");
	free(want);
	child_as = COCOON_SYSCONFDIR "/cocoon/cocoon.conf";
	want = xasprintf("files=D/cand.conf," COCOON_SYSCONFDIR "/cocoon/cocoon.d/a.conf,"
			 COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.conf sections=%zu diags=0 "
			 "embedded_only=0", base + 3);
	expect_system(want, "candidate: as cocoon.conf, the drop-ins after it");
	free(want);
	child_as = NULL;
	want = xasprintf("files=D/cand.conf sections=%zu diags=0 embedded_only=0", base + 1);
	expect_system(want, "candidate: without a place, alone");
	free(want);
	child_as = COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.txt";
	expect_system("rc=-2 " COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.txt: cocoon reads only the "
		      "files named *.conf (not starting with a dot) in " COCOON_SYSCONFDIR
		      "/cocoon/cocoon.d", "candidate: a place cocoon does not read is the caller's mistake");
	child_as = COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.conf";
	child_candidate = sub("none.conf");
	expect_system("rc=-2 D/none.conf: No such file or directory",
		      "candidate: unreadable is the caller's mistake too");
	free((char *)child_candidate);
	child_candidate = cand;
	chmod(dropins, 0775);
	expect_system("rc=-1 D/cand.conf cannot be installed as " COCOON_SYSCONFDIR
		      "/cocoon/cocoon.d/b.conf: " COCOON_SYSCONFDIR "/cocoon/cocoon.d" REFUSED
		      COCOON_SYSCONFDIR "/cocoon/cocoon.d is writable by its group (mode 0775)",
		      "candidate: an untrusted directory to install into fails it");
	chmod(dropins, 0755);
	child_candidate = child_as = NULL;
	unlink(cand);
	free(cand);

	unlink(main_file);
	want = xasprintf("files=" COCOON_SYSCONFDIR "/cocoon/cocoon.d/a.conf," COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.conf "
			 "sections=%zu diags=0 embedded_only=0", base + 2);
	expect_system(want, "drop-ins without cocoon.conf are the policy");
	free(want);

	chmod(b, 0664);
	expect_system("rc=-1 " COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.conf" REFUSED COCOON_SYSCONFDIR "/cocoon/cocoon.d/b.conf "
		      "is writable by its group (mode 0664)", "one untrusted drop-in fails it");
	unlink(b);
	unlink(a);
	chmod(dropins, 0757);
	expect_system("rc=-1 " COCOON_SYSCONFDIR "/cocoon/cocoon.d" REFUSED COCOON_SYSCONFDIR "/cocoon/cocoon.d is writable "
		      "by others (mode 0757)", "an untrusted drop-in directory fails it, "
		      "even without a drop-in in it");
	unlink(hidden);
	unlink(bak);
	unlink(bare);
	rmdir(dropins);
	rmdir(cocoon);
	rmdir(etc);
	free(main_file);
	free(a);
	free(b);
	free(hidden);
	free(bak);
	free(bare);
	free(dropins);
	free(cocoon);
	free(etc);
}

static void test_install(void)
{
	char *target = sub("new.conf");
	struct cc_error err;
	struct stat st;
	tap_ok(policy_install_text(target, "[default]\n", 10, &err) == 0 &&
	       stat(target, &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 0600,
	       "a new file is root's, mode 0600");
	char *text = NULL;
	size_t len = 0;
	tap_ok(read_trusted_file(target, 100, &text, &len, &err) == 0 && len == 10 &&
	       strcmp(text, "[default]\n") == 0, "and holds the text");
	free(text);
	chmod(target, 0644);
	tap_ok(policy_install_text(target, "x", 1, &err) == 0 && stat(target, &st) == 0 &&
	       st.st_size == 1 && (st.st_mode & 07777) == 0600, "a second install replaces it");
	unlink(target);
	tap_ok(policy_install_text("new.conf", "x", 1, &err) < 0 &&
	       strcmp(err.msg, "new.conf: not an absolute path") == 0,
	       "a relative target is refused");
	char *open_dir = sub("open"), *in_open = sub("open/p.conf");
	mkdir(open_dir, 0777);
	chmod(open_dir, 0777);
	char *want = xasprintf("%s" REFUSED "%s is writable by others (mode 0777)", open_dir,
			       open_dir);
	tap_ok(policy_install_text(in_open, "x", 1, &err) < 0, "an untrusted directory: refused");
	tap_is_str(err.msg, want, "with the directory's fault");
	free(want);
	tap_ok(rmdir(open_dir) == 0, "and no temporary file is left in it");
	free(open_dir);
	free(in_open);
	free(target);
}

int main(void)
{
	if (!mkdtemp(dir_path) || chmod(dir_path, 0755) < 0)
		return 1;
	test_trust();
	test_read();
	test_load_one();
	test_load_system();
	test_install();
	tap_ok(rmdir(dir_path) == 0, "every file made is gone");
	return tap_done();
}
