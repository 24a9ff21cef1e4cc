// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl: check, explain and run the cocoon policy. A thin front end
 * over common/: policy -> rule -> plan -> sandbox. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "enter.h"
#include "host_checks.h"
#include "plan_check.h"
#include "records.h"
#include "syscalls.h"

#include "deployment.h"
#include "directives.h"
#include "landlock.h"
#include "environment.h"
#include "plan_print.h"
#include "resolve.h"
#include "sandbox.h"
#include "util.h"

#define DEFAULT_SERVICE "shell"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: cocoonctl check [--config FILE] [--pam [--root DIR]]\n"
		"       cocoonctl explain [--config FILE] [--service NAME] [--json | --bwrap] USER\n"
		"       cocoonctl explain [--config FILE] [--service NAME] --all\n"
		"       cocoonctl edit [--config FILE]\n"
		"       cocoonctl run [--config FILE] [--service NAME] --user USER -- COMMAND [ARG...]\n"
		"       cocoonctl list [--json] [--verbose]\n"
		"       cocoonctl stop ID\n"
		"       cocoonctl enter ID [--root] [-- COMMAND [ARG...]]\n"
		"       cocoonctl --version\n");
}

struct options {
	const char *config;
	const char *service;
	const char *user;
	const char *root;
	bool json, bwrap, pam, all;
};

/* Options shared by the commands; returns the index of the first operand
 * or -1 after printing why. */
static int parse_options(int argc, char **argv, struct options *o, const char *allowed)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "service", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' },
		{ "bwrap", no_argument, NULL, 'b' },
		{ "pam", no_argument, NULL, 'p' },
		{ "root", required_argument, NULL, 'r' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == '?' || !strchr(allowed, c)) {
			if (c != '?')
				fprintf(stderr, "cocoonctl %s: option %s does not apply\n",
					argv[0], argv[optind - 1]);
			usage(stderr);
			return -1;
		}
		switch (c) {
		case 'c': o->config = optarg; break;
		case 's': o->service = optarg; break;
		case 'u': o->user = optarg; break;
		case 'j': o->json = true; break;
		case 'b': o->bwrap = true; break;
		case 'p': o->pam = true; break;
		case 'r': o->root = optarg; break;
		case 'a': o->all = true; break;
		}
	}
	if (o->json && o->bwrap) {
		fprintf(stderr, "cocoonctl: --json and --bwrap exclude each other\n");
		return -1;
	}
	return optind;
}

static void print_diags(const struct diag_list *diags)
{
	for (size_t i = 0; i < diags->count; i++) {
		const struct diag *d = &diags->items[i];
		const char *level = d->level == DIAG_ERROR ? "error" : "warning";
		if (d->file && d->line > 0)
			fprintf(stderr, "%s:%d: %s: %s\n", d->file, d->line, level, d->msg);
		else if (d->file)
			fprintf(stderr, "%s: %s: %s\n", d->file, level, d->msg);
		else
			fprintf(stderr, "%s: %s\n", level, d->msg);
	}
}

/* Load the policy (config NULL: the system's) and collect its syntax
 * errors, validation findings and, with NAMES, the NSS name checks.
 * Returns -1 after printing why when it cannot be read at all. */
static int load_checked(const char *config, bool names, struct policy *policy,
			struct diag_list *diags)
{
	struct cc_error err;
	if (policy_load(policy, config, &err) < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		policy_free(policy);
		return -1;
	}
	for (size_t i = 0; i < policy->diags.count; i++) {
		const struct diag *d = &policy->diags.items[i];
		diag_add(diags, d->level, d->file, d->line, "%s", d->msg);
	}
	policy_validate(policy, diags);
	if (names)
		policy_check_host(policy, diags);
	return 0;
}

/* check --pam: the PAM stacks, login shells and what runs outside
 * sessions, on this host or on the system image under ROOT. */
static void check_deployment(const char *root, const struct policy *policy,
			     struct diag_list *diags)
{
	struct deployment_paths paths;
	deployment_paths_default(&paths);
	/* shell_path stays as /etc/shells and passwd spell it. */
	/* sshd is this host's program, given the image's config. */
	const char **fields[] = { &paths.pam_dir, &paths.shells, &paths.crontabs,
				  &paths.atjobs, &paths.linger, &paths.sshd_config,
				  &paths.sshd_defaults };
	enum { NFIELDS = sizeof(fields) / sizeof(fields[0]) };
	char *owned[NFIELDS] = { 0 };
	for (size_t i = 0; root && i < NFIELDS; i++)
		*fields[i] = owned[i] = xasprintf("%s%s", root, *fields[i]);
	paths.root = root;
	deployment_check(&paths, policy, diags);
	for (size_t i = 0; i < NFIELDS; i++)
		free(owned[i]);
}

static int cmd_check(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "cpr");
	if (first < 0)
		return 2;
	if (first != argc || (o.root && !o.pam)) {
		usage(stderr);
		return 2;
	}
	struct policy policy = { 0 };
	struct diag_list diags = { 0 };
	if (load_checked(o.config, true, &policy, &diags) < 0)
		return 1;
	if (o.pam)
		check_deployment(o.root, diag_count(&diags, DIAG_ERROR) ? NULL : &policy,
				 &diags);
	print_diags(&diags);
	size_t errors = diag_count(&diags, DIAG_ERROR);
	size_t warnings = diag_count(&diags, DIAG_WARNING);
	if (policy.embedded_only)
		printf("no policy file: the embedded default applies\n");
	size_t sections = 0;
	for (size_t i = 0; i < policy.nsections; i++)
		sections += !policy.sections[i].embedded;
	if (!errors)
		printf("policy OK (%zu file%s, %zu section%s, %zu warning%s)\n",
		       policy.nfiles, policy.nfiles == 1 ? "" : "s",
		       sections, sections == 1 ? "" : "s",
		       warnings, warnings == 1 ? "" : "s");
	diag_free(&diags);
	policy_free(&policy);
	return errors ? 1 : 0;
}

/* The plan for USER, or an exit status after printing why. GROUPS:
 * explain shows them; run leaves them to the session process. */
static int plan_or_exit(const struct options *o, const char *user,
			enum identity_groups groups, struct plan *plan)
{
	struct identity who;
	struct cc_error err;
	if (identity_lookup_name_or_uid(user, groups, &who, &err) < 0) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		return 1;
	}
	if (who.uid == 0) {
		fprintf(stderr, "cocoonctl: %s has uid 0: root is never sandboxed\n", user);
		identity_free(&who);
		return 1;
	}
	enum resolve_result rc = plan_for_session(o->config, &who,
						  o->service ? o->service : DEFAULT_SERVICE,
						  plan, &err);
	identity_free(&who);
	if (rc == RESOLVE_ERROR) {
		fprintf(stderr, "cocoonctl: %s\n", err.msg);
		plan_free(plan);
		return 1;
	}
	return 0;
}

/* One line per NSS user: the rule it matches on the service, and what
 * that gives. */
static int explain_all(const struct options *o)
{
	struct policy policy = { 0 };
	struct diag_list diags = { 0 };
	struct cc_error err;
	/* A broken policy would refuse everyone alike: say it once. */
	if (load_checked(o->config, false, &policy, &diags) < 0)
		return 1;
	size_t errors = diag_count(&diags, DIAG_ERROR);
	if (errors)
		print_diags(&diags);
	diag_free(&diags);
	if (errors) {
		policy_free(&policy);
		return 1;
	}
	const char *service = o->service ? o->service : DEFAULT_SERVICE;
	uid_t uid_min = login_defs_uid_min(COCOON_LOGIN_DEFS);
	size_t count = 0, cap = 0;
	char **names = NULL;
	struct passwd *pw;
	setpwent();
	while ((pw = getpwent()))
		*ARRAY_PUSH(names, count, cap) = xstrdup(pw->pw_name);
	endpwent();
	printf("%-16s %7s  %s %s\n", "USER", "UID", "ON SERVICE", service);
	for (size_t i = 0; i < count; i++) {
		struct identity who;
		struct plan plan;
		if (identity_lookup(names[i], GROUPS_NOW, &who, &err) < 0) {
			printf("%-16s %7s  lookup failed: %s\n", names[i], "?", err.msg);
			continue;
		}
		printf("%-16s %7u  ", who.user, (unsigned)who.uid);
		if (who.uid == 0) {
			printf("never sandboxed (root)\n");
			identity_free(&who);
			continue;
		}
		enum resolve_result r = policy_resolve(&policy, &who, service, uid_min,
							&plan, &err);
		if (r == RESOLVE_ERROR)
			printf("refused: %s\n", err.msg);
		else if (r == RESOLVE_NOT_COVERED) {
			printf("unconfined: no rule covers %s%s\n", service,
			       who.uid < uid_min ? " (a system account: only [user] rules "
			       "match)" : "");
		} else if (!plan.sandboxed) {
			printf("unconfined: sandbox = none, by %s\n", plan.rule);
		} else {
			printf("sandboxed by %s, profile %s, plan %s\n", plan.rule,
			       plan.profile ? plan.profile : "(none)", plan.hash);
		}
		plan_free(&plan);
		identity_free(&who);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	policy_free(&policy);
	return 0;
}

/* Which Landlock walls this kernel (ABI) raises for PLAN: the plan says
 * what it asks for, the kernel what it can give. */
static void describe_landlock(const struct plan *plan, int abi, struct strbuf *out)
{
	char scope[64];
	landlock_scope_format(plan->landlock_scope, scope, sizeof(scope));
	if (abi < 2) {
		sb_addf(out, "this kernel: %s: no Landlock wall; %s\n",
			abi == 1 ? "Landlock ABI 1" : "no Landlock",
			plan->landlock_required ? "landlock = required refuses the session"
						: "the session runs without it");
	} else if (!(plan->landlock_scope & LL_SCOPE_ALL)) {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall (no scope "
			"asked for)\n", abi);
	} else if (abi < LL_SCOPE_MIN_ABI) {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall; the scope "
			"(%s) needs ABI %d (Linux 6.12) and is not applied\n", abi, scope,
			LL_SCOPE_MIN_ABI);
	} else {
		sb_addf(out, "this kernel: Landlock ABI %d: the file-system wall and the "
			"scope (%s)\n", abi, scope);
	}
}

static int cmd_explain(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "csjba");
	if (first < 0)
		return 2;
	if (o.all && (first != argc || o.json || o.bwrap)) {
		fprintf(stderr, "cocoonctl explain: --all takes no USER, --json or --bwrap\n");
		return 2;
	}
	if (o.all)
		return explain_all(&o);
	if (first != argc - 1) {
		usage(stderr);
		return 2;
	}
	struct plan plan;
	int rc = plan_or_exit(&o, argv[first], GROUPS_NOW, &plan);
	if (rc)
		return rc;
	struct strbuf out = { 0 };
	struct cc_error err;
	if (o.json) {
		plan_print_json(&plan, &out);
	} else if (o.bwrap) {
		if (plan_print_bwrap(&plan, &out, &err) < 0) {
			fprintf(stderr, "cocoonctl: %s\n", err.msg);
			sb_free(&out);
			rc = 1;
		} else {
			if (!plan.command) {
				sb_addf(&out, " ");
				sb_add_shell_word(&out, plan.shell ? plan.shell : "/bin/sh");
			}
			sb_addf(&out, "\n");
		}
	} else {
		plan_print_text(&plan, &out);
		if (plan.sandboxed)
			describe_landlock(&plan, landlock_abi(), &out);
	}
	if (out.data)
		fputs(out.data, stdout);
	sb_free(&out);
	plan_free(&plan);
	return rc;
}

/* ---- edit: as visudo does for sudoers ---- */

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

/* Findings of the edited copy, under the name of the file it replaces. */
static size_t check_edited(const char *copy, const char *target)
{
	struct policy policy = { 0 };
	struct diag_list diags = { 0 };
	if (load_checked(copy, true, &policy, &diags) < 0)
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

static int cmd_edit(int argc, char **argv)
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
	char *before = NULL;
	size_t before_len = 0;
	struct cc_error err;
	if (access(target, F_OK) == 0 &&
	    read_trusted_file(target, EDIT_MAX, &before, &before_len, &err) < 0) {
		fprintf(stderr, "cocoonctl edit: %s\n", err.msg);
		return 1;
	}
	/* One editor at a time: a lock beside the file, kept for the whole
	 * edit. The copy lives in the same trusted directory. */
	char *dir = xstrdup(target);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *lock = xasprintf("%s/.%s.lock", dir, slash ? slash + 1 : target);
	char *copy = xasprintf("%s/.%s.edit.XXXXXX", dir, slash ? slash + 1 : target);
	int rc = 1, lock_fd = -1, copy_fd = -1;
	if (path_trusted(*dir ? dir : "/", &err) < 0) {
		fprintf(stderr, "cocoonctl edit: %s\n", err.msg);
		goto out;
	}
	lock_fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "cocoonctl edit: %s: %s\n", lock, lock_fd < 0 ? strerror(errno)
			: "another cocoonctl edit holds it");
		goto out;
	}
	copy_fd = mkostemp(copy, O_CLOEXEC);
	const char *seed = before ? before : new_policy;
	size_t seed_len = before ? before_len : strlen(new_policy);
	if (copy_fd < 0 || write(copy_fd, seed, seed_len) != (ssize_t)seed_len) {
		fprintf(stderr, "cocoonctl edit: writing %s: %s\n", copy, strerror(errno));
		goto out;
	}
	close(copy_fd);
	copy_fd = -1;
	rc = edit_loop(target, copy, before, before_len);
out:
	if (copy_fd >= 0)
		close(copy_fd);
	unlink(copy);
	if (lock_fd >= 0)
		close(lock_fd);
	free(lock);
	free(copy);
	free(dir);
	free(before);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o, "csu");
	if (first < 0)
		return 2;
	if (!o.user || first >= argc) {
		fprintf(stderr, "cocoonctl run: needs --user USER and a command after --\n");
		usage(stderr);
		return 2;
	}
	if (getuid() != 0 || geteuid() != 0) {
		fprintf(stderr, "cocoonctl run: only root may run sessions\n");
		return 1;
	}
	struct plan plan;
	int rc = plan_or_exit(&o, o.user, GROUPS_LATER, &plan);
	if (rc)
		return rc;
	if (!plan.rule || !plan.sandboxed) {
		fprintf(stderr, "cocoonctl run: %s is not sandboxed on service %s (%s); "
			"refusing to run unconfined\n", plan.who.user, plan.service,
			plan.rule ? "sandbox = none" : "no rule covers it");
		plan_free(&plan);
		return 1;
	}
	const char *shell = plan.shell ? plan.shell : "/bin/sh";
	char **envp = session_environment(&plan, environ, shell);
	bool expired = false;
	struct sandbox_request req = {
		.plan = &plan,
		.path = argv[first],
		.argv = &argv[first],
		.envp = envp,
		.expired = &expired,
	};
	struct cc_error err;
	int status = 1;
	char id[33];
	if (session_id_new(id, &err) < 0) {
		fprintf(stderr, "cocoonctl run: %s\n", err.msg);
		strv_free(envp);
		plan_free(&plan);
		return 1;
	}
	req.session_id = id;
	if (sandbox_run(&req, &status, &err) < 0) {
		fprintf(stderr, "cocoonctl run: %s\n", err.msg);
		status = 1;
	}
	if (expired)
		fprintf(stderr, "cocoonctl run: the session reached its max-session-time "
			"and was ended\n");
	strv_free(envp);
	plan_free(&plan);
	return status;
}

/* ---- Live sessions: list, stop, enter ---- */

struct session_args {
	const char *cmd;
	const char *id;
	bool json, verbose, root;
	char **command; /* after --; NULL: none */
};

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

static void print_started(FILE *out, long long when)
{
	time_t t = (time_t)when;
	struct tm tm;
	char buf[32] = "?";
	if (localtime_r(&t, &tm))
		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	fputs(buf, out);
}

static void list_json(const struct record_list *list, const bool *live)
{
	struct strbuf sb = { 0 };
	sb_addf(&sb, "[");
	size_t shown = 0;
	for (size_t i = 0; i < list->count; i++) {
		const struct live_record *r = &list->items[i];
		if (!live[i])
			continue;
		char ns[128];
		ns_format(r->namespaces, ns, sizeof(ns));
		sb_addf(&sb, "%s\n  {\"id\": ", shown++ ? "," : "");
		sb_add_json_string(&sb, r->id);
		sb_addf(&sb, ", \"user\": ");
		sb_add_json_string(&sb, r->user);
		sb_addf(&sb, ", \"uid\": %u, \"service\": ", (unsigned)r->uid);
		sb_add_json_string(&sb, r->service);
		sb_addf(&sb, ", \"started\": %lld, \"rule\": ", r->started);
		sb_add_json_string(&sb, r->rule);
		sb_addf(&sb, ", \"profile\": ");
		if (r->profile)
			sb_add_json_string(&sb, r->profile);
		else
			sb_addf(&sb, "null");
		sb_addf(&sb, ", \"plan\": ");
		sb_add_json_string(&sb, r->hash);
		sb_addf(&sb, ", \"pid\": %d, \"namespaces\": ", (int)r->pid);
		sb_add_json_string(&sb, ns);
		sb_addf(&sb, ", \"state\": \"%s\"}",
			r->namespaces & NS_PID ? "running" : "running-no-pidns");
	}
	sb_addf(&sb, "%s]\n", shown ? "\n" : "");
	fputs(sb.data, stdout);
	sb_free(&sb);
}

static int cmd_list(const struct session_args *a, int dir, struct record_list *list)
{
	bool *live = xcalloc(list->count, sizeof(bool));
	size_t stale = 0;
	for (size_t i = 0; i < list->count; i++) {
		const struct live_record *r = &list->items[i];
		struct cc_error why;
		int pidfd;
		int rc = record_attach(r, &pidfd, &why);
		if (rc == 1) {
			live[i] = true;
			close(pidfd);
		} else if (rc == 0) {
			/* A crash or a lost end left it: it confuses nothing. */
			unlinkat(dir, r->id, 0);
			stale++;
			if (a->verbose)
				fprintf(stderr, "cocoonctl list: removed the stale record %s: "
					"%s\n", r->id, why.msg);
		} else {
			fprintf(stderr, "cocoonctl list: %s: %s\n", r->id, why.msg);
		}
	}
	if (a->json) {
		list_json(list, live);
	} else {
		printf("%-32s %-12s %-10s %-19s %-12s %-16s %s\n", "ID", "USER", "SERVICE",
		       "STARTED", "PROFILE", "PLAN", "STATE");
		for (size_t i = 0; i < list->count; i++) {
			const struct live_record *r = &list->items[i];
			if (!live[i])
				continue;
			printf("%-32s %-12s %-10s ", r->id, r->user, r->service);
			print_started(stdout, r->started);
			printf(" %-12s %-16s %s\n", r->profile ? r->profile : "-", r->hash,
			       r->namespaces & NS_PID ? "running" : "running (no pid namespace)");
		}
	}
	if (stale && !a->verbose)
		fprintf(stderr, "cocoonctl list: removed %zu stale record%s (--verbose "
			"says which)\n", stale, stale == 1 ? "" : "s");
	free(live);
	return 0;
}

/* The audit line of a stopped session (cocoon.conf(5), AUDIT RECORDS). */
static void audit_stopped(const struct live_record *r)
{
	struct plan plan;
	plan_init(&plan);
	plan.rule = r->rule;
	plan.profile = r->profile;
	plan.namespaces = r->namespaces;
	memcpy(plan.hash, r->hash, sizeof(plan.hash));
	struct audit_record ar;
	audit_init(&ar, "end");
	ar.user = r->user;
	ar.uid = r->uid;
	ar.service = r->service;
	ar.plan = &plan;
	ar.session = r->id;
	ar.result = "stopped";
	ar.reason = "cocoonctl stop";
	struct timespec now;
	clock_gettime(CLOCK_BOOTTIME, &now);
	ar.duration = (long long)now.tv_sec - r->boottime;
	struct strbuf line = { 0 };
	audit_format(&ar, &line);
	openlog("cocoonctl", LOG_PID, LOG_AUTHPRIV);
	syslog(LOG_NOTICE, "%s", line.data);
	closelog();
	sb_free(&line);
}

static int cmd_stop(int dir, const struct live_record *r, int pidfd)
{
	/* SIGKILL to pid 1 ends its whole pid namespace. */
	if (sys_pidfd_send_signal(pidfd, SIGKILL) < 0) {
		fprintf(stderr, "cocoonctl stop: %s: %s\n", r->id, strerror(errno));
		return 1;
	}
	struct pollfd pfd = { pidfd, POLLIN, 0 };
	int n;
	while ((n = poll(&pfd, 1, 10000)) < 0 && errno == EINTR)
		;
	if (n <= 0) {
		/* The record stays: the session may still run. */
		fprintf(stderr, "cocoonctl stop: pid %d had not ended after 10 s\n",
			(int)r->pid);
		return 1;
	}
	unlinkat(dir, r->id, 0);
	audit_stopped(r);
	printf("stopped session %s (user %s, service %s, pid %d)\n", r->id, r->user,
	       r->service, (int)r->pid);
	return 0;
}

/* The shell the session's user logs in with. */
static const char *session_shell(const struct plan *plan)
{
	const char *login = plan->who.login_shell;
	if (plan->shell)
		return plan->shell;
	if (login && login[0] == '/') {
		const char *base = strrchr(login, '/') + 1;
		if (strcmp(base, "cocoon-shell") != 0)
			return login;
	}
	return "/bin/sh";
}

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

static int cmd_enter(const struct session_args *a, const struct live_record *r,
		     int pidfd)
{
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
	char *shell[] = { (char *)session_shell(&plan), NULL };
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
	struct enter_request req = { .pidfd = pidfd, .namespaces = r->namespaces,
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

static int cmd_sessions(int argc, char **argv)
{
	struct session_args a = { 0 };
	if (parse_session_args(argc, argv, &a) < 0)
		return 2;
	if (getuid() != 0 || geteuid() != 0) {
		fprintf(stderr, "cocoonctl %s: only root may see sessions\n", a.cmd);
		return 1;
	}
	struct cc_error err;
	struct record_list list = { 0 };
	int dir = record_dir_open(true, &err);
	if (dir < 0 || records_load(dir, &list, bad_record, &err) < 0) {
		fprintf(stderr, "cocoonctl %s: %s\n", a.cmd, err.msg);
		if (dir >= 0)
			close(dir);
		return 1;
	}
	int rc = 1;
	const struct live_record *r = NULL;
	int pidfd = -1;
	if (strcmp(a.cmd, "list") == 0) {
		rc = cmd_list(&a, dir, &list);
	} else if (records_find(&list, a.id, &r, &err) < 0) {
		fprintf(stderr, "cocoonctl %s: %s\n", a.cmd, err.msg);
	} else if (record_attach(r, &pidfd, &err) != 1) {
		fprintf(stderr, "cocoonctl %s: session %s is not running (%s): refusing "
			"it; cocoonctl list removes its record\n", a.cmd, r->id, err.msg);
	} else {
		rc = strcmp(a.cmd, "stop") == 0 ? cmd_stop(dir, r, pidfd)
						 : cmd_enter(&a, r, pidfd);
	}
	if (pidfd >= 0)
		close(pidfd);
	records_free(&list);
	close(dir);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--version") == 0) {
		printf("cocoonctl %s\n", COCOON_VERSION);
		return 0;
	}
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(cmd, "explain") == 0)
		return cmd_explain(argc - 1, argv + 1);
	if (strcmp(cmd, "edit") == 0)
		return cmd_edit(argc - 1, argv + 1);
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "list") == 0 || strcmp(cmd, "stop") == 0 ||
	    strcmp(cmd, "enter") == 0)
		return cmd_sessions(argc - 1, argv + 1);
	fprintf(stderr, "cocoonctl: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
