// SPDX-License-Identifier: GPL-2.0-or-later
/* timeit N [@LABEL] COMMAND... [--- [@LABEL] COMMAND...]...: run each
 * command N times, interleaved (A B A B ...) so that drift hits all
 * alike, with stdout and stderr to /dev/null, and print each one's
 * median, min and max wall time in ms. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int n = atoi(argv[1]);
	char **cmds[16];
	const char *labels[16];
	int ncmds = 0;
	cmds[ncmds++] = &argv[2];
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], "---") == 0 && ncmds < 16) {
			argv[i] = NULL;
			cmds[ncmds++] = &argv[i + 1];
		}
	for (int c = 0; c < ncmds; c++) {
		labels[c] = cmds[c][0];
		if (cmds[c][0] && cmds[c][0][0] == '@')
			labels[c] = *cmds[c]++ + 1;
		else if (strrchr(labels[c], '/'))
			labels[c] = strrchr(labels[c], '/') + 1;
	}
	double *t = calloc((size_t)(n * ncmds), sizeof(double));
	int failed[16] = { 0 };
	for (int i = 0; i < n; i++)
		for (int c = 0; c < ncmds; c++) {
			struct timespec a, b;
			clock_gettime(CLOCK_MONOTONIC, &a);
			pid_t pid = fork();
			if (pid == 0) {
				int fd = open("/dev/null", O_WRONLY);
				dup2(fd, 1);
				dup2(fd, 2);
				execv(cmds[c][0], cmds[c]);
				_exit(127);
			}
			int st;
			waitpid(pid, &st, 0);
			clock_gettime(CLOCK_MONOTONIC, &b);
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				failed[c]++;
			t[c * n + i] = (double)(b.tv_sec - a.tv_sec) * 1e3 +
				       (double)(b.tv_nsec - a.tv_nsec) / 1e6;
		}
	for (int c = 0; c < ncmds; c++) {
		double *x = t + c * n;
		qsort(x, (size_t)n, sizeof(double), cmp);
		printf("%-14s median %.2f ms  min %.2f  max %.2f  (%d runs, %d failed)\n",
		       labels[c], n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2, x[0], x[n - 1],
		       n, failed[c]);
	}
	return 0;
}
