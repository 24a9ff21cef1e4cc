// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl edit: the policy edited on a copy and installed only valid. */
/* cocoonctl edit: as visudo does for sudoers. The administrator's
 * editor works on a copy; only a copy without errors is installed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "trusted_file.h"
#include "util.h"

#define EDIT_MAX (1024 * 1024)

static int read_whole(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct strbuf sb = { 0 };
	char buf[8192];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0 && sb.len < EDIT_MAX)
		sb_addn(&sb, buf, (size_t)n);
	close(fd);
	if (n < 0 || sb.len >= EDIT_MAX) {
		sb_free(&sb);
		errno = n < 0 ? errno : EFBIG;
		return -1;
	}
	*text = sb.data ? sb.data : xstrdup("");
	*len = sb.len;
	return 0;
}

/* Run the administrator's editor on PATH; its exit status. */
static int run_editor(const char *path)
{
	const char *editor = getenv("VISUAL");
	if (!editor || !*editor)
		editor = getenv("EDITOR");
	if (!editor || !*editor)
		editor = access("/usr/bin/editor", X_OK) == 0 ? "/usr/bin/editor" : "vi";
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* $0 unquoted: "emacs -nw" is a command and its option. */
		execl("/bin/sh", "sh", "-c", "exec $0 \"$1\"", editor, path, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Findings of the edited copy, as `check --as TARGET COPY` finds them
 * (with the installed drop-ins beside it), under the name of the file it
 * replaces. */
static size_t check_edited(const char *copy, const char *target)
{
	struct policy policy = { 0 };
	struct diag_list diags = { 0 };
	if (load_candidate_checked(copy, target, &policy, &diags) < 0)
		return 1;
	for (size_t i = 0; i < diags.count; i++) {
		struct diag *d = &diags.items[i];
		if (d->file && strcmp(d->file, copy) == 0) {
			free(d->file);
			d->file = xstrdup(target);
		}
		char *at = strstr(d->msg, copy);
		if (at) {
			char *msg = xasprintf("%.*s%s%s", (int)(at - d->msg), d->msg, target,
					      at + strlen(copy));
			free(d->msg);
			d->msg = msg;
		}
	}
	print_diags(&diags);
	size_t errors = diag_count(&diags, DIAG_ERROR);
	diag_free(&diags);
	policy_free(&policy);
	return errors;
}

static const char new_policy[] =
	"# cocoon policy: see cocoon.conf(5). Checked by cocoonctl edit.\n"
	"[default]\n"
	"profile = default\n";

static int edit_loop(const char *target, const char *copy, const char *before,
		     size_t before_len)
{
	for (;;) {
		int status = run_editor(copy);
		if (status != 0) {
			fprintf(stderr, "cocoonctl edit: the editor exited with status %d; "
				"%s is unchanged\n", status, target);
			return 1;
		}
		char *text;
		size_t len;
		if (read_whole(copy, &text, &len) < 0) {
			fprintf(stderr, "cocoonctl edit: reading the edited copy: %s; %s is "
				"unchanged\n", strerror(errno), target);
			return 1;
		}
		if (before && len == before_len && memcmp(text, before, len) == 0) {
			printf("no changes: %s is unchanged\n", target);
			free(text);
			return 0;
		}
		if (check_edited(copy, target) == 0) {
			struct cc_error err;
			int rc = policy_install_text(target, text, len, &err);
			free(text);
			if (rc < 0) {
				fprintf(stderr, "cocoonctl edit: %s\n", err.msg);
				return 1;
			}
			printf("installed %s\n", target);
			return 0;
		}
		free(text);
		/* Never installed with an error: a broken policy refuses
		 * every session it covers. */
		fprintf(stderr, "The policy has errors. (e)dit again, or e(x)it "
			"without saving? ");
		char answer[16];
		if (!fgets(answer, sizeof(answer), stdin) || answer[0] != 'e') {
			fprintf(stderr, "\n%s is unchanged\n", target);
			return 1;
		}
	}
}

int cmd_edit(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "c");
	if (first < 0)
		return 2;
	if (first != argc) {
		usage(stderr);
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "cocoonctl edit: only root may edit the policy\n");
		return 1;
	}
	const char *target = o.config ? o.config : COCOON_POLICY_FILE;
	char *before AUTOFREE = NULL;
	size_t before_len = 0;
	struct cc_error err;
	if (access(target, F_OK) == 0 &&
	    read_trusted_file(target, EDIT_MAX, &before, &before_len, &err) < 0) {
		fprintf(stderr, "cocoonctl edit: %s\n", err.msg);
		return 1;
	}
	/* One editor at a time: a lock beside the file, kept for the whole
	 * edit. The copy lives in the same trusted directory. */
	char *dir AUTOFREE = xstrdup(target);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *lock AUTOFREE = xasprintf("%s/.%s.lock", dir, slash ? slash + 1 : target);
	char *copy AUTOFREE = xasprintf("%s/.%s.edit.XXXXXX", dir, slash ? slash + 1 : target);
	if (path_trusted(*dir ? dir : "/", &err) < 0) {
		fprintf(stderr, "cocoonctl edit: %s\n", err.msg);
		return 1;
	}
	int lock_fd AUTOCLOSE = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "cocoonctl edit: %s: %s\n", lock, lock_fd < 0 ? strerror(errno)
			: "another cocoonctl edit holds it");
		return 1;
	}
	int copy_fd AUTOCLOSE = mkostemp(copy, O_CLOEXEC);
	const char *seed = before ? before : new_policy;
	size_t seed_len = before ? before_len : strlen(new_policy);
	bool seeded = copy_fd >= 0 && write(copy_fd, seed, seed_len) == (ssize_t)seed_len;
	if (!seeded)
		fprintf(stderr, "cocoonctl edit: writing %s: %s\n", copy, strerror(errno));
	autoclose_fd(&copy_fd);
	int rc = seeded ? edit_loop(target, copy, before, before_len) : 1;
	/* The copy goes while the lock is still held. */
	unlink(copy);
	return rc;
}
