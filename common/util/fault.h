/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fault injection, for test builds only (make check-build-fault defines
 * COCOON_FAULT_INJECTION): FAULT(name, err) fails the N-th setup step a
 * process reaches when the environment has COCOON_FAULT=N, so a test can
 * prove that a failure at each step rolls back everything before it.
 * Counting is per process; a child continues from its parent's count.
 * COCOON_FAULT=NAME fails every step of that name instead.
 * In every other build FAULT is the constant 0: neither the variable
 * nor the steps' names are in the binaries. */
#ifndef COCOON_FAULT_H
#define COCOON_FAULT_H

#include "error.h"

#ifdef COCOON_FAULT_INJECTION
int fault_step(const char *name, struct cc_error *err);
#define FAULT(name, err) fault_step(name, err)
#else
#define FAULT(name, err) 0
#endif

#endif
