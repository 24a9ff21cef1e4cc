// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl enter: a command inside a live session. */
/* cocoonctl enter: a command (or the user's shell) inside a live
 * session, as its user under its plan; with --root, a host binary as
 * root. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "admission.h"
#include "enter.h"
#include "plan_check.h"
#include "sessions.h"

/* --root's binary: opened now, on the host; only root may have written it. */
static int open_root_binary(const char *path, struct cc_error *err)
{
	if (path[0] != '/')
		return cc_fail(err, "--root needs an absolute path, not '%s'", path);
	int fd = open(path, O_PATH | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return cc_fail_errno(err, "%s", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) || !(st.st_mode & S_IXUSR)) {
		close(fd);
		return cc_fail(err, "%s is not an executable regular file that only root "
			       "can write", path);
	}
	return fd;
}

static const char *sane_term(void)
{
	const char *t = getenv("TERM");
	if (!t || !*t || strlen(t) > 64)
		return NULL;
	for (const char *p = t; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._+", *p))
			return NULL;
	return t;
}

static int enter_session(const struct session_ctx *s)
{
	const struct session_args *a = &s->args;
	const struct live_record *r = s->record;
	struct cc_error err;
	if (!(r->namespaces & NS_PID))
		return fprintf(stderr, "cocoonctl enter: session %s has no pid namespace: "
			       "it can be listed and stopped, not entered\n", r->id), 1;
	if (r->namespaces & NS_USER)
		return fprintf(stderr, "cocoonctl enter: session %s has a user namespace, "
			       "which enter does not join\n", r->id), 1;
	/* Everything that reads the host happens before entering: the front
	 * door, asked for the session's owner as its record names it, must
	 * give the plan the session runs under. */
	struct admission_request asked = {
		.kind = ENTRY_ENTER, .uid = r->uid, .expect_user = r->user,
		.service = r->service, .live_hash = r->hash, .groups = GROUPS_NOW,
		.argc = 0, .argv = a->command, .enter_as_root = a->root,
	};
	struct admission adm;
	int rc = 1, binary = -1, status = 1;
	if (admission_decide(&asked, &adm) < 0 || adm.verdict != VERDICT_SANDBOXED) {
		fprintf(stderr, "cocoonctl enter: %s\n", adm.reason);
		goto out;
	}
	const struct plan *plan = &adm.plan;
	if (a->root && (binary = open_root_binary(a->command[0], &err)) < 0) {
		fprintf(stderr, "cocoonctl enter --root: %s\n", err.msg);
		goto out;
	}
	struct enter_request req = { .pidfd = s->pidfd, .namespaces = r->namespaces,
				     .plan = plan, .root_binary = binary,
				     .argv = adm.argv, .term = sane_term(), .shell = adm.shell };
	if (session_enter(&req, &status, &err) < 0)
		fprintf(stderr, "cocoonctl enter: %s\n", err.msg);
	else
		rc = status;
out:
	if (binary >= 0)
		close(binary);
	admission_free(&adm);
	return rc;
}

int cmd_enter(int argc, char **argv)
{
	return run_session_command(argc, argv, enter_session);
}
