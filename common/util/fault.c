// SPDX-License-Identifier: GPL-2.0-or-later
/* Fault injection in test builds: the N-th setup step fails on demand. */
#include "fault.h"

#ifdef COCOON_FAULT_INJECTION
#include <stdlib.h>
#include <string.h>

static int reached;
static char want_buf[128];
static const char *want;

/* Read once, as the process starts: cocoon-shell empties its environment
 * before its first step. */
__attribute__((constructor)) static void fault_read_environment(void)
{
	const char *value = getenv("COCOON_FAULT");
	if (value && strlen(value) < sizeof(want_buf))
		want = strcpy(want_buf, value);
}

int fault_step(const char *name, struct cc_error *err)
{
	++reached;
	/* A number counts steps per process; a name picks a step wherever
	 * it comes: the caller's steps after its children's (sandbox_enter's)
	 * share their numbers with the children's, which fail first. */
	if (!want || (atoi(want) != reached && strcmp(want, name) != 0))
		return 0;
	return cc_fail(err, "fault injected at step %d: %s", reached, name);
}
#else
/* ISO C wants something in every translation unit. */
typedef int fault_injection_disabled;
#endif
