// SPDX-License-Identifier: GPL-2.0-or-later
/* Session records: what record_read accepts and refuses, prefixes, and
 * the identity check against this process (a live pid whose namespaces
 * differ from the record's, and a pid that has ended). */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "records.h"
#include "syscalls.h"
#include "tap.h"
#include "util.h"

static char dir_path[] = "/tmp/cocoon-records-unit.XXXXXX";
static int dir;

#define GOOD "v=1\nid=0123456789abcdef\nuser=alice\nuid=1000\ngid=1000\n" \
	"service=sshd\nstarted=1700000000\nboottime=42\n" \
	"rule=[user alice] at a\\nb\\\\c\nprofile=\nplan=00ff00ff00ff00ff\n" \
	"ns=pid ipc\npid=%d\nstart=%llu\npidns=%llu\nmntns=%llu\n"

static void put(const char *name, const char *text, mode_t mode)
{
	int fd = openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_full(fd, text, strlen(text)) < 0 || fchmod(fd, mode) < 0)
		abort();
	close(fd);
}

/* TEXT with the 16-digit id ID in place of its own. */
static char *with_id(const char *text, const char *id)
{
	char *copy = xstrdup(text);
	memcpy(strstr(copy, "id=") + 3, id, 16);
	return copy;
}

/* Put TEXT in NAME, last written AGE seconds ago. */
static void put_aged(const char *name, const char *text, time_t age)
{
	put(name, text, 0600);
	struct timespec times[2] = { { time(NULL) - age, 0 }, { time(NULL) - age, 0 } };
	if (utimensat(dir, name, times, 0) < 0)
		abort();
}

static bool present(const char *name)
{
	return faccessat(dir, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

static int try_read(const char *name, const char *text, mode_t mode,
		    struct live_record *rec, struct cc_error *err)
{
	put(name, text, mode);
	return record_read(dir, name, rec, err);
}

int main(void)
{
	if (!mkdtemp(dir_path) || (dir = open(dir_path, O_RDONLY | O_DIRECTORY)) < 0)
		return 1;
	struct live_record rec;
	struct cc_error err;
	char *text = xasprintf(GOOD, 1, 1ULL, 2ULL, 3ULL);

	bool root = geteuid() == 0;
	int rc = try_read("0123456789abcdef", text, 0600, &rec, &err);
	tap_ok(rc == 0 || !root, "a well-formed record is read%s%s", rc ? ": " : "",
	       rc ? err.msg : "");
	if (rc == 0) {
		tap_is_str(rec.rule, "[user alice] at a\nb\\c", "escapes come back");
		tap_ok(rec.profile == NULL, "an empty profile is none");
		tap_ok(rec.namespaces == (NS_PID | NS_IPC), "the namespaces are parsed");
		tap_ok(rec.uid == 1000 && rec.pid == 1 && rec.mntns == 3, "numbers are parsed");
		record_free(&rec);
	}
	if (root) {
		try_read("0123456789abcdef", text, 0640, &rec, &err);
		tap_like(err.msg, "mode 0600", "a record others may read is refused");
		char *v2 = xasprintf("v=2%s", text + 3);
		tap_ok(try_read("0123456789abcdef", v2, 0600, &rec, &err) < 0 &&
		       strstr(err.msg, "not a version 1"), "another version is refused");
		free(v2);
		char *cut = xstrdup(text);
		*strstr(cut, "mntns=") = '\0';
		tap_ok(try_read("0123456789abcdef", cut, 0600, &rec, &err) < 0 &&
		       strstr(err.msg, "missing"), "a missing field is refused");
		free(cut);
		char *twice = xasprintf("%suid=0\n", text);
		tap_ok(try_read("0123456789abcdef", twice, 0600, &rec, &err) < 0 &&
		       strstr(err.msg, "repeated uid"), "a repeated field is refused");
		free(twice);
		tap_ok(try_read("0123456789abcdee", text, 0600, &rec, &err) < 0 &&
		       strstr(err.msg, "holds the id"), "a record under another id's name is refused");
		unlinkat(dir, "0123456789abcdee", 0);
		tap_ok(try_read("0123456789abcdef", text, 0600, &rec, &err) == 0 &&
		       rec.ptys == RECORD_PTYS_BEFORE, "a record without ptys (an earlier "
		       "version's) counts as the 1024 sessions had then");
		record_free(&rec);
		char *ptys = xasprintf("%sptys=6\n", text);
		tap_ok(try_read("0123456789abcdef", ptys, 0600, &rec, &err) == 0 && rec.ptys == 6,
		       "ptys is read");
		record_free(&rec);
		free(ptys);
		ptys = xasprintf("%sptys=0\n", text);
		tap_ok(try_read("0123456789abcdef", ptys, 0600, &rec, &err) < 0 &&
		       strstr(err.msg, "bad or repeated ptys"), "ptys=0 is refused");
		free(ptys);
		/* The ptys held by uid 1000's sessions: this process, recorded as
		 * itself, and a record of a pid that is gone. */
		struct stat pidns, mntns;
		if (stat("/proc/self/ns/pid", &pidns) < 0 || stat("/proc/self/ns/mnt", &mntns) < 0)
			abort();
		char stat_text[1024];
		int sf = open("/proc/self/stat", O_RDONLY);
		ssize_t n = sf < 0 ? -1 : read(sf, stat_text, sizeof(stat_text) - 1);
		if (n <= 0)
			abort();
		close(sf);
		stat_text[n] = '\0';
		char *p = strrchr(stat_text, ')') + 2;
		for (int field = 3; field < 22; field++)
			p = strchr(p, ' ') + 1;
		char *live = xasprintf(GOOD "ptys=5\n", (int)getpid(), strtoull(p, NULL, 10),
				       (unsigned long long)pidns.st_ino,
				       (unsigned long long)mntns.st_ino);
		put("0123456789abcdef", live, 0600);
		char *gone = xasprintf(GOOD "ptys=7\n", 2147483000, 1ULL, 2ULL, 3ULL);
		char *gone_id = strstr(gone, "id=") + 3;
		memcpy(gone_id, "1123456789abcdef", 16);
		put(".1123456789abcdef.new", gone, 0600);
		unsigned long long held = 0;
		size_t sessions = 0;
		tap_ok(records_ptys_held(dir, 1000, &held, &sessions, &err) == 0 && held == 5 &&
		       sessions == 1, "ptys held: a live session's (a record being written "
		       "of a pid that is gone counts for nothing)");
		tap_ok(records_ptys_held(dir, 1001, &held, &sessions, &err) == 0 && held == 0 &&
		       sessions == 0, "and nothing of another uid's");

		/* The sweep at a session's end. A record being written stays
		 * while its writer may be at it, even once its pid is gone (a
		 * command that ends at once): its writer publishes it, then
		 * removes it. One a minute old was left by a writer killed. */
		const char *names[] = { "2123456789abcdef", ".3123456789abcdef.new",
					".4123456789abcdef.new", ".5123456789abcdef.new" };
		for (size_t i = 0; i < 2; i++) {
			char *copy = with_id(gone, names[i] + (names[i][0] == '.'));
			put_aged(names[i], copy, i == 1 ? 61 : 0);
			free(copy);
		}
		put_aged(names[2], "v=1\nid=4123", 0);
		put_aged(names[3], "v=1\nid=5123", 61);
		/* Stop's marks: one no login took for a day, and one just made. */
		put_aged(".7123456789abcdef.stopped", "", RECORD_MARK_MAX_S + 1);
		put_aged(".8123456789abcdef.stopped", "", 0);
		struct record_pending ending = { .dir = dup(dir), .published = true };
		snprintf(ending.id, sizeof(ending.id), "6123456789abcdef");
		record_end(&ending, NULL);
		tap_ok(present(".1123456789abcdef.new"), "the sweep leaves a record being "
		       "written of a pid that is gone");
		tap_ok(present(names[2]), "and one being written that is not whole yet");
		tap_ok(!present(names[0]), "it removes a published record of a pid that is gone");
		tap_ok(!present(names[1]) && !present(names[3]), "and those being written for "
		       "a minute, whole or not");
		tap_ok(present("0123456789abcdef"), "a live session's record stays");
		tap_ok(!present(".7123456789abcdef.stopped") &&
		       present(".8123456789abcdef.stopped"),
		       "a mark of stop's no login took in a day goes, a new one stays");
		unlinkat(dir, ".8123456789abcdef.stopped", 0);

		/* Stop marks a login whose record is there; one whose login has
		 * ended (its record gone) gets none, as nobody would take it. */
		tap_ok(record_mark_stopped(dir, "0123456789abcdef", &err) == 1 &&
		       present(".0123456789abcdef.stopped"),
		       "stop's mark: a login with a record is marked");
		record_unmark_stopped(dir, "0123456789abcdef");
		tap_ok(!present(".0123456789abcdef.stopped"), "and unmarked when the kill fails");
		tap_ok(record_mark_stopped(dir, "9123456789abcdef", &err) == 0 &&
		       !present(".9123456789abcdef.stopped"),
		       "a login whose record is gone is left unmarked");
		tap_ok(record_mark_stopped(dir, "../x", &err) < 0, "a mark is for an id only");
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			unlinkat(dir, names[i], 0);
		unlinkat(dir, ".1123456789abcdef.new", 0);
		free(live);
		free(gone);
	}

	/* Prefixes. */
	struct record_list list = { 0 };
	struct live_record *a = ARRAY_PUSH(list.items, list.count, list.cap);
	memset(a, 0, sizeof(*a));
	snprintf(a->id, sizeof(a->id), "aaaaaaaa11");
	struct live_record *b = ARRAY_PUSH(list.items, list.count, list.cap);
	memset(b, 0, sizeof(*b));
	snprintf(b->id, sizeof(b->id), "aaaaaaaa22");
	const struct live_record *found;
	tap_ok(records_find(&list, "aaaaaaa", &found, &err) < 0 &&
	       strstr(err.msg, "at least 8"), "a prefix under 8 characters is refused");
	tap_ok(records_find(&list, "aaaaaaaa", &found, &err) < 0 &&
	       strstr(err.msg, "more than one"), "an ambiguous prefix is refused");
	tap_ok(records_find(&list, "aaaaaaaa2", &found, &err) == 0 && found == b,
	       "a unique prefix names its session");

	/* The identity check: this live process under wrong namespace inodes,
	 * and a child that has ended. */
	b->pid = getpid();
	b->start_ticks = 1;
	int pidfd = -1;
	tap_ok(record_attach(b, &pidfd, &err) == 0 && pidfd < 0 &&
	       strstr(err.msg, "another process now"), "a live pid that does not match is stale");
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	b->pid = child;
	tap_ok(record_attach(b, &pidfd, &err) == 0 && pidfd < 0, "an ended pid is stale");
	records_free(&list);

	/* Whether a session's first process is over: a live one is not (at
	 * once, not after waiting), one that has ended is, reaped or not. */
	int ready[2];
	if (pipe(ready) < 0)
		abort();
	child = fork();
	if (child == 0) {
		char c;
		close(ready[1]);
		_exit(read(ready[0], &c, 1) == 1 ? 0 : 1);
	}
	close(ready[0]);
	pidfd = sys_pidfd_open(child, 0);
	time_t began = time(NULL);
	tap_ok(pidfd >= 0 && !record_process_over(child, pidfd) && time(NULL) - began < 1,
	       "a live first process is not over");
	if (write(ready[1], "x", 1) != 1)
		abort();
	close(ready[1]);
	siginfo_t info;
	waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT);
	tap_ok(record_process_over(child, pidfd), "one that has ended is over");
	waitpid(child, NULL, 0);
	tap_ok(record_process_over(child, pidfd), "and still once reaped");
	close(pidfd);

	free(text);
	unlinkat(dir, "0123456789abcdef", 0);
	close(dir);
	rmdir(dir_path);
	return tap_done();
}
