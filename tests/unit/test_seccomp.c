// SPDX-License-Identifier: GPL-2.0-or-later
/* `seccomp = default` is embedded at build time (build/gen/default_filter.h,
 * written by tools/gen-seccomp): it must be, byte for byte, the program
 * libseccomp builds from common/seccomp_filter.c's rules now, and it must
 * be what seccomp_prepare hands out; a `seccomp = FILE` is still built at
 * run time, on top of the same rules. */
#include <linux/filter.h>
#include <seccomp.h>
#include <stdlib.h>
#include <unistd.h>

#include "plan.h"
#include "seccomp_filter.h"
#include "util.h"
#include "tap.h"

#include "default_filter.h"

struct program {
	const void *data;
	size_t len;
};

static bool program_of(struct seccomp_filter *filter, struct program *p)
{
	return filter && seccomp_filter_program(filter, &p->data, &p->len) == 0;
}

static bool same(const struct program *p, const void *data, size_t len)
{
	return p->len == len && memcmp(p->data, data, len) == 0;
}

/* A FILE refusing chroot, in a root-only directory (the trust rule). */
static void file_is_built_at_run_time(const struct program *embedded)
{
	char dir[] = "/run/cocoon-unit-seccomp.XXXXXX";
	if (geteuid() != 0 || !mkdtemp(dir)) {
		tap_ok(true, "# SKIP a seccomp FILE needs root and /run");
		return;
	}
	char path[sizeof(dir) + 16];
	snprintf(path, sizeof(path), "%s/filter", dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("chroot\n", f);
		fclose(f);
	}
	struct plan plan;
	plan_init(&plan);
	plan.seccomp = SECCOMP_FILE;
	plan.seccomp_file = xstrdup(path);
	struct cc_error err = { { 0 } };
	struct seccomp_filter *filter = seccomp_prepare(&plan, &err);
	struct program p = { 0 };
	if (!tap_ok(program_of(filter, &p), "seccomp = FILE is built"))
		printf("#   %s\n", err.msg);
	tap_ok(p.len > embedded->len && !same(&p, embedded->data, embedded->len),
	       "at run time, with the FILE's rule added to the default program");
	seccomp_filter_free(filter);
	plan_free(&plan);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct program embedded = { default_filter, sizeof(default_filter) };
	struct cc_error err = { { 0 } };

	struct seccomp_filter *built = seccomp_build_default(&err);
	struct program now = { 0 };
	if (!tap_ok(program_of(built, &now), "libseccomp builds the default program now"))
		printf("#   %s\n", err.msg);
	if (!tap_ok(same(&now, embedded.data, embedded.len),
		    "the program embedded at build time is the same, byte for byte"))
		printf("#   embedded %zu bytes, built now %zu bytes: run make again\n",
		       embedded.len, now.len);
	tap_ok(DEFAULT_FILTER_ARCH == seccomp_arch_native(),
	       "and for this architecture");

	struct plan plan;
	plan_init(&plan);
	plan.seccomp = SECCOMP_DEFAULT;
	struct seccomp_filter *prepared = seccomp_prepare(&plan, &err);
	struct program p = { 0 };
	tap_ok(program_of(prepared, &p) && same(&p, embedded.data, embedded.len),
	       "seccomp = default hands out the embedded program");
	seccomp_filter_free(prepared);

	plan.seccomp = SECCOMP_NONE;
	prepared = seccomp_prepare(&plan, &err);
	tap_ok(program_of(prepared, &p) && p.len == 0 && !p.data,
	       "seccomp = none loads nothing");
	seccomp_filter_free(prepared);
	plan_free(&plan);

	file_is_built_at_run_time(&embedded);
	seccomp_filter_free(built);
	return tap_done();
}
