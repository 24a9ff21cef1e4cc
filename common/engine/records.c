// SPDX-License-Identifier: GPL-2.0-or-later
/* Live session records: written, read, listed and removed, as root. */
/* Live session records (records.h): written and read as root, through a
 * descriptor of the record directory, never following a symlink. */
#include "records.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "fault.h"
#include "plan_values.h"
#include "sandbox_share.h"
#include "trusted_file.h"
#include "syscalls.h"
#include "util.h"

#define RECORD_MAX 16384
/* Bits of the keys every record has (parse_field's first fifteen). */
#define RECORD_KEYS_NEEDED ((1u << 15) - 1)
/* How long a writer may take from record_prepare to record_publish. */
#define RECORD_WRITE_MAX_S 60
/* How long a process already in its exit is given to end. */
#define RECORD_EXIT_WAIT_MS 1000

int record_session_id_new(char id[33], struct cc_error *err)
{
	unsigned char raw[16];
	size_t got = 0;
	while (got < sizeof(raw)) {
		ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);
		if (n < 0 && errno != EINTR)
			return cc_fail_errno(err, "getrandom");
		got += n > 0 ? (size_t)n : 0;
	}
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(id + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* An id is also a file name: lower-case hex only. */
static bool id_valid(const char *id)
{
	size_t n = strspn(id, "0123456789abcdef");
	return n >= RECORD_PREFIX_MIN && n <= RECORD_ID_MAX && id[n] == '\0';
}

int record_dir_open(bool create, struct cc_error *err)
{
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", COCOON_RUNDIR);
	char *slash = strrchr(parent, '/');
	const char *name = slash + 1;
	*slash = '\0';
	if (path_trusted(*parent ? parent : "/", err) < 0)
		return cc_prefix(err, "session records");
	int up AUTOCLOSE = open(*parent ? parent : "/", O_PATH | O_DIRECTORY | O_NOFOLLOW |
				O_CLOEXEC);
	if (up < 0)
		return cc_fail_errno(err, "session records: %s", parent);
	/* Only root writes the parent (checked): what mkdirat made is still
	 * what openat finds. */
	bool made = create && mkdirat(up, name, 0700) == 0;
	int fd AUTOCLOSE = openat(up, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && !create && errno == ENOENT)
		return cc_fail(err, "no session records (%s does not exist)", COCOON_RUNDIR);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		return cc_fail(err, "%s is not a directory (a symlink?): refusing it",
			       COCOON_RUNDIR);
	if (fd < 0)
		return cc_fail_errno(err, "session records: %s", COCOON_RUNDIR);
	struct stat st;
	if (made && (fchown(fd, 0, 0) < 0 || fchmod(fd, 0700) < 0))
		return cc_fail_errno(err, "session records: %s", COCOON_RUNDIR);
	if (fstat(fd, &st) < 0)
		return cc_fail_errno(err, "session records: %s", COCOON_RUNDIR);
	if (st.st_uid != 0 || (st.st_mode & 07777) != 0700)
		return cc_fail(err, "%s must be root's with mode 0700 (it is uid %u, mode "
			       "%04o): refusing its records", COCOON_RUNDIR,
			       (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return steal_fd(&fd);
}

/* ---- Facts about a live process, read while a pidfd pins it ---- */

struct proc_facts {
	unsigned long long start_ticks, pidns, mntns;
	bool zombie;
	bool exiting; /* in its exit, never to run its code again */
};

/* PF_EXITING of the flags in /proc/PID/stat: set as exit begins, before
 * the namespaces go (whose links then fail) and long before a zombie. */
#define PROC_FLAG_EXITING 0x4ull

static int read_facts(pid_t pid, struct proc_facts *f, struct cc_error *err)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd AUTOCLOSE = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return cc_fail_errno(err, "%s", path);
	buf[n] = '\0';
	/* The name in parentheses may hold anything: fields start after the
	 * last ')'. Field 3 is the state, field 22 the start time. */
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return cc_fail(err, "%s: cannot parse it", path);
	f->zombie = p[2] == 'Z' || p[2] == 'X';
	/* An ended process has no namespaces left to read: stale as it is. */
	if (f->zombie)
		return 0;
	p += 2;
	unsigned long long flags = 0;
	for (int field = 3; field < 22 && p; field++) {
		if ((p = strchr(p, ' ')))
			p++;
		if (p && field + 1 == 9 && sscanf(p, "%llu", &flags) != 1)
			p = NULL;
	}
	f->exiting = flags & PROC_FLAG_EXITING;
	if (!p || sscanf(p, "%llu", &f->start_ticks) != 1)
		return cc_fail(err, "%s: no start time", path);
	const char *names[] = { "pid", "mnt" };
	unsigned long long *inodes[] = { &f->pidns, &f->mntns };
	for (size_t i = 0; i < 2; i++) {
		struct stat st;
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, names[i]);
		if (stat(path, &st) < 0)
			return cc_fail_errno(err, "%s", path);
		*inodes[i] = (unsigned long long)st.st_ino;
	}
	return 0;
}

bool record_process_over(pid_t pid, int pidfd)
{
	struct pollfd ended = { pidfd, POLLIN, 0 };
	if (poll(&ended, 1, 0) == 1)
		return true;
	/* Half way through its exit, its namespaces may be gone already
	 * (the facts fail, but not before its flags are read): it is a
	 * zombie within moments, having run nothing more. */
	struct proc_facts f = { 0 };
	struct cc_error ignored;
	read_facts(pid, &f, &ignored);
	return f.exiting && poll(&ended, 1, RECORD_EXIT_WAIT_MS) == 1;
}

/* ---- Writing ---- */

/* key=value with backslash and newline escaped, so a value is one line. */
static void add_line(struct strbuf *sb, const char *key, const char *value)
{
	sb_addf(sb, "%s=", key);
	for (const char *p = value ? value : ""; *p; p++)
		if (*p == '\\' || *p == '\n')
			sb_addf(sb, "\\%c", *p == '\n' ? 'n' : '\\');
		else
			sb_addn(sb, p, 1);
	sb_addf(sb, "\n");
}

static void format_record(const struct live_record *r, struct strbuf *sb)
{
	char ns[128];
	plan_ns_format(r->namespaces, ns, sizeof(ns));
	sb_addf(sb, "v=%d\n", RECORD_VERSION);
	add_line(sb, "id", r->id);
	add_line(sb, "user", r->user);
	sb_addf(sb, "uid=%u\ngid=%u\n", (unsigned)r->uid, (unsigned)r->gid);
	add_line(sb, "service", r->service);
	sb_addf(sb, "started=%lld\nboottime=%lld\n", r->started, r->boottime);
	add_line(sb, "rule", r->rule);
	add_line(sb, "profile", r->profile);
	add_line(sb, "plan", r->hash);
	add_line(sb, "ns", ns);
	sb_addf(sb, "pid=%d\nstart=%llu\npidns=%llu\nmntns=%llu\n", (int)r->pid,
		r->start_ticks, r->pidns, r->mntns);
	sb_addf(sb, "ptys=%u\n", r->ptys);
	if (r->shared[0])
		add_line(sb, "shared", r->shared);
}

static void temp_name(char *buf, size_t size, const char *id)
{
	snprintf(buf, size, ".%s.new", id);
}

int record_prepare(const struct plan *plan, const char *id, pid_t pid, int pidfd,
		   unsigned ptys, struct record_pending *pending, struct cc_error *err)
{
	return record_prepare_shared(plan, id, NULL, pid, pidfd, ptys, pending, err);
}

int record_prepare_shared(const struct plan *plan, const char *id, const char *shared,
			  pid_t pid, int pidfd, unsigned ptys,
			  struct record_pending *pending, struct cc_error *err)
{
	pending->dir = -1;
	pending->id[0] = '\0';
	pending->published = false;
	if (!id)
		return 0;
	if (!id_valid(id))
		return cc_fail(err, "session record: the id '%s' is not 8 to 64 "
			       "lower-case hex digits", id);
	if (FAULT("writing the session record", err) < 0)
		return -1;
	struct live_record r = {
		.user = plan->who.user, .uid = plan->who.uid, .gid = plan->who.gid,
		.service = plan->service, .rule = plan->rule, .profile = plan->profile,
		.namespaces = plan->namespaces, .pid = pid, .ptys = ptys,
	};
	snprintf(r.id, sizeof(r.id), "%s", id);
	if (shared && id_valid(shared))
		snprintf(r.shared, sizeof(r.shared), "%s", shared);
	snprintf(r.hash, sizeof(r.hash), "%s", plan->hash);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	r.started = (long long)now.tv_sec;
	clock_gettime(CLOCK_BOOTTIME, &now);
	r.boottime = (long long)now.tv_sec;
	struct proc_facts f = { 0 };
	if (r.pid <= 0 || read_facts(r.pid, &f, err) < 0 || f.zombie ||
	    sys_pidfd_send_signal(pidfd, 0) < 0)
		return cc_fail(err, "session record: the session's first process is gone");
	r.start_ticks = f.start_ticks;
	r.pidns = f.pidns;
	r.mntns = f.mntns;

	int dir AUTOCLOSE = record_dir_open(true, err);
	if (dir < 0)
		return -1;
	struct strbuf sb = { 0 };
	format_record(&r, &sb);
	char tmp[RECORD_ID_MAX + 8];
	temp_name(tmp, sizeof(tmp), id);
	unlinkat(dir, tmp, 0);
	int fd AUTOCLOSE = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				  O_CLOEXEC, 0600);
	int rc = fd < 0 || fchmod(fd, 0600) < 0 || write_full(fd, sb.data, sb.len) < 0
			 ? -1 : 0;
	if (rc < 0) {
		cc_fail_errno(err, "writing the session record %s/%s", COCOON_RUNDIR, id);
		unlinkat(dir, tmp, 0);
	} else {
		pending->dir = steal_fd(&dir);
		snprintf(pending->id, sizeof(pending->id), "%s", id);
	}
	sb_free(&sb);
	return rc;
}

int record_publish(struct record_pending *pending, struct cc_error *err)
{
	if (pending->dir < 0)
		return 0;
	char tmp[RECORD_ID_MAX + 8];
	temp_name(tmp, sizeof(tmp), pending->id);
	if (renameat(pending->dir, tmp, pending->dir, pending->id) < 0) {
		cc_fail_errno(err, "writing the session record %s/%s", COCOON_RUNDIR,
			      pending->id);
		record_discard(pending);
		return -1;
	}
	pending->published = true;
	return 0;
}

static void unlink_unpublished(const struct record_pending *pending)
{
	if (pending->published)
		return;
	char tmp[RECORD_ID_MAX + 8];
	temp_name(tmp, sizeof(tmp), pending->id);
	unlinkat(pending->dir, tmp, 0);
}

void record_discard(struct record_pending *pending)
{
	if (pending->dir < 0)
		return;
	unlink_unpublished(pending);
	close(pending->dir);
	pending->dir = -1;
}

static int read_named(int dir, const char *name, const char *id,
		      struct live_record *rec, struct cc_error *err);

/* The record ID of a directory entry NAME if it is one: a published
 * record ("ID") or one prepared but never published (".ID.new":
 * record_prepare, then the writer killed before record_publish). */
static bool entry_id(const char *name, char id[RECORD_ID_MAX + 1])
{
	size_t n = strlen(name);
	if (name[0] != '.') {
		if (n > RECORD_ID_MAX)
			return false;
		memcpy(id, name, n + 1);
	} else {
		if (n < 5 || n - 5 > RECORD_ID_MAX || strcmp(name + n - 4, ".new") != 0)
			return false;
		memcpy(id, name + 1, n - 5);
		id[n - 5] = '\0';
	}
	return id_valid(id);
}

/* Remove the file NAME in DIR, REC's, when REC's session is gone.
 * record_attach's answer, the live session's pidfd closed. */
static int remove_if_stale(int dir, const char *name, const struct live_record *rec,
			   struct cc_error *err)
{
	int pidfd AUTOCLOSE = -1;
	int rc = record_attach(rec, &pidfd, err);
	if (rc == 0)
		unlinkat(dir, name, 0);
	/* A shared sandbox ends by its pid 1, with nobody to remove its
	 * cgroup and its slot's lock and socket: the sweep does. */
	if (rc == 0 && rec->shared[0] && strcmp(rec->shared, rec->id) == 0) {
		cgroup_remove_left(rec->id);
		share_slot_remove(dir, rec->uid, rec->hash);
	}
	return rc;
}

int record_remove_if_stale(int dir, const struct live_record *rec, struct cc_error *err)
{
	return remove_if_stale(dir, rec->id, rec, err);
}

/* Whether the file NAME in DIR is one being written (".ID.new") by a
 * writer that may still be at it. Its writer publishes or removes it
 * itself, even when its session ends first (a command that exits at once
 * does, before its record is published): taken from under it, its publish
 * would fail, and a read while it is written may see half a record. Only
 * one left by a writer killed half way is the sweep's: a writer is done
 * within milliseconds, not minutes. */
static bool being_written(int dir, const char *name)
{
	struct stat st;
	if (name[0] != '.')
		return false;
	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
	       time(NULL) - st.st_mtime <= RECORD_WRITE_MAX_S;
}

/* cocoonctl stop's mark on ID, ".ID.stopped", made under the name
 * ".ID.stopping" first: a login takes only the first, so one that
 * removes its record and looks while stop is still checking for that
 * record finds nothing (records.h). */
#define MARK_SUFFIX ".stopped"
#define MARK_PENDING_SUFFIX ".stopping"
#define MARK_NAME_MAX (RECORD_ID_MAX + sizeof(MARK_PENDING_SUFFIX) + 1)

static void mark_name(char *buf, size_t size, const char *id, const char *suffix)
{
	snprintf(buf, size, ".%s%s", id, suffix);
}

int record_mark_stopped(int dir, const char *id, struct cc_error *err)
{
	char pending[MARK_NAME_MAX], name[MARK_NAME_MAX];
	if (!id_valid(id))
		return cc_fail(err, "marking the session %s stopped: not an id", id);
	mark_name(pending, sizeof(pending), id, MARK_PENDING_SUFFIX);
	mark_name(name, sizeof(name), id, MARK_SUFFIX);
	int fd AUTOCLOSE = openat(dir, pending, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return cc_fail_errno(err, "marking the session %s stopped", id);
	struct stat st;
	if (fstatat(dir, id, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    renameat(dir, pending, dir, name) == 0)
		return 1;
	unlinkat(dir, pending, 0);
	return 0;
}

void record_unmark_stopped(int dir, const char *id)
{
	char name[MARK_NAME_MAX];
	mark_name(name, sizeof(name), id, MARK_SUFFIX);
	unlinkat(dir, name, 0);
}

bool record_stopped_take(const char *id)
{
	struct cc_error err;
	char name[MARK_NAME_MAX];
	if (!id || !id_valid(id))
		return false;
	int dir AUTOCLOSE = record_dir_open(false, &err);
	mark_name(name, sizeof(name), id, MARK_SUFFIX);
	return dir >= 0 && unlinkat(dir, name, 0) == 0;
}

static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n > k && strcmp(name + n - k, suffix) == 0;
}

/* A mark of stop's that no login took in RECORD_MARK_MAX_S: its
 * login's service was killed before it could, or its first login had
 * left a lingering sandbox (or stop was killed between its two names). */
static bool mark_forgotten(int dir, const char *name)
{
	struct stat st;
	return name[0] == '.' &&
	       (ends_with(name, MARK_SUFFIX) || ends_with(name, MARK_PENDING_SUFFIX)) &&
	       fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       time(NULL) - st.st_mtime > RECORD_MARK_MAX_S;
}

/* Remove every published record whose session is gone, every one left
 * unpublished by a writer long gone, and every mark long forgotten. */
static void sweep_stale(int dir)
{
	DIR *d AUTOCLOSEDIR = dir_stream(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char id[RECORD_ID_MAX + 1];
		struct live_record rec;
		struct cc_error err;
		if (mark_forgotten(dir, e->d_name))
			unlinkat(dir, e->d_name, 0);
		if (!entry_id(e->d_name, id) || being_written(dir, e->d_name))
			continue;
		if (read_named(dir, e->d_name, id, &rec, &err) < 0) {
			/* Never finished: its writer was killed half way. */
			if (e->d_name[0] == '.')
				unlinkat(dir, e->d_name, 0);
			continue;
		}
		remove_if_stale(dir, e->d_name, &rec, &err);
		record_free(&rec);
	}
}

/* The record ID in DIR, then every stale one. */
static void remove_in(int dir, const char *id)
{
	unlinkat(dir, id, 0);
	/* A session whose every process was killed (its service with
	 * SIGKILL, a crash) had nobody to remove its record: whoever ends a
	 * session next does, so none lingers until the next `list`. */
	sweep_stale(dir);
}

void record_remove(const char *id)
{
	struct cc_error err;
	if (!id || !id_valid(id))
		return;
	int dir AUTOCLOSE = record_dir_open(false, &err);
	if (dir >= 0)
		remove_in(dir, id);
}

void record_end(struct record_pending *pending, const char *id)
{
	if (pending->dir < 0) {
		record_remove(id);
		return;
	}
	unlink_unpublished(pending);
	remove_in(pending->dir, pending->id);
	close(pending->dir);
	pending->dir = -1;
}

/* ---- Reading ---- */

static char *unescape(const char *v)
{
	char *out = xstrdup(v), *o = out;
	for (const char *p = v; *p; p++)
		*o++ = *p == '\\' && p[1] ? (*++p == 'n' ? '\n' : *p) : *p;
	*o = '\0';
	return out;
}

static int parse_number(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || n > max)
		return -1;
	*out = n;
	return 0;
}

static int parse_field(struct live_record *r, const char *key, const char *v,
		       unsigned *seen)
{
	/* The first RECORD_KEYS_NEEDED are in every record; ptys came
	 * later. */
	static const char *const keys[] = { "id", "user", "uid", "gid", "service",
		"started", "boottime", "rule", "profile", "plan", "ns", "pid",
		"start", "pidns", "mntns", "ptys", "shared" };
	size_t k;
	for (k = 0; k < ARRAY_SIZE(keys); k++)
		if (strcmp(key, keys[k]) == 0)
			break;
	if (k == ARRAY_SIZE(keys))
		return 0; /* a later minor addition: ignored */
	if (*seen & (1u << k))
		return -1;
	*seen |= 1u << k;
	unsigned long long n = 0;
	switch (k) {
	case 0:
		if (!id_valid(v))
			return -1;
		snprintf(r->id, sizeof(r->id), "%s", v);
		return 0;
	case 16:
		if (!id_valid(v))
			return -1;
		snprintf(r->shared, sizeof(r->shared), "%s", v);
		return 0;
	case 1: r->user = unescape(v); return 0;
	case 4: r->service = unescape(v); return 0;
	case 7: r->rule = unescape(v); return 0;
	case 8: r->profile = *v ? unescape(v) : NULL; return 0;
	case 9:
		if (strlen(v) >= sizeof(r->hash))
			return -1;
		snprintf(r->hash, sizeof(r->hash), "%s", v);
		return 0;
	case 10: {
		char *copy AUTOFREE = xstrdup(v);
		char *words[8];
		size_t count = 0;
		for (char *save = NULL, *w = strtok_r(copy, " ", &save); w && count < 8;
		     w = strtok_r(NULL, " ", &save))
			words[count++] = w;
		struct cc_error ignored;
		return plan_parse_namespaces(words, count, &r->namespaces, &ignored);
	}
	}
	bool signed_time = k == 5 || k == 6;
	if (parse_number(v, signed_time ? LLONG_MAX : k == 11 ? INT_MAX :
			 k == 2 || k == 3 ? UINT_MAX : k == 15 ? PTY_COUNT_LIMIT :
			 ULLONG_MAX, &n) < 0 || (k == 15 && n == 0))
		return -1;
	switch (k) {
	case 2: r->uid = (uid_t)n; break;
	case 3: r->gid = (gid_t)n; break;
	case 5: r->started = (long long)n; break;
	case 6: r->boottime = (long long)n; break;
	case 11: r->pid = (pid_t)n; break;
	case 12: r->start_ticks = n; break;
	case 13: r->pidns = n; break;
	case 14: r->mntns = n; break;
	case 15: r->ptys = (unsigned)n; break;
	}
	return 0;
}

static int parse_record(char *text, struct live_record *r, const char *name,
			struct cc_error *err)
{
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	if (!line || strcmp(line, "v=1") != 0)
		return cc_fail(err, "%s/%s: not a version %d session record", COCOON_RUNDIR,
			       name, RECORD_VERSION);
	unsigned seen = 0;
	int lineno = 1;
	while ((line = strtok_r(NULL, "\n", &save))) {
		lineno++;
		char *eq = strchr(line, '=');
		if (!eq)
			return cc_fail(err, "%s/%s:%d: not key=value", COCOON_RUNDIR, name,
				       lineno);
		*eq = '\0';
		if (parse_field(r, line, eq + 1, &seen) < 0)
			return cc_fail(err, "%s/%s:%d: bad or repeated %s", COCOON_RUNDIR,
				       name, lineno, line);
	}
	if ((seen & RECORD_KEYS_NEEDED) != RECORD_KEYS_NEEDED)
		return cc_fail(err, "%s/%s: fields are missing", COCOON_RUNDIR, name);
	if (!r->ptys)
		r->ptys = RECORD_PTYS_BEFORE;
	if (strcmp(r->id, name) != 0)
		return cc_fail(err, "%s/%s: holds the id %s", COCOON_RUNDIR, name, r->id);
	return 0;
}

/* The record in file NAME, which must hold the id ID. */
static int read_named(int dir, const char *name, const char *id,
		      struct live_record *rec, struct cc_error *err)
{
	memset(rec, 0, sizeof(*rec));
	int fd AUTOCLOSE = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "%s/%s", COCOON_RUNDIR, name);
	struct stat st;
	char *text AUTOFREE = xmalloc(RECORD_MAX + 1);
	ssize_t n = -1;
	int rc = -1;
	if (fstat(fd, &st) < 0)
		cc_fail_errno(err, "%s/%s", COCOON_RUNDIR, name);
	else if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 07777) != 0600)
		cc_fail(err, "%s/%s is not a regular file of root's with mode 0600 "
			"(uid %u, mode %04o): refusing it", COCOON_RUNDIR, name,
			(unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	else if ((n = read(fd, text, RECORD_MAX + 1)) < 0)
		cc_fail_errno(err, "%s/%s", COCOON_RUNDIR, name);
	else if (n > RECORD_MAX)
		cc_fail(err, "%s/%s: too large for a record", COCOON_RUNDIR, name);
	else {
		text[n] = '\0';
		rc = parse_record(text, rec, id, err);
	}
	if (rc < 0)
		record_free(rec);
	return rc;
}

int record_read(int dir, const char *name, struct live_record *rec,
		struct cc_error *err)
{
	return read_named(dir, name, name, rec, err);
}

void record_free(struct live_record *rec)
{
	free(rec->user);
	free(rec->service);
	free(rec->rule);
	free(rec->profile);
	memset(rec, 0, sizeof(*rec));
}

/* ---- The identity check ---- */

int record_attach(const struct live_record *rec, int *pidfd,
		  struct cc_error *err)
{
	*pidfd = -1;
	int fd AUTOCLOSE = sys_pidfd_open(rec->pid, 0);
	if (fd < 0 && errno == ESRCH)
		return cc_fail(err, "no process has pid %d any more", (int)rec->pid), 0;
	if (fd < 0)
		return cc_fail_errno(err, "pidfd_open %d", (int)rec->pid);
	/* The pidfd pins the process: while it lives, /proc/PID is its. */
	struct proc_facts f;
	struct cc_error why;
	int rc = 0;
	if (read_facts(rec->pid, &f, &why) < 0) {
		cc_fail(err, "pid %d: %s", (int)rec->pid, why.msg);
		/* Unknown, not stale, while it lives: a passing failure (out of
		 * descriptors, say) must not cost a live session its record. */
		if (sys_pidfd_send_signal(fd, 0) == 0)
			rc = -1;
	} else if (f.zombie)
		cc_fail(err, "pid %d has ended", (int)rec->pid);
	else if (f.start_ticks != rec->start_ticks || f.pidns != rec->pidns ||
		 f.mntns != rec->mntns)
		cc_fail(err, "pid %d is another process now (start time %llu, pid "
			"namespace %llu, mount namespace %llu; the record says %llu, "
			"%llu, %llu)", (int)rec->pid, f.start_ticks, f.pidns, f.mntns,
			rec->start_ticks, rec->pidns, rec->mntns);
	else if (sys_pidfd_send_signal(fd, 0) < 0)
		cc_fail(err, "pid %d ended while being checked", (int)rec->pid);
	else
		rc = 1;
	if (rc == 1)
		*pidfd = steal_fd(&fd);
	return rc;
}

/* ---- The directory ---- */

static int by_start(const void *a, const void *b)
{
	const struct live_record *x = a, *y = b;
	return x->boottime < y->boottime ? -1 : x->boottime > y->boottime;
}

/* A stream over the records directory DIR, which stays open. */
static DIR *records_open(int dir, struct cc_error *err)
{
	DIR *d = dir_stream(dir);
	if (!d)
		cc_fail_errno(err, "reading %s", COCOON_RUNDIR);
	return d;
}

int records_load(int dir, struct record_list *list,
		 void (*bad)(const char *name, const struct cc_error *err),
		 struct cc_error *err)
{
	DIR *d AUTOCLOSEDIR = records_open(dir, err);
	if (!d)
		return -1;
	struct dirent *e;
	while ((errno = 0, e = readdir(d))) {
		/* Dot files are records being written. */
		if (e->d_name[0] == '.')
			continue;
		struct live_record rec;
		struct cc_error why;
		if (!id_valid(e->d_name))
			cc_fail(&why, "%s/%s: not a session record's name", COCOON_RUNDIR,
				e->d_name);
		if (!id_valid(e->d_name) || record_read(dir, e->d_name, &rec, &why) < 0) {
			if (bad)
				bad(e->d_name, &why);
			continue;
		}
		*ARRAY_PUSH(list->items, list->count, list->cap) = rec;
	}
	int rc = errno ? cc_fail_errno(err, "reading %s", COCOON_RUNDIR) : 0;
	if (list->count)
		qsort(list->items, list->count, sizeof(*list->items), by_start);
	return rc;
}

void records_free(struct record_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		record_free(&list->items[i]);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

int records_ptys_held(int dir, uid_t uid, unsigned long long *ptys, size_t *sessions,
		      struct cc_error *err)
{
	*ptys = 0;
	*sessions = 0;
	DIR *d AUTOCLOSEDIR = records_open(dir, err);
	if (!d)
		return -1;
	struct dirent *e;
	while ((errno = 0, e = readdir(d))) {
		char id[RECORD_ID_MAX + 1];
		struct live_record rec;
		struct cc_error why;
		/* One that cannot be read is no session's: records are written
		 * whole before anyone but their writer, who holds the user's
		 * lock, looks for them (a half-written one is another user's). */
		if (!entry_id(e->d_name, id) || read_named(dir, e->d_name, id, &rec, &why) < 0)
			continue;
		int pidfd AUTOCLOSE = -1;
		bool joined = rec.shared[0] && strcmp(rec.shared, rec.id) != 0;
		if (rec.uid == uid && !joined && record_attach(&rec, &pidfd, &why) != 0) {
			*ptys += rec.ptys;
			(*sessions)++;
		}
		record_free(&rec);
	}
	int rc = errno ? cc_fail_errno(err, "reading %s", COCOON_RUNDIR) : 0;
	return rc;
}

int records_find(const struct record_list *list, const char *prefix,
		 const struct live_record **out, struct cc_error *err)
{
	size_t len = strlen(prefix);
	if (len < RECORD_PREFIX_MIN)
		return cc_fail(err, "'%s': give at least %d characters of the id",
			       prefix, RECORD_PREFIX_MIN);
	*out = NULL;
	for (size_t i = 0; i < list->count; i++) {
		if (strncmp(list->items[i].id, prefix, len) != 0)
			continue;
		if (*out)
			return cc_fail(err, "'%s' names more than one session", prefix);
		*out = &list->items[i];
	}
	return *out ? 0 : cc_fail(err, "no session has an id starting with '%s'", prefix);
}
