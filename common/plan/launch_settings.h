/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cocoon-launch's settings: the text of /run/cocoon/launch in a PAM
 * (service-mode) sandbox, what the launcher must do before it runs the
 * user's program.
 *
 * Written as root by the engine: sandbox_enter (sandbox_service.c)
 * formats it from the plan, mounts_service_setup (mounts.c) writes it into the
 * read-only tmpfs at /run/cocoon, root's, mode 0644. Read as the user by
 * cocoon-launch (pam/cocoon-launch.c), which refuses a file that is not
 * root's alone to write. Macros only, plain C: cocoon-launch is linked
 * statically against musl, with nothing of libcocoon but landlock.c and
 * forced_command.c.
 *
 * A line per setting, LAUNCH_LINE(KEY, VALUE): "KEY=VALUE\n"; no value
 * holds a newline (the writer refuses a chdir with one and leaves out
 * such a home; plan_expand keeps them out of the command's words). The
 * writer puts them in this order:
 *
 *   no-new-privs=yes|no               set no_new_privs
 *   seccomp=yes|no                    load /run/cocoon/seccomp.bpf
 *   seccomp-log=yes|no                with SECCOMP_FILTER_FLAG_LOG
 *   landlock=required|best-effort     fail without a Landlock wall
 *   landlock-scope=N                  LL_SCOPE_* bits, in decimal
 *   chdir=PATH                        only with `chdir`
 *   home=PATH                         only with an absolute home
 *   command=WORD                      a line per word of `command`, in
 *                                     order; none without one
 *
 * The reader takes each key's first line wherever it stands, and every
 * command line in order. A missing key means "no", best-effort or
 * nothing to do; a missing landlock-scope, every scope (an older writer
 * wrote none). */
#ifndef COCOON_LAUNCH_SETTINGS_H
#define COCOON_LAUNCH_SETTINGS_H

#include <limits.h>

#define LAUNCH_SETTINGS_PATH "/run/cocoon/launch"

#define LAUNCH_KEY_NO_NEW_PRIVS "no-new-privs"
#define LAUNCH_KEY_SECCOMP "seccomp"
#define LAUNCH_KEY_SECCOMP_LOG "seccomp-log"
#define LAUNCH_KEY_LANDLOCK "landlock"
#define LAUNCH_KEY_LANDLOCK_SCOPE "landlock-scope"
#define LAUNCH_KEY_CHDIR "chdir"
#define LAUNCH_KEY_HOME "home"
#define LAUNCH_KEY_COMMAND "command"

#define LAUNCH_YES "yes"
#define LAUNCH_NO "no"
#define LAUNCH_LANDLOCK_REQUIRED "required"
#define LAUNCH_LANDLOCK_BEST_EFFORT "best-effort"

/* One line's format, for printf: KEY and VALUE are string literals
 * (VALUE a conversion such as "%s"). */
#define LAUNCH_LINE(KEY, VALUE) KEY "=" VALUE "\n"

/* The forced command's lines, FORCED_COMMAND_KEY and a word each: at
 * most FORCED_COMMAND_MAX bytes in all, FORCED_COMMAND_LINE of them
 * beside each word (plan_expand refuses a longer command). */
#define FORCED_COMMAND_KEY LAUNCH_KEY_COMMAND "="
#define FORCED_COMMAND_LINE (sizeof(FORCED_COMMAND_KEY))
#define FORCED_COMMAND_MAX 4096

/* The writer's buffer: the text is at most one byte shorter (two paths,
 * the command, and room for the fixed lines). */
#define LAUNCH_SETTINGS_SIZE (128 + 2 * PATH_MAX + FORCED_COMMAND_MAX)

#endif
