/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The forced command (`command = PATH [ARG...]`): what the caller asked a
 * shell to run becomes SSH_ORIGINAL_COMMAND, and nothing more. Shared by
 * cocoon-shell and the statically linked cocoon-launch: no allocation,
 * nothing from libcocoon. */
#ifndef COCOON_FORCED_COMMAND_H
#define COCOON_FORCED_COMMAND_H

/* The words travel to cocoon-launch as lines of its settings, which
 * bound them (FORCED_COMMAND_MAX). */
#include "launch_settings.h"

/* The command text a shell was asked to run: the word after -c, or after
 * an option cluster holding c (-lc); NULL for an interactive shell. */
const char *forced_command_asked(char *const *argv);

/* SSH_ORIGINAL_COMMAND for the forced command, NULL to leave it unset.
 * INHERITED (the caller's SSH_ORIGINAL_COMMAND) wins: sshd's ForceCommand
 * set it, and the -c text is then that ForceCommand. A -c text equal to
 * the forced command itself (FORCED: its words joined by spaces, or its
 * path alone) is a ForceCommand repeating it on an interactive login. */
const char *forced_command_original(char *const *argv, const char *inherited,
				    char *const *forced);

#endif
