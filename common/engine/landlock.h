/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Landlock as a second wall: the file system the process can reach is
 * the tree below its root, whatever descriptors it holds or receives. */
#ifndef COCOON_LANDLOCK_H
#define COCOON_LANDLOCK_H

#include <stdbool.h>

#include "plan_values.h" /* LL_SCOPE_* */

/* The kernel's Landlock ABI: 0 when it offers none. */
int landlock_abi(void);

/* Returns 1 when the wall stands, 0 when the kernel offers none.
 *
 * Confine the calling process (and what it execs) to the tree below its
 * root directory: a path reached through a descriptor of another mount
 * namespace (one passed over a unix socket, /proc/PID/root of a host
 * process) is outside the one rule and refused. The files of descriptors
 * 0, 1 and 2 stay reopenable (/dev/stderr of a host terminal), and the
 * POSIX message queues of the process's ipc namespace usable when it is
 * the session's own (OWN_IPC; never the host's). SCOPE (LL_SCOPE_*) is
 * what else the domain keeps in, where the kernel has ABI 6; older ones
 * build the file-system wall alone.
 *
 * Needs no_new_privs or CAP_SYS_ADMIN. Best effort: 0 without doing
 * anything when the kernel lacks Landlock (or has only ABI 1, which
 * would refuse every rename across directories); -1 with errno set when
 * a step fails. No allocation, no file read: safe after pivot_root. */
int landlock_wall(bool own_ipc, unsigned scope);

#endif
