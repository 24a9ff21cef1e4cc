// SPDX-License-Identifier: GPL-2.0-or-later
/* What list, stop and enter share: their arguments, the check that root
 * asks, the records of the live sessions and the one a command names. */
#ifndef COCOON_CTL_SESSIONS_H
#define COCOON_CTL_SESSIONS_H

#include <stdbool.h>

#include "records.h"

struct session_args {
	const char *cmd;
	const char *id;
	bool json, verbose, root;
	char **command; /* after --; NULL: none */
	const char *message; /* stop --message TEXT; NULL: none */
};

/* A session command's ground once its arguments are read. */
struct session_ctx {
	struct session_args args;
	int dir;                         /* the records' directory */
	struct record_list list;
	const struct live_record *record; /* stop, enter: the one named */
	int pidfd;                       /* stop, enter: its pid 1 */
};

/* What a session command does on that ground; its exit status. */
typedef int session_command(const struct session_ctx *s);

/* Read ARGV (argv[0]: list, stop or enter), check that root asks, load
 * the records and, but for list, attach to the session named; then run
 * COMMAND. Its exit status, or one after printing why it did not run. */
int run_session_command(int argc, char **argv, session_command *command);

#endif
