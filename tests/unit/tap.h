/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A minimal TAP producer for the C unit tests, read by prove. */
#ifndef COCOON_TAP_H
#define COCOON_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int tap_count, tap_failures;

static inline bool tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failures++;
	fflush(stdout);
	return cond;
}

static inline bool tap_is_str(const char *got, const char *want, const char *name)
{
	bool same = got && want ? strcmp(got, want) == 0 : got == want;
	if (!tap_ok(same, "%s", name))
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return same;
}

/* HAYSTACK contains NEEDLE. */
static inline bool tap_like(const char *haystack, const char *needle, const char *name)
{
	bool found = haystack && strstr(haystack, needle);
	if (!tap_ok(found, "%s", name))
		printf("#   got:  '%s'\n#   want it to contain: '%s'\n",
		       haystack ? haystack : "(null)", needle);
	return found;
}

/* Write TEXT to PATH (created 0644, truncated); a failing test if not. */
static inline void tap_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	bool written = f && fputs(text, f) >= 0;
	if ((f && fclose(f) != 0) || !written)
		tap_ok(false, "writing %s", path);
}

/* A made-up user's home, HOME_ROOT/NAME owned by UID, under a fresh
 * root-owned directory made from the template HOME_ROOT (XXXXXX); the
 * path goes to HOME. false if it could not be made. */
static inline bool tap_make_home(char *home_root, const char *name, uid_t uid,
				 char *home, size_t size)
{
	if (!mkdtemp(home_root)) {
		perror("mkdtemp");
		return false;
	}
	snprintf(home, size, "%s/%s", home_root, name);
	mkdir(home, 0700);
	if (chown(home, uid, uid) < 0)
		perror("chown");
	return true;
}

/* Remove what tap_make_home made. */
static inline void tap_remove_home(const char *home_root)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", home_root);
	if (system(cmd) != 0)
		tap_ok(false, "removing %s", home_root);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}

#endif
