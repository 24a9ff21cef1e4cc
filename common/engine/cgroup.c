// SPDX-License-Identifier: GPL-2.0-or-later
/* The session's own cgroup: made, limited, joined, signalled and removed. */
#include "cgroup.h"
#include "records.h"
#include "fault.h"
#include "syscalls.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define CPU_PERIOD_US 100000ULL

/* One hierarchy the session uses: v2 (all controllers), or a v1 one per
 * controller. */
struct hierarchy {
	char *mount;   /* /sys/fs/cgroup or /sys/fs/cgroup/pids */
	char *dir;     /* mount/cocoon/<id> */
	char *origin;  /* the creator's cgroup there, to go back to */
	int procs;     /* dir/cgroup.procs, O_WRONLY */
	bool v2;
};

struct cgroup {
	pid_t owner;
	struct hierarchy h[3];
	size_t n;
};

static bool fs_is(const char *path, unsigned long magic)
{
	struct statfs st;
	return statfs(path, &st) == 0 && (unsigned long)st.f_type == magic;
}

bool cgroup_under_systemd(void)
{
	struct stat st;
	return lstat("/run/systemd/system", &st) == 0 && S_ISDIR(st.st_mode);
}

static int write_file(const char *dir, const char *name, const char *text,
		      struct cc_error *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd AUTOCLOSE = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "cgroup: %s", path);
	ssize_t n = write(fd, text, strlen(text));
	if (n != (ssize_t)strlen(text))
		return cc_fail_errno(err, "cgroup: writing '%s' to %s", text, path);
	return 0;
}

/* A whole small file (a cgroup's process list, its controllers), or
 * NULL. */
static char *read_small(const char *path)
{
	FILE *f AUTOFCLOSE = fopen(path, "re");
	if (!f)
		return NULL;
	struct strbuf sb = { 0 };
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sb_addn(&sb, chunk, n);
	return sb.data ? sb.data : xstrdup("");
}

/* WORD in a space-separated list. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && *p;) {
		p += strspn(p, " \n");
		size_t len = strcspn(p, " \n");
		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len;
	}
	return false;
}

/* The controllers the limits need: "memory", "pids", "cpu". */
static size_t needed(const struct session_limits *l, const char *names[3])
{
	size_t n = 0;
	if (l->memory_max)
		names[n++] = "memory";
	if (l->pids_max)
		names[n++] = "pids";
	if (l->cpu_max_percent)
		names[n++] = "cpu";
	return n;
}

/* A v2 hierarchy at the root offering every needed controller. */
static bool v2_usable(const char *const *names, size_t n)
{
	if (!fs_is(CGROUP_ROOT, CGROUP2_SUPER_MAGIC))
		return false;
	char *ctl = read_small(CGROUP_ROOT "/cgroup.controllers");
	bool ok = ctl != NULL;
	for (size_t i = 0; ok && i < n; i++)
		ok = has_word(ctl, names[i]);
	free(ctl);
	return ok;
}

/* A v1 hierarchy with CONTROLLER, at CGROUP_ROOT/CONTROLLER. */
static bool v1_usable(const char *controller)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), CGROUP_ROOT "/%s", controller);
	return fs_is(path, CGROUP_SUPER_MAGIC);
}

int cgroup_check_available(const struct session_limits *limits,
			   struct cc_error *err)
{
	const char *names[3];
	size_t n = needed(limits, names);
	if (n == 0 || v2_usable(names, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!v1_usable(names[i]))
			return cc_fail(err, "no usable cgroup hierarchy has the %s "
				       "controller (neither cgroup v2 at %s nor v1 at "
				       "%s/%s)", names[i], CGROUP_ROOT, CGROUP_ROOT,
				       names[i]);
	return 0;
}

/* The creator's cgroup in hierarchy H ("0::/x" for v2, "N:pids:/x" or
 * "N:cpu,cpuacct:/x" for v1), from /proc/self/cgroup. */
static char *own_cgroup(const char *controller)
{
	char *text = read_small("/proc/self/cgroup");
	char *found = NULL;
	for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL;
	     line && !found; line = strtok_r(NULL, "\n", &save)) {
		char *ctl = strchr(line, ':');
		char *path = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		ctl++;
		bool match = controller ? false : strcmp(line, "0") == 0 && !*ctl;
		for (char *s2 = NULL, *c = controller ? strtok_r(ctl, ",", &s2) : NULL;
		     c && !match; c = strtok_r(NULL, ",", &s2))
			match = strcmp(c, controller) == 0;
		if (match)
			found = xstrdup(path);
	}
	free(text);
	return found ? found : xstrdup("/");
}

static int make_dir(const char *path, struct cc_error *err)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return cc_fail_errno(err, "cgroup: mkdir %s", path);
	return 0;
}

/* The limits a hierarchy's controllers take (all of them on v2). */
static int set_limits(const struct hierarchy *h, const char *controller,
		      const struct session_limits *l, struct cc_error *err)
{
	char v[64];
	bool all = h->v2;
	if (l->memory_max && (all || strcmp(controller, "memory") == 0)) {
		snprintf(v, sizeof(v), "%llu", l->memory_max);
		if (write_file(h->dir, h->v2 ? "memory.max" : "memory.limit_in_bytes",
			       v, err) < 0)
			return -1;
		/* No escape into swap, where the host still pays (the files
		 * exist only where swap accounting is on). */
		const char *swap = h->v2 ? "memory.swap.max" : "memory.memsw.limit_in_bytes";
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", h->dir, swap);
		if (access(path, F_OK) == 0 &&
		    write_file(h->dir, swap, h->v2 ? "0" : v, err) < 0)
			return -1;
	}
	if (l->pids_max && (all || strcmp(controller, "pids") == 0)) {
		snprintf(v, sizeof(v), "%llu", l->pids_max);
		if (write_file(h->dir, "pids.max", v, err) < 0)
			return -1;
	}
	if (l->cpu_max_percent && (all || strcmp(controller, "cpu") == 0)) {
		unsigned long long quota = l->cpu_max_percent * CPU_PERIOD_US / 100;
		if (h->v2) {
			snprintf(v, sizeof(v), "%llu %llu", quota, CPU_PERIOD_US);
			return write_file(h->dir, "cpu.max", v, err);
		}
		snprintf(v, sizeof(v), "%llu", CPU_PERIOD_US);
		if (write_file(h->dir, "cpu.cfs_period_us", v, err) < 0)
			return -1;
		snprintf(v, sizeof(v), "%llu", quota);
		return write_file(h->dir, "cpu.cfs_quota_us", v, err);
	}
	return 0;
}

/* MOUNT/cocoon/ID, with the v2 controllers enabled on the way down. */
/* A session whose creating process was killed (sshd's monitor, say)
 * never removes its cgroup: pid 1 ends with the service, the directory
 * stays. Sessions starting later remove such leftovers: empty, and older
 * than any setup can take (a cgroup being set up is empty at first). */
#define STALE_CGROUP_AGE 120
static void sweep_stale(const char *parent)
{
	DIR *d AUTOCLOSEDIR = opendir(parent);
	if (!d)
		return;
	time_t now = time(NULL);
	for (struct dirent *e; (e = readdir(d));) {
		struct stat st;
		char procs[16];
		if (e->d_name[0] == '.' || e->d_type != DT_DIR ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    now - st.st_mtime < STALE_CGROUP_AGE)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/cgroup.procs", e->d_name);
		int fd AUTOCLOSE = openat(dirfd(d), path, O_RDONLY | O_CLOEXEC);
		ssize_t got = fd < 0 ? -1 : read(fd, procs, sizeof(procs));
		if (got == 0) /* rmdir refuses a cgroup that gained a member */
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	}
}

static int add_hierarchy(struct cgroup *cg, const char *mount, bool v2,
			 const char *controller, const char *const *names,
			 size_t n, const char *id, const struct session_limits *l,
			 struct cc_error *err)
{
	struct hierarchy *h = &cg->h[cg->n];
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s/cocoon", mount);
	sweep_stale(parent);
	*h = (struct hierarchy){ .mount = xstrdup(mount), .v2 = v2, .procs = -1,
				 .dir = xasprintf("%s/%s", parent, id),
				 .origin = own_cgroup(v2 ? NULL : controller) };
	cg->n++;
	char enable[64] = "";
	for (size_t i = 0; v2 && i < n; i++)
		snprintf(enable + strlen(enable), sizeof(enable) - strlen(enable),
			 "%s+%s", i ? " " : "", names[i]);
	/* The last session to end removes the shared parent; one starting
	 * meanwhile finds it gone (ENOENT) and makes it again. */
	int made = -1;
	for (int tries = 0; made < 0 && tries < 3; tries++) {
		if (make_dir(parent, err) < 0)
			break;
		if (v2 && (write_file(mount, "cgroup.subtree_control", enable, err) < 0 ||
			   write_file(parent, "cgroup.subtree_control", enable, err) < 0))
			break;
		made = mkdir(h->dir, 0755);
		if (made < 0 && errno != ENOENT) {
			cc_fail_errno(err, "cgroup: mkdir %s", h->dir);
			break;
		}
		if (made < 0)
			cc_fail_errno(err, "cgroup: mkdir %s", h->dir);
	}
	if (made < 0) {
		free(h->dir);
		h->dir = NULL; /* not ours: never removed */
		return -1;
	}
	if (set_limits(h, controller, l, err) < 0)
		return -1;
	char procs[PATH_MAX];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", h->dir);
	if ((h->procs = open(procs, O_WRONLY | O_CLOEXEC)) < 0)
		return cc_fail_errno(err, "cgroup: %s", procs);
	return 0;
}

int cgroup_create(const struct session_limits *limits, const char *id,
		  struct cgroup **out, struct cc_error *err)
{
	*out = NULL;
	const char *names[3];
	size_t n = needed(limits, names);
	if (n == 0)
		return 0;
	char made[33];
	if (!id) {
		if (record_session_id_new(made, err) < 0)
			return -1;
		id = made;
	}
	if (strchr(id, '/') || !*id || id[0] == '.')
		return cc_fail(err, "cgroup: bad session id '%s'", id);
	struct cgroup *cg = xcalloc(1, sizeof(*cg));
	cg->owner = getpid();
	int rc = 0;
	if (v2_usable(names, n)) {
		rc = add_hierarchy(cg, CGROUP_ROOT, true, NULL, names, n, id, limits, err);
	} else {
		for (size_t i = 0; rc == 0 && i < n; i++) {
			char mount[PATH_MAX];
			snprintf(mount, sizeof(mount), CGROUP_ROOT "/%s", names[i]);
			rc = v1_usable(names[i])
				? add_hierarchy(cg, mount, false, names[i], names, n, id,
						limits, err)
				: cgroup_check_available(limits, err);
			if (rc == 0)
				rc = FAULT("cgroup", err);
		}
	}
	if (rc < 0) {
		cgroup_destroy(cg);
		return -1;
	}
	*out = cg;
	return 0;
}

/* The hierarchy of one /proc/PID/cgroup line, for a controller limits
 * use: the v2 one ("0::"), or v1's pids, memory or cpu (mounted at its
 * name, alone or first of a joined mount's names as Debian links them). */
static const char *limit_mount(const char *controllers, char *buf, size_t size)
{
	static const char *const used[] = { "pids", "memory", "cpu" };
	for (size_t i = 0; i < ARRAY_SIZE(used); i++) {
		size_t n = strlen(used[i]);
		for (const char *c = controllers; *c;) {
			size_t len = strcspn(c, ",");
			if (len == n && strncmp(c, used[i], n) == 0) {
				snprintf(buf, size, CGROUP_ROOT "/%s", used[i]);
				return buf;
			}
			c += len + (c[len] == ',');
		}
	}
	return NULL;
}

static int move_self(char *text, bool to_roots, struct cc_error *err);

int cgroup_join_pidfd(int pidfd, struct cc_error *err)
{
	pid_t pid = pidfd_pid(pidfd);
	if (pid <= 0)
		return cc_fail(err, "cgroup: the session's pid 1 is gone");
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	char *text = read_small(path);
	/* Read for the process the pidfd holds, not a successor of its pid. */
	if (!text || sys_pidfd_send_signal(pidfd, 0) < 0) {
		free(text);
		return cc_fail(err, "cgroup: the session's pid 1 is gone");
	}
	int rc = move_self(text, false, err);
	free(text);
	return rc;
}

char *cgroup_self(void)
{
	return read_small("/proc/self/cgroup");
}

int cgroup_return(const char *origin, struct cc_error *err)
{
	if (!origin)
		return 0;
	char *text AUTOFREE = xstrdup(origin);
	return move_self(text, true, err);
}

/* Move the calling process into each cgroup TEXT (a /proc/PID/cgroup,
 * taken apart) lists; a hierarchy's root only with TO_ROOTS (joining,
 * a root bounds nothing; going back, the root is where it was). */
static int move_self(char *text, bool to_roots, struct cc_error *err)
{
	int rc = 0;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		/* "ID:CONTROLLERS:PATH"; v2's is "0::PATH". */
		char *ctl = strchr(line, ':');
		char *rel = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!rel || (!to_roots && strcmp(rel + 1, "/") == 0))
			continue;
		*ctl++ = '\0';
		*rel++ = '\0';
		char mount[PATH_MAX], dir[PATH_MAX];
		const char *m = strcmp(line, "0") == 0 && !*ctl
					? (fs_is(CGROUP_ROOT, CGROUP2_SUPER_MAGIC) ? CGROUP_ROOT : NULL)
					: limit_mount(ctl, mount, sizeof(mount));
		if (!m)
			continue;
		snprintf(dir, sizeof(dir), "%s%s", m, rel);
		if (access(dir, F_OK) == 0)
			rc = write_file(dir, "cgroup.procs", "0", err);
	}
	return rc;
}

int cgroup_enter_self(struct cgroup *cg, struct cc_error *err)
{
	for (size_t i = 0; cg && i < cg->n; i++)
		if (write(cg->h[i].procs, "0", 1) != 1)
			return cc_fail_errno(err, "moving the session into its cgroup");
	cgroup_close_procs(cg);
	return 0;
}

void cgroup_close_procs(struct cgroup *cg)
{
	for (size_t i = 0; cg && i < cg->n; i++)
		if (cg->h[i].procs >= 0) {
			close(cg->h[i].procs);
			cg->h[i].procs = -1;
		}
}

int cgroup_leave(struct cgroup *cg, struct cc_error *err)
{
	if (!cg || cg->owner != getpid())
		return 0;
	for (size_t i = 0; i < cg->n; i++) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s%s", cg->h[i].mount, cg->h[i].origin);
		if (write_file(dir, "cgroup.procs", "0", err) < 0)
			return -1;
	}
	return 0;
}

/* Signal SIG to the process PID (text from cgroup.procs) if it is still
 * in H: through a pidfd, checked against its cgroup after it was opened,
 * so a pid reused meanwhile by a process elsewhere is never hit. */
static void signal_member(const struct hierarchy *h, const char *pid_text, int sig)
{
	char *end;
	long pid = strtol(pid_text, &end, 10);
	if (*end || pid <= 1)
		return;
	int pidfd = sys_pidfd_open((pid_t)pid, 0);
	if (pidfd < 0)
		return;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/cgroup", pid);
	char *cgroups = read_small(path);
	const char *rel = h->dir + strlen(h->mount);
	bool inside = false;
	for (char *save = NULL, *line = cgroups ? strtok_r(cgroups, "\n", &save) : NULL;
	     line && !inside; line = strtok_r(NULL, "\n", &save)) {
		const char *colon = strrchr(line, ':');
		inside = colon && strcmp(colon + 1, rel) == 0;
	}
	free(cgroups);
	if (inside)
		sys_pidfd_send_signal(pidfd, sig);
	close(pidfd);
}

bool cgroup_holds(const struct cgroup *cg)
{
	return cg && cg->n && cg->h[0].dir;
}

void cgroup_signal(const struct cgroup *cg, int sig)
{
	if (!cg || !cg->n || !cg->h[0].dir)
		return;
	const struct hierarchy *h = &cg->h[0];
	char procs[PATH_MAX];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", h->dir);
	char *text = read_small(procs);
	for (char *save = NULL, *p = text ? strtok_r(text, "\n", &save) : NULL; p;
	     p = strtok_r(NULL, "\n", &save))
		signal_member(h, p, sig);
	free(text);
}

/* Whatever is still inside: killed (the session is over), and waited
 * for up to two seconds. True once empty. */
static bool drain(const struct hierarchy *h)
{
	char procs[PATH_MAX];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", h->dir);
	for (int round = 0; round < 200; round++) {
		char *text = read_small(procs);
		bool empty = !text || !*text;
		for (char *save = NULL, *p = empty ? NULL : strtok_r(text, "\n", &save);
		     p && round >= 10; p = strtok_r(NULL, "\n", &save))
			signal_member(h, p, SIGKILL);
		free(text);
		if (empty)
			return true;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return false;
}

void cgroup_destroy(struct cgroup *cg)
{
	if (!cg)
		return;
	bool owner = cg->owner == getpid();
	struct cc_error ignored;
	if (owner)
		cgroup_leave(cg, &ignored);
	for (size_t i = 0; i < cg->n; i++) {
		struct hierarchy *h = &cg->h[i];
		if (h->procs >= 0)
			close(h->procs);
		/* v2 kills a whole cgroup at once (5.14 and later). */
		if (owner && h->dir && h->v2)
			write_file(h->dir, "cgroup.kill", "1", &ignored);
		if (owner && h->dir && drain(h) && rmdir(h->dir) == 0) {
			/* The shared parent goes with its last session (EBUSY
			 * while others live). */
			char *parent = xasprintf("%s/cocoon", h->mount);
			rmdir(parent);
			free(parent);
		}
		free(h->mount);
		free(h->dir);
		free(h->origin);
	}
	free(cg);
}

void cgroup_release(struct cgroup *cg)
{
	if (!cg)
		return;
	for (size_t i = 0; i < cg->n; i++) {
		if (cg->h[i].procs >= 0)
			close(cg->h[i].procs);
		free(cg->h[i].mount);
		free(cg->h[i].dir);
		free(cg->h[i].origin);
	}
	free(cg);
}

void cgroup_remove_left(const char *id)
{
	if (!id || !*id || strchr(id, '/') || id[0] == '.')
		return;
	/* v2 at the root, v1 in a directory per hierarchy: rmdir takes only
	 * an empty cgroup, so a live one stays whatever this finds. */
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/cocoon/%s", CGROUP_ROOT, id);
	rmdir(path);
	DIR *d AUTOCLOSEDIR = opendir(CGROUP_ROOT);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cocoon/%s", CGROUP_ROOT, e->d_name, id);
		rmdir(path);
	}
}

/* A limit file's bound: a number ("max" and junk unbounded). */
static unsigned long long plain_bound(const char *text)
{
	char *end;
	unsigned long long v = strtoull(text, &end, 10);
	return end != text ? v : ULLONG_MAX;
}

/* cpu.max's "QUOTA PERIOD" as percent of one CPU ("max ..." unbounded). */
static unsigned long long cpu_bound(const char *text)
{
	unsigned long long quota, period;
	if (sscanf(text, "%llu %llu", &quota, &period) != 2 || !period)
		return ULLONG_MAX;
	return quota * 100 / period;
}

/* The smallest bound of FILE in DIR and its ancestors up to MOUNT, as
 * BOUND reads it (missing files are unbounded). */
static unsigned long long tightest(const char *mount, const char *rel, const char *file,
				   unsigned long long (*bound)(const char *))
{
	unsigned long long best = ULLONG_MAX;
	char *path = xasprintf("%s%s", mount, rel);
	for (;;) {
		char *f = xasprintf("%s/%s", path, file);
		char *text = read_small(f);
		free(f);
		unsigned long long v = text ? bound(text) : ULLONG_MAX;
		if (v < best)
			best = v;
		free(text);
		char *slash = strrchr(path, '/');
		if (!slash || (size_t)(slash - path) < strlen(mount))
			break;
		*slash = '\0';
	}
	free(path);
	return best;
}

int cgroup_check_applied(const struct session_limits *limits, const char *mount,
			 const char *proc_cgroup, struct cc_error *err)
{
	char *text = read_small(proc_cgroup);
	const char *rel = NULL;
	for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL;
	     line && !rel; line = strtok_r(NULL, "\n", &save))
		if (str_starts_with(line, "0::"))
			rel = line + 3;
	int rc = 0;
	if (!rel)
		rc = cc_fail(err, "no cgroup v2 membership in %s", proc_cgroup);
	const struct {
		unsigned long long want;
		const char *file, *directive, *unit;
		unsigned long long (*bound)(const char *);
	} checks[] = {
		{ limits->memory_max, "memory.max", "memory-max", "", plain_bound },
		{ limits->pids_max, "pids.max", "pids-max", "", plain_bound },
		{ limits->cpu_max_percent, "cpu.max", "cpu-max", "%", cpu_bound },
	};
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(checks); i++) {
		unsigned long long have = checks[i].want ? tightest(mount, rel, checks[i].file,
								    checks[i].bound) : 0;
		if (have > checks[i].want)
			rc = cc_fail(err, "%s %llu%s is not in force: the session's cgroup %s "
				     "allows %s%llu%s",
				     checks[i].directive, checks[i].want, checks[i].unit, rel,
				     have == ULLONG_MAX ? "up to max, " : "", have,
				     checks[i].unit);
	}
	free(text);
	return rc;
}
