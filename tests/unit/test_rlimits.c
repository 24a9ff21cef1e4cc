// SPDX-License-Identifier: GPL-2.0-or-later
/* rlimit-NAME = SOFT [HARD]: units by resource, bounds, the order of
 * soft and hard, and that applying only lowers. The names and the
 * formatting are plan_values', in test_plan_values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rlimits.h"
#include "directives.h"
#include "plan_values.h"
#include "tap.h"
#include "util.h"
#include "words.h"

/* "SOFT HARD" as plan_rlimit_format writes them, or "ERR message". */
static char *parse(int resource, const char *value)
{
	char **words;
	size_t count;
	struct cc_error err;
	if (words_split(value, &words, &count, &err) < 0)
		return xasprintf("bad words: %s", err.msg);
	struct plan_rlimit r = { 0 };
	char soft[24], hard[24], *out;
	if (directive_rlimit_parse(resource, words, count, &r, &err) < 0) {
		out = xasprintf("ERR %s", err.msg);
	} else {
		plan_rlimit_format(r.soft, soft, sizeof(soft));
		plan_rlimit_format(r.hard, hard, sizeof(hard));
		out = xasprintf("%s%s %s", r.set ? "" : "(not set) ", soft, hard);
	}
	words_free(words, count);
	return out;
}

static void expect(int resource, const char *value, const char *want, const char *name)
{
	char *got = parse(resource, value);
	tap_is_str(got, want, name);
	free(got);
}

static void test_parse(void)
{
	expect(RLIMIT_NOFILE, "1024", "1024 1024", "one word sets soft and hard");
	expect(RLIMIT_NOFILE, "1024 4096", "1024 4096", "two words");
	expect(RLIMIT_NOFILE, "512 unlimited", "512 unlimited", "an unlimited hard limit");
	expect(RLIMIT_CORE, "0", "0 0", "0 is a limit");
	expect(RLIMIT_AS, "1G 2G", "1073741824 2147483648", "sizes for as");
	expect(RLIMIT_FSIZE, "10K", "10240 10240", "and for fsize");
	expect(RLIMIT_MEMLOCK, "64", "64 64", "a size without a unit is bytes");
	expect(RLIMIT_CPU, "90 1h", "90 3600", "durations for cpu");
	expect(RLIMIT_NPROC, "10K", "ERR '10K' is not a count", "nproc counts, no units");
	expect(RLIMIT_CPU, "1G", "ERR '1G' is not a duration (a number, then s, m, h or d)",
	       "cpu takes no size");
	expect(RLIMIT_AS, "18446744073709551615", "ERR '18446744073709551615' is out of range",
	       "a size that is RLIM_INFINITY itself");
	expect(RLIMIT_NOFILE, "-1", "ERR '-1' is not a count", "a negative count");
	expect(RLIMIT_NOFILE, "10 5", "ERR the soft limit 10 is above the hard limit 5",
	       "soft above hard");
	expect(RLIMIT_NOFILE, "unlimited 5",
	       "ERR the soft limit unlimited is above the hard limit 5",
	       "an unlimited soft limit above a hard one");
	expect(RLIMIT_NOFILE, "", "ERR a resource limit takes SOFT [HARD]", "no word");
	expect(RLIMIT_NOFILE, "1 2 3", "ERR a resource limit takes SOFT [HARD]", "three words");
	char *want = xasprintf("ERR unknown resource limit %d", RLIMIT_STACK);
	expect(RLIMIT_STACK, "1", want, "a resource not in the table");
	free(want);

	char *bad[] = { "x" };
	struct plan_rlimit r = { .set = false, .soft = 7, .hard = 7 };
	struct cc_error err;
	tap_ok(directive_rlimit_parse(RLIMIT_NOFILE, bad, 1, &r, &err) < 0 && !r.set && r.soft == 7,
	       "a refused value leaves the output alone");
}

/* In a child: lower nofile's soft limit below the current one and ask
 * for a higher hard one; the child reports the outcome in its status. */
static int apply_in_child(void)
{
	struct rlimit cur;
	if (getrlimit(RLIMIT_NOFILE, &cur) < 0 || cur.rlim_cur < 64)
		return 10;
	struct session_limits l = { 0 };
	l.rlimit[RLIMIT_NOFILE] = (struct plan_rlimit){ .set = true, .soft = 32,
						       .hard = RLIM_INFINITY };
	l.rlimit[RLIMIT_CORE] = (struct plan_rlimit){ .set = false, .soft = 0, .hard = 0 };
	struct rlimit core_before, core_after, after;
	struct cc_error err;
	if (getrlimit(RLIMIT_CORE, &core_before) < 0 || rlimits_apply(NULL, &l, &err) < 0 ||
	    getrlimit(RLIMIT_NOFILE, &after) < 0 || getrlimit(RLIMIT_CORE, &core_after) < 0)
		return 11;
	if (after.rlim_cur != 32)
		return 12;
	if (after.rlim_max != cur.rlim_max)
		return 13;
	if (core_after.rlim_cur != core_before.rlim_cur)
		return 14;
	return 0;
}

/* FN in a child, whose limits it may change; its status is the test's. */
static void in_child(int (*fn)(void), const char *name)
{
	pid_t child = fork();
	if (child == 0)
		_exit(fn());
	int status = -1;
	waitpid(child, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s (status %d)", name,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* In a child: the caller's limits given back, each one checked: a value
 * the kernel refuses (a nofile above fs.nr_open, even for root) fails
 * the whole call. */
static int restore_in_child(void)
{
	struct rlimit caller[RLIM_NLIMITS];
	for (int r = 0; r < RLIM_NLIMITS; r++)
		if (getrlimit(r, &caller[r]) < 0)
			return 10;
	caller[RLIMIT_NOFILE].rlim_cur = 48;
	struct cc_error err;
	struct rlimit got;
	if (rlimits_apply(caller, NULL, &err) < 0 ||
	    getrlimit(RLIMIT_NOFILE, &got) < 0 || got.rlim_cur != 48)
		return 11;
	FILE *f = fopen("/proc/sys/fs/nr_open", "r");
	unsigned long long nr_open = 0;
	if (!f || fscanf(f, "%llu", &nr_open) != 1)
		return 12;
	fclose(f);
	caller[RLIMIT_NOFILE] = (struct rlimit){ nr_open + 1, nr_open + 1 };
	if (rlimits_apply(caller, NULL, &err) == 0)
		return 13;
	if (!strstr(err.msg, "restoring resource limit"))
		return 14;
	return 0;
}

int main(void)
{
	test_parse();
	in_child(apply_in_child,
		 "applying lowers soft, never raises hard, leaves unset limits");
	in_child(restore_in_child,
		 "the caller's limits come back, and a refused one fails the call");
	return tap_done();
}
