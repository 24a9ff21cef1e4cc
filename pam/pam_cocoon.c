// SPDX-License-Identifier: GPL-2.0-or-later
/* pam_cocoon: put every session of a PAM service into the user's sandbox. */
/*
 * open_session resolves the policy for PAM_USER and PAM_SERVICE and moves
 * the service process into the sandbox's namespaces, so that everything
 * it forks from then on (every ssh channel, sftp, the login shell) is
 * inside. The service stays root there until it goes back to the host's
 * namespaces at the first of setcred(DELETE_CRED) and close_session; a
 * second line, `pam_cocoon.so return` at the top of the session stack,
 * brings it back before the other modules' close hooks run. */
#include <grp.h>
#include <pwd.h>
#include <security/pam_ext.h>
#include <security/pam_modules.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "cgroup.h"
#include "identity.h"
#include "environment.h"
#include "plan_check.h"
#include "records.h"
#include "resolve.h"
#include "rlimits.h"
#include "sandbox.h"
#include "systemd_scope.h"
#include "util.h"

#define DATA_NAME "pam_cocoon_session"

struct module_args {
	const char *conf;
	const char *exempt;
	bool debug;
	bool audit;
	bool return_only;
};

static int parse_args(pam_handle_t *pamh, int argc, const char **argv,
		      struct module_args *args)
{
	memset(args, 0, sizeof(*args));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (str_starts_with(a, "conf="))
			args->conf = a + 5;
		else if (str_starts_with(a, "exempt="))
			args->exempt = a + 7;
		else if (strcmp(a, "debug") == 0)
			args->debug = true;
		else if (strcmp(a, "mode=audit") == 0)
			args->audit = true;
		else if (strcmp(a, "mode=enforce") == 0)
			args->audit = false;
		else if (strcmp(a, "return") == 0)
			args->return_only = true;
		else {
			pam_syslog(pamh, LOG_ERR, "unknown argument '%s'", a);
			return -1;
		}
	}
	if (args->conf && args->conf[0] != '/') {
		pam_syslog(pamh, LOG_ERR, "conf=%s is not an absolute path", args->conf);
		return -1;
	}
	return 0;
}

/* exempt=alice,@wheel: names users, and groups with '@'. The groups are
 * looked up only for a list that names one; a lookup that fails exempts
 * nobody (the session is then sandboxed, or refused). */
static bool is_exempt(const char *list, struct identity *who)
{
	if (!list)
		return false;
	char *copy = xstrdup(list);
	bool hit = false;
	struct cc_error err;
	for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && !hit;
	     item = strtok_r(NULL, ",", &save))
		hit = item[0] == '@' ? identity_complete(who, &err) == 0 &&
					       identity_in_group(who, item + 1)
				     : strcmp(item, who->user) == 0;
	free(copy);
	return hit;
}

/* pam_end's cleanup, in whichever process calls it: sandbox_end kills
 * the session only in the process that entered it (a forked child's
 * pam_end, sshd's post-auth child say, merely frees its copy). */
static void end_session(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	struct cc_error err;
	sandbox_return(data, &err);
	sandbox_end(data);
}

/* Back to the host's namespaces; the session itself goes on. */
static int return_to_host(pam_handle_t *pamh)
{
	const void *data = NULL;
	if (pam_get_data(pamh, DATA_NAME, &data) != PAM_SUCCESS || !data)
		return PAM_IGNORE;
	struct cc_error err;
	if (sandbox_return((struct sandbox_handle *)data, &err) < 0) {
		pam_syslog(pamh, LOG_ERR, "returning to the host: %s", err.msg);
		return PAM_SESSION_ERR;
	}
	return PAM_SUCCESS;
}

/* The PAM environment, which the service gives every program it starts
 * for the user, cut to what a login carries in (environment.c's
 * allow-list; nothing with CLEAR): the modules above may have put
 * anything in it, ~/.pam_environment's LD_PRELOAD through pam_env
 * user_readenv=1 among them, and sshd runs /bin/sh with it for
 * ~/.ssh/rc, /etc/ssh/sshrc and xauth before any login shell starts.
 * Called from the last session line, after every other module's open. */
#define CUT_NAME "pam_cocoon_env_cut"

static int cut_environment(pam_handle_t *pamh, bool clear, bool debug,
			   struct cc_error *err)
{
	char **list = pam_getenvlist(pamh);
	if (!list)
		return cc_fail(err, "reading the PAM environment failed");
	int rc = 0;
	for (char **e = list; *e; e++) {
		if (rc == 0 && (clear || !environment_entry_allowed(*e))) {
			char *name = xstrndup(*e, strcspn(*e, "="));
			int prc = pam_putenv(pamh, name);
			if (prc != PAM_SUCCESS && prc != PAM_BAD_ITEM)
				rc = cc_fail(err, "removing %s from the PAM environment: %s",
					     name, pam_strerror(pamh, prc));
			else if (debug)
				pam_syslog(pamh, LOG_DEBUG, "environment: %s dropped", name);
			free(name);
		}
		free(*e);
	}
	free(list);
	/* Marks the handle for pam_sm_setcred, which cuts again after a
	 * later refill. */
	if (rc == 0 && pam_set_data(pamh, CUT_NAME, (void *)CUT_NAME, NULL) != PAM_SUCCESS)
		rc = cc_fail(err, "pam_set_data %s failed", CUT_NAME);
	return rc;
}

/* The environment cut (all of it under clearenv), then the plan's setenv
 * and unsetenv, in the PAM environment, which the service exports to the
 * user's processes. new-session needs the command's own process, which a
 * module never sees. */
static int apply_environment(pam_handle_t *pamh, const struct plan *plan,
			     const char *id, bool debug, struct cc_error *err)
{
	if (plan->new_session)
		pam_syslog(pamh, LOG_NOTICE, "new-session ignored in PAM mode");
	if (cut_environment(pamh, plan->clearenv, debug, err) < 0)
		return -1;
	for (size_t i = 0; i < plan->nenv; i++) {
		const struct env_op *e = &plan->env[i];
		if (!e->value) {
			/* PAM_BAD_ITEM: it was not set; nothing to do. */
			pam_putenv(pamh, e->name);
			continue;
		}
		char *entry = xasprintf("%s=%s", e->name, e->value);
		int rc = pam_putenv(pamh, entry);
		free(entry);
		if (rc != PAM_SUCCESS)
			return cc_fail(err, "setenv %s: %s", e->name, pam_strerror(pamh, rc));
	}
	char entry[64];
	snprintf(entry, sizeof(entry), "COCOON_SESSION_ID=%s", id);
	if (pam_putenv(pamh, entry) != PAM_SUCCESS)
		return cc_fail(err, "exporting COCOON_SESSION_ID failed");
	return 0;
}

/* ---- Session limits under systemd ----
 * pam_systemd puts the session in a scope of its own and reads these
 * PAM data items (strings) when it creates it; the `return` line, first
 * in the session stack, sets them from the plan. */
static const char *const systemd_items[] = {
	"systemd.memory_max", "systemd.tasks_max", "systemd.runtime_max_sec",
};

static void free_item(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	free(data);
}

static void set_systemd_limits(pam_handle_t *pamh, const struct module_args *args)
{
	const char *user = NULL, *service = NULL;
	struct identity who;
	struct cc_error err;
	if (!cgroup_under_systemd() ||
	    pam_get_item(pamh, PAM_USER, (const void **)&user) != PAM_SUCCESS || !user ||
	    pam_get_item(pamh, PAM_SERVICE, (const void **)&service) != PAM_SUCCESS ||
	    !service || identity_lookup(user, GROUPS_LATER, &who, &err) < 0)
		return;
	struct plan plan;
	bool skip = who.uid == 0 || is_exempt(args->exempt, &who);
	enum resolve_result rc = skip ? RESOLVE_NOT_COVERED
				      : plan_for_session(args->conf, &who, service, &plan, &err);
	identity_free(&who);
	if (rc != RESOLVE_PLAN)
		return; /* the main line refuses or ignores the session */
	const struct session_limits *l = &plan.limits;
	const unsigned long long values[] = { l->memory_max, l->pids_max,
					      l->max_session_time };
	for (size_t i = 0; plan.sandboxed && i < 3; i++)
		if (values[i] && pam_set_data(pamh, systemd_items[i],
					      xasprintf("%llu", values[i]),
					      free_item) != PAM_SUCCESS)
			pam_syslog(pamh, LOG_ERR, "pam_set_data %s failed", systemd_items[i]);
	plan_free(&plan);
}

/* Under systemd, memory-max and pids-max must have reached pam_systemd
 * through the `return` line. cpu-max has no pam_systemd item: systemd is
 * asked for it on the session's scope (not under mode=audit, which
 * applies nothing: APPLY false). */
static int check_systemd_limits(pam_handle_t *pamh, const struct plan *plan,
				bool apply, struct cc_error *err)
{
	const struct session_limits *l = &plan->limits;
	const unsigned long long values[] = { l->memory_max, l->pids_max };
	if (!cgroup_under_systemd())
		return 0;
	if (l->cpu_max_percent && apply &&
	    systemd_scope_set_cpu_max(l->cpu_max_percent, err) < 0)
		return -1;
	for (size_t i = 0; i < 2; i++) {
		const void *set = NULL;
		if (values[i] && (pam_get_data(pamh, systemd_items[i], &set) != PAM_SUCCESS ||
				  !set))
			return cc_fail(err, "%s is not set: 'session required "
				       "pam_cocoon.so return' must come before "
				       "pam_systemd", systemd_items[i]);
	}
	/* Handed over is not applied: pam_systemd makes no scope for a caller
	 * already in a session, or may fail as an optional line. */
	struct session_limits in_force = *l;
	if (!apply)
		in_force.cpu_max_percent = 0;
	return cgroup_check_applied(&in_force, "/sys/fs/cgroup", "/proc/self/cgroup", err);
}

/* ---- Audit records (cocoon.conf(5), AUDIT RECORDS) ----
 * One each to authpriv: what the session is, from PAM's items, and what
 * happened to it. To journald with a field per key where it runs, else
 * through pam_syslog, never both (audit.h). */
#define RECORD_NAME "pam_cocoon_record"
#define JOURNAL_NAME "pam_cocoon_journal"

static const char *item(pam_handle_t *pamh, int type)
{
	const void *value = NULL;
	return pam_get_item(pamh, type, &value) == PAM_SUCCESS ? value : NULL;
}

static void close_journal(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	int *fd = data;
	if (*fd >= 0)
		close(*fd);
	free(fd);
}

/* journald's socket, connected the first time this handle asks: at the
 * start of open_session, on the host, so that the start record, logged
 * once the service is inside the session, reaches the host's journal
 * (the session's /run has no journald socket). -1 without journald. */
static int journal_fd(pam_handle_t *pamh)
{
	const void *data = NULL;
	if (pam_get_data(pamh, JOURNAL_NAME, &data) == PAM_SUCCESS && data)
		return *(const int *)data;
	int *fd = xmalloc(sizeof(*fd));
	*fd = audit_journal_connect();
	if (pam_set_data(pamh, JOURNAL_NAME, fd, close_journal) != PAM_SUCCESS) {
		close_journal(pamh, fd, 0);
		return -1;
	}
	return *fd;
}

static void audit_log(pam_handle_t *pamh, int priority, struct audit_record *r)
{
	if (!r->user)
		r->user = item(pamh, PAM_USER);
	r->service = item(pamh, PAM_SERVICE);
	r->rhost = item(pamh, PAM_RHOST);
	r->tty = item(pamh, PAM_TTY);
	r->ruser = item(pamh, PAM_RUSER);
	struct strbuf line = { 0 };
	audit_format(r, &line);
	/* The journal gets the text pam_syslog would write, under the PAM
	 * service's name, which the application sets: the process name is
	 * the caller's choice (a link named sshd to a setuid su). */
	const char *ident = r->service && *r->service ? r->service : "pam_cocoon";
	char *message = xasprintf("pam_cocoon(%s:session): %s",
				  r->service ? r->service : "?", line.data);
	if (audit_journal_send(journal_fd(pamh), r, ident, priority, message) < 0)
		pam_syslog(pamh, priority, "%s", line.data);
	free(message);
	sb_free(&line);
}

/* What the end record needs of the session: its id, when it started and
 * the plan's name (rule, profile, hash, namespaces). */
struct session_record {
	struct plan plan;
	char id[33];
	struct timespec started;
};

static void free_record(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	struct session_record *rec = data;
	plan_free(&rec->plan);
	free(rec);
}

static int keep_record(pam_handle_t *pamh, const struct plan *plan, const char *id)
{
	struct session_record *rec = xcalloc(1, sizeof(*rec));
	plan_init(&rec->plan);
	rec->plan.sandboxed = true;
	rec->plan.namespaces = plan->namespaces;
	rec->plan.rule = plan->rule ? xstrdup(plan->rule) : NULL;
	rec->plan.profile = plan->profile ? xstrdup(plan->profile) : NULL;
	memcpy(rec->plan.hash, plan->hash, sizeof(rec->plan.hash));
	snprintf(rec->id, sizeof(rec->id), "%s", id);
	clock_gettime(CLOCK_BOOTTIME, &rec->started);
	if (pam_set_data(pamh, RECORD_NAME, rec, free_record) == PAM_SUCCESS)
		return 0;
	free_record(pamh, rec, 0);
	return -1;
}

/* Refuse the session R describes; in mode=audit, only say that it would
 * be refused: audit is for trying a policy on a live host without
 * locking anyone out. */
static int refuse(pam_handle_t *pamh, bool audit, struct audit_record *r,
		  const char *why)
{
	r->event = audit ? "start" : "refuse";
	r->mode = audit ? "audit" : NULL;
	r->result = audit ? "would-refuse" : "refused";
	r->reason = why;
	audit_log(pamh, audit ? LOG_WARNING : LOG_ERR, r);
	return audit ? PAM_IGNORE : PAM_SESSION_ERR;
}

/* The session goes on outside any sandbox with STATUS (no rule, sandbox
 * = none, mode=audit), logged at PRIORITY. An account whose login shell
 * is cocoon-shell is confined only once the service runs that shell:
 * what the service runs before it (sshd's /bin/sh for ~/.ssh/rc) runs on
 * the host, so its environment is cut here, or the session refused. */
static int let_in_unconfined(pam_handle_t *pamh, struct audit_record *r, int priority,
			     int status, bool cocoon_shell_account, bool debug)
{
	char reason[256];
	if (cocoon_shell_account) {
		struct cc_error err;
		if (cut_environment(pamh, false, debug, &err) < 0)
			return refuse(pamh, false, r, err.msg);
		snprintf(reason, sizeof(reason), "%s%scocoon-shell account, environment cut",
			 r->reason ? r->reason : "", r->reason ? "; " : "");
		r->reason = reason;
	}
	audit_log(pamh, priority, r);
	return status;
}

/* refuse(), where mode=audit lets the session in: with a cocoon-shell
 * account's environment cut, as let_in_unconfined does. */
static int refuse_unless_audit(pam_handle_t *pamh, const struct module_args *args,
			       struct audit_record *r, const char *why,
			       bool cocoon_shell_account)
{
	struct cc_error err;
	if (args->audit && cocoon_shell_account &&
	    cut_environment(pamh, false, args->debug, &err) < 0)
		return refuse(pamh, false, r, err.msg);
	return refuse(pamh, args->audit, r, why);
}

/* A mistyped module line refuses everyone but root: like a broken
 * policy, it must not lock the administrator out. */
static int root_or_refuse(pam_handle_t *pamh)
{
	const char *user = item(pamh, PAM_USER);
	struct identity who;
	struct cc_error err;
	if (user && identity_lookup(user, GROUPS_LATER, &who, &err) == 0) {
		bool root = who.uid == 0;
		identity_free(&who);
		if (root)
			return PAM_IGNORE;
	}
	struct audit_record r;
	audit_init(&r, "refuse");
	r.result = "refused";
	r.reason = "bad module arguments";
	audit_log(pamh, LOG_ERR, &r);
	return PAM_SESSION_ERR;
}

/* The session enters the sandbox: the entry, the limits and the
 * environment, or nothing at all. */
static int enter(pam_handle_t *pamh, const struct plan *plan, const char *id,
		 bool debug, struct cc_error *err)
{
	struct sandbox_handle *handle = NULL;
	struct sandbox_request req = {
		.plan = plan,
		.init_path = COCOON_LIBEXECDIR "/cocoon-init",
		.launcher_path = COCOON_LIBEXECDIR "/cocoon-launch",
		.session_id = id,
		.systemd_cgroup = cgroup_under_systemd(),
	};
	if (sandbox_enter(&req, &handle, err) < 0)
		return -1;
	if (pam_set_data(pamh, DATA_NAME, handle, end_session) != PAM_SUCCESS) {
		sandbox_return(handle, err);
		sandbox_end(handle);
		return cc_fail(err, "pam_set_data failed");
	}
	/* Like pam_limits, on the service process: what it forks (the
	 * shell, internal-sftp) inherits them. After pam_limits, and only
	 * ever lower. Replacing the data on failure runs its cleanup: back
	 * to the host, and the session ended. */
	if (rlimits_apply(NULL, &plan->limits, err) < 0 ||
	    apply_environment(pamh, plan, id, debug, err) < 0 ||
	    (keep_record(pamh, plan, id) < 0 && cc_fail(err, "pam_set_data failed"))) {
		pam_set_data(pamh, DATA_NAME, NULL, NULL);
		return -1;
	}
	return 0;
}

/* What only a PAM session needs of a plan. */
static int service_plan_ok(pam_handle_t *pamh, const struct plan *plan,
			   bool apply, struct cc_error *err)
{
	/* The forced command holds through the login shell's path alone: su
	 * -s (or -m with $SHELL) runs another shell for any caller when the
	 * target's login shell is listed. */
	if (plan->command && shells_lists(COCOON_SHELLS_FILE, plan->who.login_shell))
		return cc_fail(err, "a forced command needs a login shell that %s does "
			       "not list (%s is listed, so su -s would run another "
			       "shell): give the account /usr/sbin/nologin",
			       COCOON_SHELLS_FILE, plan->who.login_shell);
	if (plan_check_service(plan, err) < 0)
		return -1;
	return check_systemd_limits(pamh, plan, apply, err);
}

int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)flags;
	struct module_args args;
	if (parse_args(pamh, argc, argv, &args) < 0)
		return root_or_refuse(pamh);
	if (args.return_only) {
		set_systemd_limits(pamh, &args);
		return PAM_IGNORE;
	}
	/* Before anything can move the service into a session. */
	journal_fd(pamh);

	/* Opened already (a second pam_cocoon line): inside, nothing to do;
	 * gone back to the host (setcred DELETE_CRED, the return line), a
	 * second open must not report a sandbox the service is not in. */
	const void *existing = NULL;
	if (pam_get_data(pamh, DATA_NAME, &existing) == PAM_SUCCESS && existing) {
		if (sandbox_inside(existing))
			return PAM_SUCCESS;
		struct audit_record r;
		audit_init(&r, "refuse");
		r.user = item(pamh, PAM_USER);
		return refuse(pamh, false, &r, "the session went back to the host "
			      "and is not opened again");
	}

	const char *user = item(pamh, PAM_USER);
	struct audit_record r;
	audit_init(&r, "start");
	r.user = user;
	if (!user || !item(pamh, PAM_SERVICE))
		return refuse(pamh, false, &r, "no user or service name");
	struct identity who;
	struct cc_error err;
	if (identity_lookup(user, GROUPS_LATER, &who, &err) < 0)
		return refuse(pamh, false, &r, err.msg);
	r.uid = who.uid;
	bool cocoon_shell_account = who.login_shell &&
				    identity_is_cocoon_shell(who.login_shell, COCOON_SHELL_PATH);
	/* Root and the exempt get in before the policy is read, so an
	 * administrator is never locked out by a broken policy. An exempt
	 * account whose login shell is cocoon-shell is still confined by it,
	 * so its environment is still cut (cocoon-shell refuses root). */
	if (who.uid == 0 || is_exempt(args.exempt, &who)) {
		r.result = "exempt";
		r.reason = who.uid == 0 ? "root" : "exempt=";
		identity_free(&who);
		return let_in_unconfined(pamh, &r, LOG_INFO, PAM_IGNORE,
					 cocoon_shell_account && r.uid != 0, args.debug);
	}
	/* The group list, complete, or no login (cocoon.conf(5), NAME
	 * SERVICE OUTAGES): the policy may match on it, the session's
	 * credentials are made of it, and the service's own initgroups
	 * would drop, without a word, the groups of a source that is down. */
	if (identity_complete(&who, &err) < 0) {
		identity_free(&who);
		return refuse_unless_audit(pamh, &args, &r, err.msg, cocoon_shell_account);
	}
	struct plan plan;
	enum resolve_result rc = plan_for_session(args.conf, &who, item(pamh, PAM_SERVICE),
						  &plan, &err);
	identity_free(&who);
	int status = PAM_SESSION_ERR;
	if (rc == RESOLVE_ERROR) {
		status = refuse_unless_audit(pamh, &args, &r, err.msg, cocoon_shell_account);
		goto out;
	}
	r.plan = &plan;
	for (size_t i = 0; args.debug && i < plan.nlost; i++)
		pam_syslog(pamh, LOG_DEBUG, "rule not taken: %s", plan.lost[i]);
	if (rc == RESOLVE_NOT_COVERED || !plan.sandboxed) {
		r.result = "unconfined";
		r.reason = rc == RESOLVE_NOT_COVERED ? "no rule" : "sandbox = none";
		status = let_in_unconfined(pamh, &r, LOG_INFO, PAM_IGNORE,
					   cocoon_shell_account, args.debug);
		goto out;
	}
	if (service_plan_ok(pamh, &plan, !args.audit, &err) < 0) {
		status = refuse_unless_audit(pamh, &args, &r, err.msg, cocoon_shell_account);
		goto out;
	}
	if (args.audit) {
		r.mode = "audit";
		r.result = "unconfined";
		r.reason = "mode=audit: the plan was not applied";
		status = let_in_unconfined(pamh, &r, LOG_NOTICE, PAM_IGNORE,
					   cocoon_shell_account, args.debug);
		goto out;
	}
	char id[33];
	if (record_session_id_new(id, &err) == 0 && enter(pamh, &plan, id, args.debug, &err) == 0)
		status = PAM_SUCCESS;
	if (status != PAM_SUCCESS) {
		status = refuse(pamh, false, &r, err.msg);
		goto out;
	}
	r.session = id;
	r.result = "sandboxed";
	audit_log(pamh, LOG_INFO, &r);
out:
	plan_free(&plan);
	return status;
}

int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)flags;
	struct module_args args;
	if (parse_args(pamh, argc, argv, &args) < 0)
		return PAM_SESSION_ERR;
	int rc = return_to_host(pamh);
	if (args.return_only || rc == PAM_IGNORE)
		return rc == PAM_IGNORE ? PAM_SUCCESS : rc;
	const void *data = NULL, *kept = NULL;
	bool expired = pam_get_data(pamh, DATA_NAME, &data) == PAM_SUCCESS &&
		       sandbox_expired(data);
	struct audit_record r;
	audit_init(&r, "end");
	if (pam_get_data(pamh, RECORD_NAME, &kept) == PAM_SUCCESS && kept) {
		const struct session_record *rec = kept;
		struct timespec now;
		clock_gettime(CLOCK_BOOTTIME, &now);
		r.plan = &rec->plan;
		r.session = rec->id;
		r.duration = (long long)(now.tv_sec - rec->started.tv_sec);
	}
	r.result = expired ? "expired" : "ended";
	r.reason = expired ? "max-session-time" : NULL;
	/* Ends every process of the session, without waiting for them (the
	 * replaced data's cleanup runs sandbox_end). */
	pam_set_data(pamh, DATA_NAME, NULL, NULL);
	audit_log(pamh, expired ? LOG_NOTICE : LOG_INFO, &r);
	pam_set_data(pamh, RECORD_NAME, NULL, NULL);
	return rc;
}

int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	/* login and su delete credentials before closing the session. */
	if (flags & PAM_DELETE_CRED) {
		int rc = return_to_host(pamh);
		return rc == PAM_IGNORE ? PAM_SUCCESS : rc;
	}
	/* sshd sets credentials again in its post-auth child, after the
	 * session opened: an auth module before this line (pam_env
	 * user_readenv=1) refills the environment the last session line
	 * cut, and sshd runs /bin/sh with it. As the last auth line, cut it
	 * again wherever the session line did (to the allow-list; the
	 * plan's clearenv and setenv are the session line's alone). */
	struct module_args args;
	const void *cut = NULL;
	if (parse_args(pamh, argc, argv, &args) < 0)
		return PAM_CRED_ERR;
	if (args.return_only || pam_get_data(pamh, CUT_NAME, &cut) != PAM_SUCCESS || !cut)
		return PAM_SUCCESS;
	struct cc_error err;
	if (cut_environment(pamh, false, args.debug, &err) < 0) {
		pam_syslog(pamh, LOG_ERR, "setcred: %s", err.msg);
		return PAM_CRED_ERR;
	}
	return PAM_SUCCESS;
}

/* Present so that `auth optional pam_cocoon.so return` can stand first in
 * the auth stack: its setcred(DELETE_CRED) then brings the service back to
 * the host before the other auth modules delete their credentials. */
int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_IGNORE;
}
