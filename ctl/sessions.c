// SPDX-License-Identifier: GPL-2.0-or-later
/* The live sessions' records, as list, stop and enter find them. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "sessions.h"
#include "util.h"

static int parse_session_args(int argc, char **argv, struct session_args *a)
{
	a->cmd = argv[0];
	bool listing = strcmp(a->cmd, "list") == 0;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		if (strcmp(w, "--") == 0 && strcmp(a->cmd, "enter") == 0) {
			if (i + 1 >= argc)
				break;
			a->command = &argv[i + 1];
			break;
		}
		if (listing && strcmp(w, "--json") == 0)
			a->json = true;
		else if (listing && strcmp(w, "--verbose") == 0)
			a->verbose = true;
		else if (strcmp(a->cmd, "enter") == 0 && strcmp(w, "--root") == 0)
			a->root = true;
		else if (strcmp(a->cmd, "stop") == 0 && strcmp(w, "--message") == 0 &&
			 i + 1 < argc && !a->message)
			a->message = argv[++i];
		else if (!listing && w[0] != '-' && !a->id)
			a->id = w;
		else {
			fprintf(stderr, "cocoonctl %s: unexpected '%s'\n", a->cmd, w);
			usage(stderr);
			return -1;
		}
	}
	if (!listing && !a->id) {
		fprintf(stderr, "cocoonctl %s: needs a session ID (cocoonctl list)\n", a->cmd);
		return -1;
	}
	if (a->root && !a->command) {
		fprintf(stderr, "cocoonctl enter --root: needs -- and a command (an "
			"absolute path)\n");
		return -1;
	}
	return 0;
}

static void bad_record(const char *name, const struct cc_error *err)
{
	(void)name;
	fprintf(stderr, "cocoonctl: skipping a record: %s\n", err->msg);
}

int run_session_command(int argc, char **argv, session_command *command)
{
	struct session_ctx s = { .pidfd = -1 };
	struct session_args *a = &s.args;
	if (parse_session_args(argc, argv, a) < 0)
		return 2;
	if (getuid() != 0 || geteuid() != 0) {
		fprintf(stderr, "cocoonctl %s: only root may see sessions\n", a->cmd);
		return 1;
	}
	struct cc_error err;
	int dir AUTOCLOSE = record_dir_open(true, &err);
	if (dir < 0 || records_load(dir, &s.list, bad_record, &err) < 0) {
		fprintf(stderr, "cocoonctl %s: %s\n", a->cmd, err.msg);
		records_free(&s.list);
		return 1;
	}
	s.dir = dir;
	int pidfd AUTOCLOSE = -1;
	int rc = 1;
	if (strcmp(a->cmd, "list") == 0) {
		rc = command(&s);
	} else if (records_find(&s.list, a->id, &s.record, &err) < 0) {
		fprintf(stderr, "cocoonctl %s: %s\n", a->cmd, err.msg);
	} else if (record_attach(s.record, &pidfd, &err) != 1) {
		fprintf(stderr, "cocoonctl %s: session %s is not running (%s): refusing "
			"it; cocoonctl list removes its record\n", a->cmd, s.record->id,
			err.msg);
	} else {
		s.pidfd = pidfd;
		rc = command(&s);
	}
	records_free(&s.list);
	return rc;
}
