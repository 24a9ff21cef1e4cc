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
#include "enter.h"
#include "plan_check.h"
#include "resolve.h"
#include "sessions.h"
#include "shells.h"

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
	/* Everything that reads the host happens before entering. */
	struct identity who;
	if (identity_lookup_uid(r->uid, GROUPS_NOW, &who, &err) < 0)
		return fprintf(stderr, "cocoonctl enter: %s\n", err.msg), 1;
	struct plan plan;
	plan_init(&plan);
	enum resolve_result res = strcmp(who.user, r->user) != 0 ? RESOLVE_ERROR :
		plan_for_session(NULL, &who, r->service, &plan, &err);
	if (strcmp(who.user, r->user) != 0)
		cc_fail(&err, "uid %u is %s now, not %s", (unsigned)r->uid, who.user, r->user);
	identity_free(&who);
	if (res != RESOLVE_PLAN) {
		plan_free(&plan);
		fprintf(stderr, "cocoonctl enter: %s\n", res == RESOLVE_ERROR ? err.msg :
			"no rule covers the session's user and service any more");
		return 1;
	}
	int rc = 1, binary = -1, status = 1;
	const char *real = NULL;
	bool by_cocoon_shell = shell_service_is_cocoon_shell(plan.service);
	if (shell_real(&plan, by_cocoon_shell, &real, &err) < 0) {
		fprintf(stderr, "cocoonctl enter: %s\n", err.msg);
		goto out;
	}
	char *shell[] = { (char *)real, NULL };
	if (!plan.sandboxed || strcmp(plan.hash, r->hash) != 0) {
		fprintf(stderr, "cocoonctl enter: the policy now gives %s on %s plan %s, "
			"and the session runs under plan %s: refusing to enter with "
			"another confinement\n", r->user, r->service,
			plan.sandboxed ? plan.hash : "(none)", r->hash);
		goto out;
	}
	if (a->root && ((binary = open_root_binary(a->command[0], &err)) < 0 ||
			plan_check_service(&plan, &err) < 0)) {
		fprintf(stderr, "cocoonctl enter --root: %s\n", err.msg);
		goto out;
	}
	struct enter_request req = { .pidfd = s->pidfd, .namespaces = r->namespaces,
				     .plan = &plan, .root_binary = binary,
				     .argv = a->command ? a->command : shell,
				     .term = sane_term(), .shell = shell[0] };
	if (session_enter(&req, &status, &err) < 0)
		fprintf(stderr, "cocoonctl enter: %s\n", err.msg);
	else
		rc = status;
out:
	if (binary >= 0)
		close(binary);
	plan_free(&plan);
	return rc;
}

int cmd_enter(int argc, char **argv)
{
	return run_session_command(argc, argv, enter_session);
}
