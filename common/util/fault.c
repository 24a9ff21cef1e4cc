// SPDX-License-Identifier: GPL-2.0-or-later
/* Fault injection in test builds: the N-th setup step fails on demand. */
#include "fault.h"

#ifdef COCOON_FAULT_INJECTION
#include <stdlib.h>
#include <string.h>

static int reached;

int fault_step(const char *name, struct cc_error *err)
{
	const char *want = getenv("COCOON_FAULT");
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
