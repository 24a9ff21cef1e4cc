// SPDX-License-Identifier: GPL-2.0-or-later
/* How cocoon is deployed on this host (PAM stacks, shells): check --pam. */
#include "deployment.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_checks.h"
#include "line_reader.h"
#include "pam_stack.h"
#include "resolve.h"
#include "sshd_config.h"
#include "util.h"

#define MODULE_NAME PAM_STACK_COCOON_MODULE
/* Where the example files are installed (the Makefile's EXAMPLESDIR):
 * findings point at the installed copy. */
#ifndef COCOON_EXAMPLESDIR
#define COCOON_EXAMPLESDIR "/usr/local/share/doc/cocoon/examples"
#endif

void deployment_paths_default(struct deployment_paths *paths)
{
	paths->pam_dir = COCOON_PAM_DIR;
	paths->shells = COCOON_SHELLS_FILE;
	paths->crontabs = "/var/spool/cron/crontabs";
	paths->atjobs = "/var/spool/cron/atjobs";
	paths->linger = "/var/lib/systemd/linger";
	paths->shell_path = COCOON_SHELL_PATH;
	paths->sshd = COCOON_SSHD;
	paths->sshd_config = COCOON_SSHD_CONFIG;
	paths->sshd_defaults = COCOON_SSHD_DEFAULTS;
	paths->root = NULL;
}

/* Display managers run their PAM session from a multithreaded worker, where
 * unshare and setns of the mount namespace fail. */
static bool is_display_manager(const char *service)
{
	static const char *const names[] = {
		"gdm", "lightdm", "sddm", "xdm", "lxdm", "slim", "kdm", "wdm", NULL,
	};
	for (size_t i = 0; names[i]; i++)
		if (str_starts_with(service, names[i]))
			return true;
	return false;
}

/* Whether line I of the stack can make libpam pass over line TARGET, a
 * later one: end the stack with success (sufficient, an action `done`:
 * at its own level, so inside a substack only that substack) or jump
 * over it (an action N skips N modules of its level, a substack counting
 * as one; a jump past the end fails the stack instead). */
static bool passes_over(const struct pam_stack *s, size_t i, size_t target)
{
	const struct pam_stack_line *l = &s->lines[i];
	if (strcasecmp(l->control, "sufficient") == 0)
		return l->level <= s->lines[target].level;
	if (l->control[0] != '[')
		return false;
	char control[sizeof(l->control)];
	pam_stack_control_normalize(l->control, control, sizeof(control));
	size_t most = 0;
	for (const char *p = control; (p = strchr(p, '='));) {
		p++;
		size_t len = strcspn(p, " \t]");
		if (len == 4 && strncasecmp(p, "done", 4) == 0 &&
		    l->level <= s->lines[target].level)
			return true;
		if (len > 0 && strspn(p, "0123456789") == len) {
			size_t jump = (size_t)strtoul(p, NULL, 10);
			if (jump > most)
				most = jump;
		}
		p += len;
	}
	size_t h = i;
	while (h + 1 < s->count && s->lines[h + 1].level >= l->level && most > 0) {
		do
			h++;
		while (h + 1 < s->count && s->lines[h + 1].level > l->level);
		most--;
	}
	return most == 0 && h > i && target <= h;
}

/* What is wrong with one service's session stack; returns whether the
 * stack confines sessions at all. */
static bool check_service(const char *dir, const char *service,
			  struct diag_list *diags)
{
	struct pam_stack s = { .type = "session" };
	pam_stack_read(dir, service, &s, 0, diags);
	const struct pam_stack_line *main_line = NULL, *return_line = NULL;
	size_t main_at = 0, mains = 0;
	for (size_t i = 0; i < s.count; i++) {
		const struct pam_stack_line *l = &s.lines[i];
		if (!l->is_cocoon)
			continue;
		if (l->has_return) {
			if (!return_line)
				return_line = l;
			if (i != 0)
				diag_add(diags, DIAG_WARNING, l->file, l->line,
					 "service %s: the 'return' line of " MODULE_NAME
					 " is not the first session line: the modules above "
					 "it close inside the sandbox, and a refusal is told "
					 "after what they show", service);
			continue;
		}
		mains++;
		main_line = l;
		main_at = i;
	}
	bool confines = mains > 0;
	if (!confines) {
		if (return_line)
			diag_add(diags, DIAG_WARNING, return_line->file, return_line->line,
				 "service %s has only the 'return' line of " MODULE_NAME
				 ": its sessions are not confined", service);
		pam_stack_free(&s);
		return false;
	}
	if (mains > 1)
		diag_add(diags, DIAG_ERROR, main_line->file, main_line->line,
			 "service %s names " MODULE_NAME " without 'return' %zu times: "
			 "a session is sandboxed once, by one last line", service, mains);
	if (is_display_manager(service))
		diag_add(diags, DIAG_ERROR, main_line->file, main_line->line,
			 "service %s is a display manager: its session worker is "
			 "multithreaded, where entering a mount namespace fails", service);
	if (!pam_stack_refusal_holds(main_line) || main_line->optional_module)
		diag_add(diags, DIAG_ERROR, main_line->file, main_line->line,
			 "service %s: '%s%s' lets a session in unconfined when the "
			 "sandbox cannot be built; use 'session required'", service,
			 main_line->optional_module ? "-session " : "", main_line->control);
	/* pam_cocoon never runs for a session a line above ends or jumps
	 * over: it gets in unconfined. */
	for (size_t i = 0; i < main_at; i++) {
		const struct pam_stack_line *l = &s.lines[i];
		if (l->is_cocoon || !passes_over(&s, i, main_at))
			continue;
		diag_add(diags, DIAG_ERROR, l->file, l->line,
			 "service %s: '%s' (%s) can end the stack before or jump over "
			 MODULE_NAME "'s confining line (%s:%d): that session gets in "
			 "unconfined", service, l->control, l->module,
			 main_line->file, main_line->line);
	}
	if (main_at + 1 < s.count) {
		const struct pam_stack_line *after = &s.lines[main_at + 1];
		diag_add(diags, DIAG_ERROR, after->file, after->line,
			 "service %s: %s comes after " MODULE_NAME "'s confining line "
			 "(%s:%d), which must be the last session line: modules after it "
			 "open their session inside the sandbox, where /proc/self is gone",
			 service, after->module, main_line->file, main_line->line);
	}
	if (pam_stack_line_audit(main_line))
		diag_add(diags, DIAG_WARNING, main_line->file, main_line->line,
			 "service %s: " MODULE_NAME " is left in mode=audit: its sessions "
			 "are not confined, what it would refuse or sandbox is only logged "
			 "(remove mode=audit once the policy is tried)", service);
	if (!return_line)
		diag_add(diags, DIAG_WARNING, main_line->file, main_line->line,
			 "service %s has no 'session required " MODULE_NAME " return' "
			 "first line: the other modules' close hooks run inside the "
			 "sandbox, and a refused user is told after the motd", service);
	pam_stack_free(&s);
	return true;
}

/* A common-* file confines every service that includes it: cron, sudo,
 * systemd-user and whatever the next package installs. */
static void check_common_file(const char *dir, const char *name,
			      struct diag_list *diags)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct line_reader r;
	if (line_reader_open(&r, path, NULL) < 0)
		return;
	while (line_reader_next(&r, NULL) > 0) {
		char *hash = strchr(r.line, '#');
		if (hash)
			*hash = '\0';
		if (strstr(r.line, MODULE_NAME))
			diag_add(diags, DIAG_ERROR, path, r.lineno, MODULE_NAME " in %s "
				 "confines every service that includes it (cron, sudo, "
				 "systemd --user...); name it in chosen services instead",
				 name);
	}
	line_reader_close(&r);
}

struct services {
	char **names;
	size_t count, cap;
};

static void check_pam_dir(const char *dir, struct services *confining,
			  struct diag_list *diags, size_t *stacks)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);
	if (n < 0) {
		diag_add(diags, DIAG_ERROR, dir, 0, "cannot read the PAM directory");
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char path[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (pam_stack_is_service_name(name) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			++*stacks;
			if (str_starts_with(name, "common-"))
				check_common_file(dir, name, diags);
			else if (check_service(dir, name, diags)) {
				*ARRAY_PUSH(confining->names, confining->count,
					    confining->cap) = xstrdup(name);
			}
		}
		free(list[i]);
	}
	free(list);
}

/* Does POLICY sandbox WHO on any of SERVICES? */
static bool confined_by_policy(const struct policy *policy, const struct identity *who,
			       const struct services *services, uid_t uid_min)
{
	for (size_t i = 0; i < services->count; i++) {
		struct plan plan;
		struct cc_error err;
		plan_init(&plan);
		enum resolve_result rc = policy_resolve(policy, who, services->names[i],
							uid_min, &plan, &err);
		bool sandboxed = rc == RESOLVE_PLAN && plan.sandboxed;
		plan_free(&plan);
		if (sandboxed)
			return true;
	}
	return false;
}

/* Processes that start outside any session: cron and at run the user's
 * jobs through their own PAM services, and a lingering systemd --user
 * manager runs without a login. */
static void check_outside_sessions(const struct deployment_paths *paths,
				   const char *user, uid_t uid, struct diag_list *diags)
{
	char path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", paths->crontabs, user);
	if (lstat(path, &st) == 0)
		diag_add(diags, DIAG_WARNING, path, 0, "confined user %s has a crontab: "
			 "cron runs its jobs outside any cocoon session", user);
	snprintf(path, sizeof(path), "%s/%s", paths->linger, user);
	if (lstat(path, &st) == 0)
		diag_add(diags, DIAG_WARNING, path, 0, "confined user %s has lingering "
			 "enabled: its systemd --user manager runs outside any cocoon "
			 "session (loginctl disable-linger %s)", user, user);
	DIR *at = opendir(paths->atjobs);
	struct dirent *e;
	while (at && (e = readdir(at))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", paths->atjobs, e->d_name);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == uid) {
			diag_add(diags, DIAG_WARNING, path, 0, "confined user %s has an at "
				 "job: atd runs it outside any cocoon session", user);
			break;
		}
	}
	if (at)
		closedir(at);
}

/* ---- What sshd runs before cocoon-shell ----
 * sshd runs /bin/sh on the host, with the environment it will give the
 * login shell, for ~/.ssh/rc, /etc/ssh/sshrc and xauth, before it starts
 * the login shell: for an account whose login shell is cocoon-shell,
 * outside any sandbox. Nothing the user chose may reach that environment:
 * not ~/.pam_environment (pam_env user_readenv=1, unless pam_cocoon's
 * last session line cuts it), ~/.ssh/environment and authorized_keys'
 * environment= (PermitUserEnvironment), nor the client's variables beyond
 * the allow-list (AcceptEnv). Each finding is reported once, for the
 * first account that meets it. */
struct sshd_findings {
	bool stack, scanned, unreadable, beside;
};

/* Where the last pam_cocoon line of STACK that cuts the environment (no
 * `return`) stands, in AT; false when there is none. */
static bool last_cut(const struct pam_stack *stack, size_t *at)
{
	bool found = false;
	for (size_t i = 0; i < stack->count; i++)
		if (stack->lines[i].is_cocoon && !stack->lines[i].has_return) {
			found = true;
			*at = i;
		}
	return found;
}

/* The sshd service's auth and session stacks: where pam_env reads the
 * user's file, and whether pam_cocoon's confining line comes after. */
static void check_sshd_stack(const struct deployment_paths *paths, const char *user,
			     struct diag_list *diags)
{
	const char *base = strrchr(paths->sshd, '/');
	const char *service = base ? base + 1 : paths->sshd;
	struct diag_list ignored = { 0 };
	struct pam_stack auth = { .type = "auth" }, session = { .type = "session" };
	pam_stack_read(paths->pam_dir, service, &auth, 0, &ignored);
	pam_stack_read(paths->pam_dir, service, &session, 0, &ignored);
	diag_free(&ignored);
	/* pam_cocoon's setcred, on a line after pam_env's, cuts what the
	 * refill brings (pam_cocoon(8)). */
	size_t cut_at = 0;
	bool cut = last_cut(&auth, &cut_at);
	for (size_t i = 0; i < auth.count; i++)
		if (auth.lines[i].reads_user_env && (!cut || cut_at < i))
			diag_add(diags, DIAG_ERROR, auth.lines[i].file, auth.lines[i].line,
				 "service %s: pam_env user_readenv=1 in the auth stack puts "
				 "~/.pam_environment into the environment again when sshd "
				 "sets credentials after the session opened; sshd runs the "
				 "host's /bin/sh with it before cocoon-shell starts "
				 "(cocoon-shell account %s): drop user_readenv=1 there, or "
				 "add 'auth required " MODULE_NAME "' as the last auth line, "
				 "which cuts it again", service, user);
	cut = last_cut(&session, &cut_at);
	for (size_t i = 0; i < session.count; i++)
		if (session.lines[i].reads_user_env && (!cut || cut_at < i))
			diag_add(diags, DIAG_ERROR, session.lines[i].file, session.lines[i].line,
				 "service %s: pam_env user_readenv=1 puts ~/.pam_environment "
				 "(LD_PRELOAD, say) into the environment of the host's /bin/sh "
				 "that sshd runs for ~/.ssh/rc, /etc/ssh/sshrc and xauth before "
				 "cocoon-shell starts (cocoon-shell account %s): add 'session "
				 "required " MODULE_NAME "' as the last session line, which "
				 "cuts that environment", service, user);
	pam_stack_free(&auth);
	pam_stack_free(&session);
}

struct env_scan {
	const char *keyword, *why, *user;
	struct diag_list *diags;
};

/* One AcceptEnv or PermitUserEnvironment setting, wherever it stands (a
 * Match block for another address is still a way in): an error when it
 * admits a variable the allow-list drops. */
static void judge_env_setting(const char *value, const char *file, int line, void *data)
{
	const struct env_scan *scan = data;
	char *list = xstrdup(value);
	for (char *p = list; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = ',';
	char *bad = strcasecmp(scan->keyword, "PermitUserEnvironment") != 0
			    ? sshd_unsafe_env_pattern(list)
		    : strcasecmp(list, "no") == 0  ? NULL
		    : strcasecmp(list, "yes") == 0 ? xstrdup("yes")
						   : sshd_unsafe_env_pattern(list);
	if (bad)
		diag_add(scan->diags, DIAG_ERROR, file, line,
			 "sshd: %s %s lets %s into the environment of the host's /bin/sh "
			 "that sshd runs before cocoon-shell starts (cocoon-shell account "
			 "%s; whatever Match block holds it)", scan->keyword, bad, scan->why,
			 scan->user);
	free(bad);
	free(list);
}

/* Every AcceptEnv and PermitUserEnvironment of the config and of sshd's
 * command line (SSHD_OPTS), read as text: sshd -T answers for one
 * connection only, and a client chooses its address. */
static void scan_sshd_env(const struct deployment_paths *paths,
			  const struct sshd_options *options, const char *user,
			  struct diag_list *diags)
{
	static const struct {
		const char *keyword, *why;
	} settings[] = {
		{ "AcceptEnv", "variables the client chose (beyond cocoon's allow-list)" },
		{ "PermitUserEnvironment",
		  "~/.ssh/environment and authorized_keys' environment=" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
		struct env_scan scan = { settings[i].keyword, settings[i].why, user, diags };
		sshd_config_each(paths->sshd_config, paths->root, scan.keyword,
				 judge_env_setting, &scan);
		size_t klen = strlen(scan.keyword);
		for (size_t w = 1; w < options->count; w += 2) {
			const char *opt = options->words[w];
			if (strncasecmp(opt, scan.keyword, klen) == 0 &&
			    (opt[klen] == '=' || opt[klen] == ' '))
				judge_env_setting(opt + klen + 1, options->file,
						  options->line, &scan);
		}
	}
}

/* What sshd does beside the shell, in its own process on the host: a
 * login shell cannot confine it (cocoon-shell(1)). Said, not refused. */
static void warn_beside_shell(const struct deployment_paths *paths,
			      const struct sshd_settings *s, const char *user,
			      struct diag_list *diags)
{
	struct strbuf open_ = { 0 };
	const struct {
		bool on;
		const char *what;
	} ways[] = {
		{ s->tcp_forwarding, "TCP forwarding" },
		{ s->streamlocal_forwarding, "unix-socket forwarding" },
		{ s->agent_forwarding, "agent forwarding" },
		{ s->x11_forwarding, "X11 forwarding" },
		{ s->tunnel, "tunnels" },
		{ s->internal_sftp, "internal-sftp" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ways); i++)
		if (ways[i].on)
			sb_addf(&open_, "%s%s", open_.len ? ", " : "", ways[i].what);
	if (open_.len)
		diag_add(diags, DIAG_WARNING, paths->sshd_config, 0,
			 "sshd: %s stay open for cocoon-shell account %s: sshd does them "
			 "in its own process, on the host, outside the sandbox (close them "
			 "in a Match block: " COCOON_EXAMPLESDIR "/cocoon-shell.sshd_config)",
			 open_.data, user);
	sb_free(&open_);
}

static void check_sshd_for(const struct deployment_paths *paths, const char *user,
			   struct sshd_findings *seen, struct diag_list *diags,
			   struct deployment_summary *summary)
{
	if (access(paths->sshd, X_OK) < 0 || access(paths->sshd_config, R_OK) < 0)
		return; /* no sshd to log in through */
	summary->sshd_read = true;
	struct sshd_options options;
	sshd_options_read(paths->sshd_defaults, &options);
	if (!seen->scanned) {
		scan_sshd_env(paths, &options, user, diags);
		seen->scanned = true;
	}
	struct sshd_settings s;
	struct cc_error err;
	if (sshd_settings_read(paths->sshd, paths->sshd_config, user, &options, &s,
			       &err) < 0) {
		if (!seen->unreadable)
			diag_add(diags, DIAG_ERROR, paths->sshd_config, 0, "cannot tell "
				 "what sshd runs before cocoon-shell for %s: %s", user, err.msg);
		seen->unreadable = true;
		sshd_options_free(&options);
		return;
	}
	sshd_options_free(&options);
	if (s.use_pam && !seen->stack) {
		size_t before = diags->count;
		check_sshd_stack(paths, user, diags);
		seen->stack = diags->count > before;
	}
	if (!seen->beside) {
		size_t before = diags->count;
		warn_beside_shell(paths, &s, user, diags);
		seen->beside = diags->count > before;
	}
}

struct account {
	char *name, *shell;
	uid_t uid;
};

/* Every NSS user but root, read whole before any other NSS call. */
static struct account *list_accounts(size_t *count)
{
	struct account *list = NULL;
	size_t n = 0, cap = 0;
	struct passwd *pw;
	setpwent();
	while ((pw = getpwent())) {
		if (pw->pw_uid == 0)
			continue;
		*ARRAY_PUSH(list, n, cap) = (struct account){ xstrdup(pw->pw_name), xstrdup(pw->pw_shell),
					      pw->pw_uid };
	}
	endpwent();
	*count = n;
	return list;
}

static void check_users(const struct deployment_paths *paths,
			const struct policy *policy, const struct services *services,
			struct diag_list *diags, struct deployment_summary *summary)
{
	uid_t uid_min = identity_uid_min(COCOON_LOGIN_DEFS);
	bool shell_listed = shells_lists(paths->shells, paths->shell_path);
	struct sshd_findings sshd_seen = { 0 };
	size_t count;
	struct account *accounts = list_accounts(&count);
	for (size_t i = 0; i < count; i++) {
		const struct account *a = &accounts[i];
		bool confined = identity_is_cocoon_shell(a->shell, paths->shell_path);
		summary->shell_accounts += confined;
		if (confined)
			check_sshd_for(paths, a->name, &sshd_seen, diags, summary);
		if (confined && shell_listed)
			diag_add(diags, DIAG_WARNING, paths->shells, 0, "user %s logs in "
				 "through cocoon-shell, and %s lists it: a listed login shell "
				 "may be changed with chsh to any other listed one (remove %s "
				 "from %s)", a->name, paths->shells, paths->shell_path,
				 paths->shells);
		struct identity who;
		struct cc_error err;
		if (!confined && policy && services->count &&
		    identity_lookup(a->name, GROUPS_NOW, &who, &err) == 0) {
			confined = confined_by_policy(policy, &who, services, uid_min);
			identity_free(&who);
		}
		if (confined)
			check_outside_sessions(paths, a->name, a->uid, diags);
		summary->confined += confined;
	}
	summary->accounts = count;
	for (size_t i = 0; i < count; i++) {
		free(accounts[i].name);
		free(accounts[i].shell);
	}
	free(accounts);
}

struct chroot_scan {
	const char *service;
	struct diag_list *diags;
};

/* One ChrootDirectory setting, wherever it stands: sshd enters the jail
 * in its session child, after pam_cocoon opened the session, and starts
 * the shell from the jail's own paths, which cocoon-launch does not
 * cover; where the policy binds the jail in, the user's shell runs
 * without the session's filter, no_new_privs and Landlock. */
static void judge_chroot_setting(const char *value, const char *file, int line, void *data)
{
	const struct chroot_scan *scan = data;
	if (strcasecmp(value, "none") != 0)
		diag_add(scan->diags, DIAG_ERROR, file, line,
			 "sshd: ChrootDirectory %s while service %s confines sessions with "
			 MODULE_NAME ": sshd enters the jail inside the sandbox and starts "
			 "the user's shell from the jail's paths, which cocoon-launch does "
			 "not cover, so it runs without the session's filter (set "
			 "ChrootDirectory none for confined accounts, or exempt= the "
			 "jailed ones)", value, scan->service);
}

/* pam_cocoon in the stack of this host's sshd, and a ChrootDirectory in
 * its configuration (any Match block). */
static void check_sshd_chroot(const struct deployment_paths *paths,
			      const struct services *confining, struct diag_list *diags,
			      struct deployment_summary *summary)
{
	const char *base = strrchr(paths->sshd, '/');
	struct chroot_scan scan = { base ? base + 1 : paths->sshd, diags };
	bool confines = false;
	for (size_t i = 0; i < confining->count && !confines; i++)
		confines = strcmp(confining->names[i], scan.service) == 0;
	if (!confines || access(paths->sshd_config, R_OK) < 0)
		return;
	summary->sshd_read = true;
	sshd_config_each(paths->sshd_config, paths->root, "ChrootDirectory",
			 judge_chroot_setting, &scan);
}

/* A rule whose plan pam_cocoon refuses, on a service whose stack names
 * the module: every session of it there is refused. Plain check errs for
 * the stacks of this host that run this build's module on the policy
 * (pam_stack_policy_services); here any build's module counts, an
 * image's too, unless the line is in mode=audit or its conf= names
 * another policy file. */
static void check_refused_rules(const struct deployment_paths *paths,
				const struct policy *policy,
				const struct services *confining, struct diag_list *diags)
{
	for (size_t i = 0; policy && i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		struct cc_error err;
		if (s->kind == SECTION_PROFILE)
			continue;
		for (size_t k = 0; k < confining->count; k++) {
			if (!policy_section_allows_service(s, confining->names[k]) ||
			    !pam_stack_service_reads(paths->pam_dir, confining->names[k],
						     paths->policy_file, paths->root))
				continue;
			if (host_checks_service_refusal(policy, s, &err) < 0) {
				char title[300];
				diag_add(diags, DIAG_ERROR, s->file, s->line, "%s: pam_cocoon "
					 "refuses its sessions on service %s (%s/%s names the "
					 "module): %s", policy_section_title(s, title, sizeof(title)),
					 confining->names[k], paths->pam_dir, confining->names[k],
					 err.msg);
			}
			break;
		}
	}
}

void deployment_check(const struct deployment_paths *paths,
		      const struct policy *policy, struct diag_list *diags,
		      struct deployment_summary *summary)
{
	struct services confining = { 0 };
	memset(summary, 0, sizeof(*summary));
	check_pam_dir(paths->pam_dir, &confining, diags, &summary->stacks);
	check_refused_rules(paths, policy, &confining, diags);
	check_users(paths, policy, &confining, diags, summary);
	check_sshd_chroot(paths, &confining, diags, summary);
	struct strbuf names = { 0 };
	for (size_t i = 0; i < confining.count; i++) {
		sb_addf(&names, "%s%s", i ? ", " : "", confining.names[i]);
		free(confining.names[i]);
	}
	free(confining.names);
	summary->confining = names.data ? names.data : xstrdup("");
}

void deployment_summary_free(struct deployment_summary *summary)
{
	free(summary->confining);
	summary->confining = NULL;
}
