// SPDX-License-Identifier: GPL-2.0-or-later
/* bench-timer: the clock behind tests/bench/run. It prints raw samples,
 * one per line ("ID<TAB>VALUE<TAB>STATUS"), and leaves the statistics to
 * tests/bench/report.pl.
 *
 *   bench-timer alt N WARMUP -- ID USER CMD... [--- ID USER CMD...]...
 *	N rounds; each round runs every command once, one after the other,
 *	in a random order (A B C, C A B, B C A, ...) so that drift, cache
 *	effects and work the kernel finishes after a command hit all of them
 *	alike. VALUE is the wall time in ms from fork to reap. What a command
 *	leaves running (bubblewrap's pid 1 outlives bwrap) is reaped before
 *	the next one starts, the timer being their subreaper (still there
 *	after 30 s, they are killed and the timer fails); an ID ending in
 *	"_tree" is timed until then, its last process gone.
 *   bench-timer burst K ROUNDS -- ID USER CMD...
 *	Each round starts K copies at once: ID.each is each copy's time from
 *	its fork to its reap, ID.all the time until the last one is reaped
 *	(what they leave running is reaped after that, untimed); ID.all's
 *	STATUS is "failed:N" when N of the round's copies failed.
 *   bench-timer idle ROUNDS LEAF K -- ID USER CMD...
 *	Starts K copies of CMD, waits until a process named LEAF appears in
 *	each one's process tree (the session's command: the sandbox is
 *	built), then reports per copy ID.pss_kib and ID.anon_kib (Pss and
 *	Pss_Anon summed over every process of the trees that is not named
 *	LEAF, i.e. what the sandbox tool adds, divided by K) and ID.procs
 *	(how many such processes). With K = 1 it then kills the topmost
 *	LEAF (the session's main process) and reports ID.exit_ms (until
 *	CMD itself is reaped), ID.teardown_ms (until the last process of
 *	the tree is reaped: the timer is their subreaper) and ID.leftover
 *	(live processes of $BENCH_USER afterwards).
 *
 * USER is "-" for root or a user name: the command then runs as that user
 * with its groups, a login-like environment (HOME, USER, LOGNAME, SHELL,
 * PATH) and its home as working directory, the way sshd starts a command.
 * Root's commands get the same minimal environment with HOME=/root.
 * Standard input and output are /dev/null; standard error goes to an
 * anonymous memory file, made before the clock starts.
 *
 * Failures are kept (alt and burst): with BENCH_FAILURES=FILE, each run
 * that fails adds "ID<TAB>STATUS<TAB>STDERR" to FILE, STDERR being the
 * first lines of its standard error joined by " / ". With
 * BENCH_EXPECT=TEXT, standard output goes to a memory file too and a run
 * whose output lacks TEXT fails (STATUS "no-marker") even if it exits 0:
 * an ssh login counts when its command has answered. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CMDS 16
#define MAX_TREE 256

struct cmd {
	const char *id;
	char **argv;
	uid_t uid;
	gid_t gid;
	char *env[8];
	const char *home;
	gid_t groups[64];
	int ngroups;
	bool tree; /* timed until every process it started is reaped */
};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void die(const char *msg)
{
	fprintf(stderr, "bench-timer: %s\n", msg);
	exit(2);
}

static char *str_printf(const char *fmt, const char *a)
{
	size_t n = strlen(fmt) + strlen(a) + 1;
	char *s = malloc(n);
	if (!s)
		die("out of memory");
	snprintf(s, n, fmt, a);
	return s;
}

static void cmd_user(struct cmd *c, const char *user)
{
	const char *home = "/root", *shell = "/bin/sh", *name = "root";
	c->uid = 0;
	c->gid = 0;
	c->ngroups = 0;
	if (strcmp(user, "-") != 0) {
		struct passwd *pw = getpwnam(user);
		if (!pw)
			die("unknown user");
		c->uid = pw->pw_uid;
		c->gid = pw->pw_gid;
		home = strdup(pw->pw_dir);
		shell = strdup(pw->pw_shell);
		name = strdup(pw->pw_name);
		/* Looked up here: NSS in the child would be timed. */
		c->ngroups = 64;
		if (getgrouplist(name, c->gid, c->groups, &c->ngroups) < 0)
			die("too many groups");
	}
	c->home = home;
	c->env[0] = str_printf("HOME=%s", home);
	c->env[1] = str_printf("USER=%s", name);
	c->env[2] = str_printf("LOGNAME=%s", name);
	c->env[3] = str_printf("SHELL=%s", shell);
	c->env[4] = (char *)"PATH=/usr/local/bin:/usr/bin:/bin";
	c->env[5] = (char *)"LANG=C";
	c->env[6] = NULL;
}

/* Parse "ID USER CMD... [--- ID USER CMD...]": argv is cut at each ---. */
static int parse_cmds(char **argv, struct cmd *cmds)
{
	int n = 0;
	char **p = argv;
	while (*p) {
		if (n == MAX_CMDS)
			die("too many commands");
		if (!p[0] || !p[1] || !p[2] || strcmp(p[2], "---") == 0)
			die("each command needs ID USER CMD...");
		cmds[n].id = p[0];
		size_t idlen = strlen(p[0]);
		cmds[n].tree = idlen > 5 && strcmp(p[0] + idlen - 5, "_tree") == 0;
		cmd_user(&cmds[n], p[1]);
		cmds[n].argv = p + 2;
		char **q = p + 2;
		while (*q && strcmp(*q, "---") != 0)
			q++;
		if (*q) {
			*q = NULL;
			q++;
		}
		p = q;
		n++;
	}
	if (n == 0)
		die("no command");
	return n;
}

/* ---- What a run printed, kept for its failure ---- */

/* One run's standard error, and its output when a marker is expected;
 * -1 when not captured. */
struct capture {
	int err;
	int out;
};

static const char *expect_text; /* BENCH_EXPECT */
static FILE *failures;		/* BENCH_FAILURES */

static void capture_setup(void)
{
	expect_text = getenv("BENCH_EXPECT");
	if (expect_text && !*expect_text)
		expect_text = NULL;
	const char *path = getenv("BENCH_FAILURES");
	if (path && *path && !(failures = fopen(path, "a")))
		die("cannot open BENCH_FAILURES");
	if (failures)
		setvbuf(failures, NULL, _IOLBF, 0);
}

/* Made before the clock starts: its cost is not the command's. */
static void capture_open(struct capture *cap)
{
	cap->err = memfd_create("bench-stderr", MFD_CLOEXEC);
	cap->out = expect_text ? memfd_create("bench-stdout", MFD_CLOEXEC) : -1;
	if (cap->err < 0 || (expect_text && cap->out < 0))
		die("memfd_create");
}

static void capture_close(struct capture *cap)
{
	if (cap->err >= 0)
		close(cap->err);
	if (cap->out >= 0)
		close(cap->out);
	cap->err = cap->out = -1;
}

/* Up to SIZE - 1 bytes of FD from its start, NUL-terminated. */
static size_t capture_read(int fd, char *buf, size_t size)
{
	size_t n = 0;
	while (fd >= 0 && n < size - 1) {
		ssize_t r = pread(fd, buf + n, size - 1 - n, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return n;
}

/* The first lines of standard error on one line, into OUT: tabs and
 * line ends would break the TSV; empty lines are dropped. */
#define KEEP_LINES 4
static void flatten_stderr(const char *in, char *out, size_t size)
{
	size_t w = 0;
	int lines = 0;
	bool at_start = true;
	for (const char *r = in; *r && lines < KEEP_LINES; r++) {
		if (*r == '\n' || *r == '\r') {
			if (!at_start)
				lines++;
			at_start = true;
			continue;
		}
		if (w + 4 >= size)
			break;
		if (at_start && w > 0) {
			memcpy(out + w, " / ", 3);
			w += 3;
			if (w + 1 >= size)
				break;
		}
		at_start = false;
		out[w++] = *r == '\t' || !isprint((unsigned char)*r) ? ' ' : *r;
	}
	out[w] = '\0';
}

/* The status a sample gets: the exit status, or "no-marker" when the
 * output lacks BENCH_EXPECT's text; a failure is written down. */
static const char *capture_verdict(const char *id, int rc, const struct capture *cap,
				   char *status, size_t size)
{
	snprintf(status, size, "%d", rc);
	if (rc == 0 && expect_text) {
		char out[4096];
		capture_read(cap->out, out, sizeof(out));
		if (!strstr(out, expect_text))
			snprintf(status, size, "no-marker");
	}
	if (strcmp(status, "0") != 0 && failures) {
		char raw[1024], err[1024];
		capture_read(cap->err, raw, sizeof(raw));
		flatten_stderr(raw, err, sizeof(err));
		fprintf(failures, "%s\t%s\t%s\n", id, status, *err ? err : "(no stderr)");
	}
	return status;
}

static pid_t start(const struct cmd *c, const struct capture *cap)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(cap->out >= 0 ? cap->out : null, 1);
	dup2(cap->err >= 0 ? cap->err : null, 2);
	if (null > 2)
		close(null);
	if (c->uid != 0) {
		if (setgroups((size_t)c->ngroups, c->groups) < 0 || setgid(c->gid) < 0 ||
		    setuid(c->uid) < 0)
			_exit(126);
	}
	if (chdir(c->home) < 0 && chdir("/") < 0)
		_exit(126);
	execve(c->argv[0], c->argv, c->env);
	_exit(127);
}

static int status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 255;
}

/* SIGKILL to every child of the timer, orphans it took in among them. */
static void kill_children(void)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	int pid;
	while (fscanf(f, "%d", &pid) == 1)
		kill(pid, SIGKILL);
	fclose(f);
}

/* How long what a command leaves running may take to end: past it, a
 * hung leftover fails the run instead of stalling it for ever. */
#define REAP_LIMIT_S 30
#define STRING(x) #x
#define NUMBER_STRING(x) STRING(x)
static volatile sig_atomic_t reap_late;
static void on_alarm(int sig)
{
	(void)sig;
	reap_late = 1;
}

/* Every child and orphan left (the timer is their subreaper). */
static void reap_all(void)
{
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	reap_late = 0;
	alarm(REAP_LIMIT_S);
	while (waitpid(-1, NULL, 0) > 0 || (errno == EINTR && !reap_late))
		;
	alarm(0);
	if (!reap_late)
		return;
	/* Killed, their children come to us in turn: until none is left. */
	do
		kill_children();
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR);
	die("a command left processes running for " NUMBER_STRING(REAP_LIMIT_S)
	    " s; killed them");
}

/* One run of C: its time in *MS, its status written into STATUS. */
static void run_one(const struct cmd *c, double *ms, char *status, size_t size)
{
	struct capture cap;
	capture_open(&cap);
	double a = now_ms();
	pid_t pid = start(c, &cap);
	if (pid < 0)
		die("fork");
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	*ms = now_ms() - a;
	reap_all();
	if (c->tree)
		*ms = now_ms() - a;
	capture_verdict(c->id, status_code(st), &cap, status, size);
	capture_close(&cap);
}

static int mode_alt(int argc, char **argv)
{
	if (argc < 4 || strcmp(argv[2], "--") != 0)
		die("usage: alt N WARMUP -- ID USER CMD... [--- ...]");
	int n = atoi(argv[0]), warm = atoi(argv[1]);
	struct cmd cmds[MAX_CMDS];
	int ncmds = parse_cmds(argv + 3, cmds);
	/* Each round runs the commands in a new random order (a fixed seed:
	 * the same orders every time), so that each one follows each other
	 * one equally often on average: what a command leaves for the kernel
	 * to finish (a network namespace is torn down by a kernel worker
	 * after the process is gone) must not always land on the same next
	 * command. Warm-up rounds are dropped. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		die("PR_SET_CHILD_SUBREAPER");
	srandom(8);
	int order[MAX_CMDS];
	for (int round = -warm; round < n; round++) {
		for (int k = 0; k < ncmds; k++)
			order[k] = k;
		for (int k = ncmds - 1; k > 0; k--) {
			int j = (int)(random() % (k + 1)), t = order[k];
			order[k] = order[j];
			order[j] = t;
		}
		for (int k = 0; k < ncmds; k++) {
			const struct cmd *c = &cmds[order[k]];
			double ms;
			char status[16];
			run_one(c, &ms, status, sizeof(status));
			if (round >= 0)
				printf("%s\t%.4f\t%s\n", c->id, ms, status);
		}
	}
	return 0;
}

static int mode_burst(int argc, char **argv)
{
	if (argc < 4 || strcmp(argv[2], "--") != 0)
		die("usage: burst K ROUNDS -- ID USER CMD...");
	int k = atoi(argv[0]), rounds = atoi(argv[1]);
	struct cmd cmds[MAX_CMDS];
	if (parse_cmds(argv + 3, cmds) != 1)
		die("burst takes one command");
	if (k < 1 || k > 4096)
		die("bad K");
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		die("PR_SET_CHILD_SUBREAPER");
	pid_t *pids = calloc((size_t)k, sizeof(pid_t));
	double *t0 = calloc((size_t)k, sizeof(double));
	struct capture *caps = calloc((size_t)k, sizeof(struct capture));
	if (!pids || !t0 || !caps)
		die("out of memory");
	/* Two memory files a copy: K of 500 passes the usual 1024. */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)k * 2 + 64) {
		rl.rlim_cur = rl.rlim_max < (rlim_t)k * 2 + 64 ? rl.rlim_max : (rlim_t)k * 2 + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	char id_each[256];
	snprintf(id_each, sizeof(id_each), "%s.each", cmds[0].id);
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < k; i++)
			capture_open(&caps[i]);
		double all = now_ms();
		for (int i = 0; i < k; i++) {
			t0[i] = now_ms();
			if ((pids[i] = start(&cmds[0], &caps[i])) < 0)
				die("fork");
		}
		int left = k, failed = 0;
		while (left > 0) {
			int st;
			pid_t pid = waitpid(-1, &st, 0);
			if (pid < 0) {
				if (errno == EINTR)
					continue;
				die("waitpid");
			}
			double t = now_ms();
			for (int i = 0; i < k; i++)
				if (pids[i] == pid) {
					char status[16];
					capture_verdict(id_each, status_code(st), &caps[i], status,
							sizeof(status));
					capture_close(&caps[i]);
					failed += strcmp(status, "0") != 0;
					printf("%s\t%.4f\t%s\n", id_each, t - t0[i], status);
					pids[i] = 0;
					left--;
				}
		}
		/* The round is timed whether or not some of its sessions failed:
		 * the report keeps the count beside the time. */
		if (failed)
			printf("%s.all\t%.4f\tfailed:%d\n", cmds[0].id, now_ms() - all, failed);
		else
			printf("%s.all\t%.4f\t0\n", cmds[0].id, now_ms() - all);
		reap_all();
	}
	return 0;
}

/* ---- Process trees ---- */

struct proc {
	pid_t pid;
	int depth;
	char comm[32];
};

static int read_comm(pid_t pid, char *comm, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(comm, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

/* Breadth first from ROOT through /proc/PID/task/TID/children. */
static int tree(pid_t root, struct proc *out, int max)
{
	int n = 0;
	out[n].pid = root;
	out[n].depth = 0;
	if (read_comm(root, out[n].comm, sizeof(out[n].comm)) < 0)
		return 0;
	n++;
	for (int i = 0; i < n; i++) {
		char path[96];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)out[i].pid);
		DIR *d = opendir(path);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			char cpath[320];
			snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/children",
				 (int)out[i].pid, de->d_name);
			FILE *f = fopen(cpath, "r");
			if (!f)
				continue;
			int child;
			while (fscanf(f, "%d", &child) == 1 && n < max) {
				out[n].pid = child;
				out[n].depth = out[i].depth + 1;
				if (read_comm(child, out[n].comm, sizeof(out[n].comm)) == 0)
					n++;
			}
			fclose(f);
		}
		closedir(d);
	}
	return n;
}

/* Pss and Pss_Anon of PID in KiB; -1 when unreadable. */
static int pss_kib(pid_t pid, long *pss, long *anon)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	*pss = *anon = -1;
	while (fgets(line, sizeof(line), f)) {
		long v;
		if (sscanf(line, "Pss: %ld kB", &v) == 1)
			*pss = v;
		else if (sscanf(line, "Pss_Anon: %ld kB", &v) == 1)
			*anon = v;
	}
	fclose(f);
	return *pss < 0 || *anon < 0 ? -1 : 0;
}

/* Live (not zombie) processes owned by UID. */
static int live_processes(uid_t uid)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	int count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char path[300], line[256];
		snprintf(path, sizeof(path), "/proc/%s/status", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		char state = '?';
		long ruid = -1;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "State: %c", &state) == 1)
				continue;
			if (sscanf(line, "Uid: %ld", &ruid) == 1)
				break;
		}
		fclose(f);
		if (ruid == (long)uid && state != 'Z')
			count++;
	}
	closedir(d);
	return count;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The topmost process named LEAF in PID's tree, or -1. */
static pid_t find_leaf(pid_t pid, const char *leaf)
{
	struct proc procs[MAX_TREE];
	int n = tree(pid, procs, MAX_TREE), best = -1;
	for (int i = 0; i < n; i++)
		if (strcmp(procs[i].comm, leaf) == 0 &&
		    (best < 0 || procs[i].depth < procs[best].depth))
			best = i;
	return best < 0 ? -1 : procs[best].pid;
}

static int mode_idle(int argc, char **argv)
{
	if (argc < 5 || strcmp(argv[3], "--") != 0)
		die("usage: idle ROUNDS LEAF K -- ID USER CMD...");
	int rounds = atoi(argv[0]), k = atoi(argv[2]);
	const char *leaf = argv[1];
	struct cmd cmds[MAX_CMDS];
	if (parse_cmds(argv + 4, cmds) != 1)
		die("idle takes one command");
	if (k < 1 || k > 1000)
		die("bad K");
	/* Orphans of the measured tree come to us, so "the last process is
	 * gone" is when nothing is left to reap. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		die("PR_SET_CHILD_SUBREAPER");
	/* Whose surviving processes to count afterwards: BENCH_USER. */
	const char *user = getenv("BENCH_USER");
	struct passwd *pw = user ? getpwnam(user) : NULL;
	uid_t user_uid = pw ? pw->pw_uid : (uid_t)-1;
	pid_t *pids = calloc((size_t)k, sizeof(pid_t));
	pid_t *mains = calloc((size_t)k, sizeof(pid_t));
	if (!pids || !mains)
		die("out of memory");
	const char *id = cmds[0].id;
	const struct capture no_capture = { -1, -1 };
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < k; i++)
			if ((pids[i] = start(&cmds[0], &no_capture)) < 0)
				die("fork");
		double deadline = now_ms() + 30000;
		int up = 0;
		for (int i = 0; i < k; i++)
			mains[i] = -1;
		while (up < k && now_ms() < deadline) {
			sleep_ms(2);
			for (int i = 0; i < k; i++)
				if (mains[i] < 0 && (mains[i] = find_leaf(pids[i], leaf)) > 0)
					up++;
		}
		if (up < k) {
			for (int i = 0; i < k; i++)
				kill(pids[i], SIGKILL);
			reap_all();
			printf("%s.pss_kib\tnan\t1\n", id);
			continue;
		}
		/* Let every process of the trees settle (a shell that execs
		 * LEAF may have started other LEAFs first), then look again. */
		sleep_ms(50);
		for (int i = 0; i < k; i++)
			if ((mains[i] = find_leaf(pids[i], leaf)) < 0)
				die("the session's main process vanished");
		long sum = 0, sum_anon = 0;
		int counted = 0, bad = 0;
		for (int i = 0; i < k; i++) {
			struct proc procs[MAX_TREE];
			int n = tree(pids[i], procs, MAX_TREE);
			for (int j = 0; j < n; j++) {
				if (strcmp(procs[j].comm, leaf) == 0)
					continue;
				long pss, anon;
				if (pss_kib(procs[j].pid, &pss, &anon) < 0) {
					bad = 1;
					continue;
				}
				sum += pss;
				sum_anon += anon;
				counted++;
			}
		}
		printf("%s.pss_kib\t%.1f\t%d\n", id, (double)sum / k, bad);
		printf("%s.anon_kib\t%.1f\t%d\n", id, (double)sum_anon / k, bad);
		printf("%s.procs\t%.1f\t0\n", id, (double)counted / k);
		if (k > 1) {
			for (int i = 0; i < k; i++)
				kill(mains[i], SIGKILL);
			reap_all();
			continue;
		}
		/* The session ends: its main process is gone. */
		double t0 = now_ms(), t_exit = -1;
		kill(mains[0], SIGKILL);
		for (;;) {
			int st;
			pid_t pid = waitpid(-1, &st, 0);
			if (pid < 0 && errno == EINTR)
				continue;
			if (pid < 0)
				break;
			if (pid == pids[0])
				t_exit = now_ms() - t0;
		}
		double t_last = now_ms() - t0;
		printf("%s.exit_ms\t%.4f\t0\n", id, t_exit);
		printf("%s.teardown_ms\t%.4f\t0\n", id, t_last);
		if (pw)
			printf("%s.leftover\t%d\t0\n", id, live_processes(user_uid));
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		die("usage: bench-timer alt|burst|idle ...");
	signal(SIGPIPE, SIG_IGN);
	capture_setup();
	if (strcmp(argv[1], "alt") == 0)
		return mode_alt(argc - 2, argv + 2);
	if (strcmp(argv[1], "burst") == 0)
		return mode_burst(argc - 2, argv + 2);
	if (strcmp(argv[1], "idle") == 0)
		return mode_idle(argc - 2, argv + 2);
	die("unknown mode");
}
