// SPDX-License-Identifier: GPL-2.0-or-later
/* bench-forks N: how soon a forked child runs on this machine, a fact of
 * the kernel and hypervisor that decides whether a sandbox's processes
 * (a caller, pid 1, the session process) work side by side or one after
 * the other. N times each, a small process forks a child that reads the
 * clock first thing:
 *
 *   idle  the parent blocks at once (reads a pipe);
 *   busy  the parent keeps its CPU for BUSY_MS first, as a caller with
 *         work left after its clone does.
 *
 * Prints one line, TAB-separated: the median ms from fork to the child's
 * first clock read, idle then busy, and the percentage of busy children
 * that ran on their parent's CPU (on an idle machine of two or more
 * CPUs, a child that waits for its busy parent instead of taking an idle
 * CPU). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUSY_MS 2.0

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct start {
	double after_ms; /* from the fork */
	int cpu;
};

/* One fork; the child's start, or a negative time on failure. */
static struct start one(double busy_ms, int *parent_cpu)
{
	struct start s = { -1, -1 };
	int p[2];
	if (pipe(p) < 0)
		return s;
	*parent_cpu = sched_getcpu();
	double t0 = now_ms();
	pid_t child = fork();
	if (child == 0) {
		struct start mine = { now_ms() - t0, sched_getcpu() };
		_exit(write(p[1], &mine, sizeof(mine)) == sizeof(mine) ? 0 : 1);
	}
	if (child > 0) {
		for (double end = now_ms() + busy_ms; now_ms() < end;)
			;
		if (read(p[0], &s, sizeof(s)) != sizeof(s))
			s.after_ms = -1;
		waitpid(child, NULL, 0);
	}
	close(p[0]);
	close(p[1]);
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	if (n < 1) {
		fprintf(stderr, "usage: bench-forks N\n");
		return 2;
	}
	double *idle = calloc((size_t)n, sizeof(double));
	double *busy = calloc((size_t)n, sizeof(double));
	if (!idle || !busy)
		return 1;
	int same_cpu = 0;
	for (int i = 0; i < n; i++) {
		int cpu;
		struct start a = one(0, &cpu);
		struct start b = one(BUSY_MS, &cpu);
		if (a.after_ms < 0 || b.after_ms < 0) {
			fprintf(stderr, "bench-forks: fork or pipe failed\n");
			return 1;
		}
		idle[i] = a.after_ms;
		busy[i] = b.after_ms;
		same_cpu += b.cpu == cpu;
		usleep(2000); /* the CPUs idle again between rounds */
	}
	qsort(idle, (size_t)n, sizeof(double), by_value);
	qsort(busy, (size_t)n, sizeof(double), by_value);
	printf("%.3f\t%.3f\t%.0f\n", idle[n / 2], busy[n / 2], 100.0 * same_cpu / n);
	free(idle);
	free(busy);
	return 0;
}
