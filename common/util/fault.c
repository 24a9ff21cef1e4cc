// SPDX-License-Identifier: GPL-2.0-or-later
#include "fault.h"

#ifdef COCOON_FAULT_INJECTION
#include <stdlib.h>

static int reached;

int fault_step(const char *name, struct cc_error *err)
{
	const char *want = getenv("COCOON_FAULT");
	if (!want || atoi(want) != ++reached)
		return 0;
	return cc_fail(err, "fault injected at step %d: %s", reached, name);
}
#else
/* ISO C wants something in every translation unit. */
typedef int fault_injection_disabled;
#endif
