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

#include "admission.h"
#include "audit.h"
#include "cgroup.h"
#include "environment.h"
#include "pam_args.h"
#include "pam_stack.h"
#include "records.h"
#include "rlimits.h"
#include "sandbox.h"
#include "systemd_scope.h"
#include "util.h"

#define DATA_NAME "pam_cocoon_session"

/* The line's arguments; a mistyped line is logged, and the front door
 * then refuses everyone but root (a broken line, like a broken policy,
 * must not lock the administrator out). */
static bool read_args(pam_handle_t *pamh, int argc, const char **argv, struct pam_args *args)
{
	struct cc_error err;
	if (pam_args_parse(argc, argv, args, &err) == 0)
		return true;
	pam_syslog(pamh, LOG_ERR, "%s", err.msg);
	return false;
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

/* Edits the PAM environment as environment_edits says: the cut (all of
 * it under clearenv) then, for a sandboxed session (PLAN, ID), the plan's
 * setenv and unsetenv and the session id. new-session needs the
 * command's own process, which a module never sees. */
static int edit_environment(pam_handle_t *pamh, const struct plan *plan, const char *id,
			    bool debug, struct cc_error *err)
{
	char **current = pam_getenvlist(pamh);
	if (!current)
		return cc_fail(err, "reading the PAM environment failed");
	if (plan && plan->new_session)
		pam_syslog(pamh, LOG_NOTICE, "new-session ignored in PAM mode");
	char **edits = environment_edits(plan, current, plan && plan->clearenv, id);
	environment_free(current);
	int rc = 0;
	for (char **e = edits; *e && rc == 0; e++) {
		int prc = pam_putenv(pamh, *e);
		/* PAM_BAD_ITEM: removing what was not set. */
		if (prc != PAM_SUCCESS && (prc != PAM_BAD_ITEM || strchr(*e, '=')))
			rc = cc_fail(err, "editing the PAM environment (%s): %s", *e,
				     pam_strerror(pamh, prc));
		else if (debug && !strchr(*e, '='))
			pam_syslog(pamh, LOG_DEBUG, "environment: %s dropped", *e);
	}
	environment_free(edits);
	/* Marks the handle for pam_sm_setcred, which cuts again after a
	 * later refill. */
	if (rc == 0 && pam_set_data(pamh, CUT_NAME, (void *)CUT_NAME, NULL) != PAM_SUCCESS)
		rc = cc_fail(err, "pam_set_data %s failed", CUT_NAME);
	return rc;
}

/* ---- Session limits under systemd ----
 * pam_systemd puts the session in a scope of its own and reads PAM data
 * items (strings) when it creates it; the `return` line, first in the
 * session stack, sets them from the plan (systemd_scope.h). */
static void free_item(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	free(data);
}

/* What the front door let in confined hands its limits to pam_systemd;
 * what it refuses or lets in unconfined needs nothing. */
static void set_systemd_limits(pam_handle_t *pamh, const struct admission *a)
{
	if (!cgroup_under_systemd())
		return;
	struct systemd_scope_item items[3];
	bool confined = a->have_plan && a->plan.sandboxed &&
			(a->verdict == VERDICT_SANDBOXED || a->verdict == VERDICT_AUDIT);
	size_t n = confined ? systemd_scope_items(&a->plan.limits, items) : 0;
	for (size_t i = 0; i < n; i++)
		if (pam_set_data(pamh, items[i].name, xasprintf("%llu", items[i].value),
				 free_item) != PAM_SUCCESS)
			pam_syslog(pamh, LOG_ERR, "pam_set_data %s failed", items[i].name);
}

static bool handed_to_systemd(void *data, const char *name)
{
	const void *set = NULL;
	return pam_get_data(data, name, &set) == PAM_SUCCESS && set;
}

/* The front door's check for this entry (mode=audit: APPLY false). */
static int check_systemd_limits(void *pamh, const struct plan *plan, bool apply,
				struct cc_error *err)
{
	return systemd_scope_check(&plan->limits, apply, handed_to_systemd, pamh, err);
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

/* R gets what PAM's items say of the login. */
static void fill_items(pam_handle_t *pamh, struct audit_record *r)
{
	if (!r->user)
		r->user = item(pamh, PAM_USER);
	r->service = item(pamh, PAM_SERVICE);
	r->rhost = item(pamh, PAM_RHOST);
	r->tty = item(pamh, PAM_TTY);
	r->ruser = item(pamh, PAM_RUSER);
}

static void to_pam_syslog(void *pamh, int priority, const char *line)
{
	pam_syslog(pamh, priority, "%s", line);
}

/* The journal gets the text pam_syslog would write, under the PAM
 * service's name, which the application sets: the process name is the
 * caller's choice (a link named sshd to a setuid su). PREFIX holds the
 * text's start until the caller frees it. */
static struct audit_log records_log(pam_handle_t *pamh, struct strbuf *prefix)
{
	const char *service = item(pamh, PAM_SERVICE);
	sb_addf(prefix, "pam_cocoon(%s:session): ", service ? service : "?");
	return (struct audit_log){
		.journal = journal_fd(pamh),
		.identifier = service && *service ? service : "pam_cocoon",
		.prefix = prefix->data,
		.to_syslog = to_pam_syslog,
		.data = pamh,
	};
}

static void log_record(pam_handle_t *pamh, int priority, struct audit_record *r)
{
	struct strbuf prefix = { 0 };
	struct audit_log log = records_log(pamh, &prefix);
	fill_items(pamh, r);
	audit_log_write(&log, priority, r);
	sb_free(&prefix);
}

/* A refusal: its record, with a session id of its own, and the one line
 * the user sees through the conversation, unless the service asked for
 * silence (without a conversation, PAM_CONV_ERR, the log alone says it). */
static int refuse(pam_handle_t *pamh, int flags, struct audit_record *r)
{
	char id[33];
	struct strbuf prefix = { 0 }, notice = { 0 };
	struct audit_log log = records_log(pamh, &prefix);
	fill_items(pamh, r);
	audit_log_refusal(&log, r, id, &notice);
	notice.data[notice.len - 1] = '\0';
	if (!(flags & PAM_SILENT))
		pam_error(pamh, "%s", notice.data);
	sb_free(&notice);
	sb_free(&prefix);
	r->session = NULL;
	return PAM_SESSION_ERR;
}

static void free_record(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	audit_session_free(data);
	free(data);
}

/* What the end record needs of the session, kept with the handle, and
 * under share-sandbox the shared sandbox HANDLE's login is in. */
static struct audit_session *keep_record(pam_handle_t *pamh, const struct plan *plan,
					 const char *id, const struct sandbox_handle *handle)
{
	struct audit_session *rec = xcalloc(1, sizeof(*rec));
	audit_session_begin(rec, plan, id);
	const char *sandbox;
	bool joined;
	if (sandbox_shared(handle, &sandbox, &joined))
		audit_session_shared(rec, sandbox, joined);
	if (pam_set_data(pamh, RECORD_NAME, rec, free_record) == PAM_SUCCESS)
		return rec;
	free_record(pamh, rec, 0);
	return NULL;
}

static struct admission_request request_for(pam_handle_t *pamh, const struct pam_args *args,
					    bool args_ok)
{
	return (struct admission_request){
		.kind = ENTRY_PAM,
		.user = item(pamh, PAM_USER),
		.service = item(pamh, PAM_SERVICE),
		.config = args->conf,
		.exempt = args->exempt,
		.audit = args->audit,
		.bad_arguments = args_ok ? NULL : "bad module arguments",
		.groups = GROUPS_LATER,
		.entry_check = check_systemd_limits,
		.entry_check_data = pamh,
	};
}

/* share-sandbox: the record of the shared sandbox's own end, should
 * this login create it, into TEMPLATE, and the log socket to hand with
 * it (-1: none; audit_log_end_record). */
static int end_record(pam_handle_t *pamh, const struct plan *plan, const char *id,
		      struct strbuf *template)
{
	if (!plan->share)
		return -1; /* nothing to build on an unshared login's path */
	struct audit_record r;
	audit_init(&r, "end");
	r.uid = plan->who.uid;
	r.plan = plan;
	r.session = id;
	fill_items(pamh, &r);
	struct strbuf prefix = { 0 };
	struct audit_log log = records_log(pamh, &prefix);
	int fd = audit_log_end_record(&log, &r, template);
	sb_free(&prefix);
	return fd;
}

/* The session enters the sandbox: the entry, the limits and the
 * environment, or nothing at all. */
static int enter(pam_handle_t *pamh, const struct admission *a, const char *id,
		 bool debug, const struct audit_session **kept, struct cc_error *err)
{
	const struct plan *plan = &a->plan;
	struct sandbox_handle *handle = NULL;
	struct strbuf template = { 0 };
	int log AUTOCLOSE = end_record(pamh, plan, id, &template);
	struct sandbox_request req = {
		.plan = plan,
		.init_path = COCOON_LIBEXECDIR "/cocoon-init",
		.real_shell = a->shell,
		.launcher_path = COCOON_LIBEXECDIR "/cocoon-launch",
		.session_id = id,
		.systemd_cgroup = cgroup_under_systemd(),
		.start_scope = systemd_scope_start,
		.end_record_log = log,
		.end_record = log >= 0 ? template.data : NULL,
	};
	int rc = sandbox_enter(&req, &handle, err);
	sb_free(&template);
	if (rc < 0)
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
	    edit_environment(pamh, plan, id, debug, err) < 0 ||
	    (!(*kept = keep_record(pamh, plan, id, handle)) &&
	     cc_fail(err, "pam_set_data failed"))) {
		pam_set_data(pamh, DATA_NAME, NULL, NULL);
		return -1;
	}
	return 0;
}

/* The audit record of the front door's answer: a refuse record for a
 * refusal, else a start record. */
static void record_of(pam_handle_t *pamh, const struct admission *a, struct audit_record *r)
{
	audit_init(r, a->verdict == VERDICT_REFUSED ? "refuse" : "start");
	r->user = item(pamh, PAM_USER);
	admission_record(a, r);
}

/* The front door's answer, carried out and logged; a session let in
 * without a sandbox may need its environment cut (admission.h). */
static int carry_out(pam_handle_t *pamh, int flags, const struct pam_args *args,
		     struct admission *a)
{
	struct audit_record r;
	struct cc_error err;
	record_of(pamh, a, &r);
	for (size_t i = 0; args->debug && a->have_plan && i < a->plan.nlost; i++)
		pam_syslog(pamh, LOG_DEBUG, "rule not taken: %s", a->plan.lost[i]);
	int priority = LOG_INFO;
	char id[33];
	const struct audit_session *kept = NULL;
	switch (a->verdict) {
	case VERDICT_REFUSED:
		return refuse(pamh, flags, &r);
	case VERDICT_AUDIT:
		priority = strcmp(a->result, "would-refuse") == 0 ? LOG_WARNING : LOG_NOTICE;
		/* fall through */
	case VERDICT_EXEMPT:
	case VERDICT_UNCONFINED:
		if (a->cut_environment && edit_environment(pamh, NULL, NULL, args->debug, &err) < 0)
			break;
		log_record(pamh, priority, &r);
		return PAM_IGNORE;
	case VERDICT_SANDBOXED:
		if (record_session_id_new(id, &err) < 0 ||
		    enter(pamh, a, id, args->debug, &kept, &err) < 0)
			break;
		audit_session_start(kept, &r);
		log_record(pamh, LOG_INFO, &r);
		return PAM_SUCCESS;
	}
	r.event = "refuse";
	r.mode = NULL;
	r.result = "refused";
	r.reason = err.msg;
	return refuse(pamh, flags, &r);
}

/* ---- The return line's open ----
 * First in the session stack, it runs before the modules that show the
 * user something (pam_motd, pam_mail, pam_lastlog): it asks the front
 * door with the confining line's arguments, read from the service's
 * stack as libpam reads it, hands the plan's limits to pam_systemd, and
 * shows a refusal there, so that the user's line comes before the motd.
 * The confining line then refuses too, never letting in a login the user
 * was told was refused; the one refuse record is this line's. */
#define REFUSED_NAME "pam_cocoon_refused"
/* A decision that let the login go on, kept for the confining line with
 * what it was made for: that line finishes it with its entry check
 * instead of loading the policy and looking the account up again. */
#define DECISION_NAME "pam_cocoon_decision"

/* The return line's decision, when it was made for the question REQ
 * asks; NULL otherwise. */
static struct admission_kept *kept_decision(pam_handle_t *pamh,
					    const struct admission_request *req)
{
	const void *data = NULL;
	if (pam_get_data(pamh, DECISION_NAME, &data) != PAM_SUCCESS || !data)
		return NULL;
	struct admission_kept *k = (struct admission_kept *)data;
	return admission_kept_answers(k, req) ? k : NULL;
}

static void free_decision(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	admission_kept_free(data);
}

static int open_return_line(pam_handle_t *pamh, int flags, const struct pam_args *own)
{
	const char *service = item(pamh, PAM_SERVICE);
	struct pam_stack_cocoon stack;
	pam_stack_cocoon_read(COCOON_PAM_DIR, service && *service ? service : PAM_STACK_OTHER,
			      &stack);
	/* No confining line found (a stack libpam reads from elsewhere):
	 * the limits as this line's own arguments say, the refusal left to
	 * the confining line. */
	struct pam_args args = *own;
	bool args_ok = true;
	struct cc_error err;
	if (stack.confining)
		args_ok = pam_args_parse(stack.confining->argc,
					 (const char **)stack.confining->argv, &args, &err) == 0;
	struct admission_request req = request_for(pamh, &args, args_ok);
	req.entry_check = NULL; /* the confining line checks what this line hands over */
	struct admission_kept *k = xcalloc(1, sizeof(*k));
	struct admission *a = &k->a;
	admission_decide(&req, a);
	set_systemd_limits(pamh, a);
	int status = PAM_IGNORE;
	if (stack.confining && a->verdict == VERDICT_REFUSED) {
		journal_fd(pamh);
		struct audit_record r;
		char id[33] = "";
		record_of(pamh, a, &r);
		if (record_session_id_new(id, &err) == 0)
			r.session = id;
		status = refuse(pamh, flags, &r);
		if (pam_set_data(pamh, REFUSED_NAME, xstrdup(id), free_item) != PAM_SUCCESS)
			pam_syslog(pamh, LOG_ERR, "pam_set_data %s failed", REFUSED_NAME);
	} else if (stack.confining && args_ok) {
		admission_kept_asked(k, &req);
		/* Not kept, the confining line decides on its own. */
		if (pam_set_data(pamh, DECISION_NAME, k, free_decision) == PAM_SUCCESS)
			k = NULL;
	}
	if (k)
		free_decision(pamh, k, 0);
	pam_stack_cocoon_free(&stack);
	return status;
}

int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	struct pam_args args;
	bool args_ok = read_args(pamh, argc, argv, &args);
	if (args_ok && args.return_only)
		return open_return_line(pamh, flags, &args);
	/* The return line refused this login and told the user so. */
	const void *refused = NULL;
	if (pam_get_data(pamh, REFUSED_NAME, &refused) == PAM_SUCCESS && refused) {
		if (args.debug)
			pam_syslog(pamh, LOG_DEBUG, "refused by the return line (session=%s)",
				   (const char *)refused);
		return PAM_SESSION_ERR;
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
		r.result = "refused";
		r.reason = "the session went back to the host and is not opened again";
		return refuse(pamh, flags, &r);
	}
	struct admission_request req = request_for(pamh, &args, args_ok);
	struct admission_kept *k = args_ok ? kept_decision(pamh, &req) : NULL;
	struct admission fresh, *a = k ? &k->a : &fresh;
	if (k)
		admission_entry_check(&req, a);
	else
		admission_decide(&req, a);
	/* Root under a mistyped line passes without a record, as before the
	 * line was read. */
	int status = !args_ok && a->verdict == VERDICT_EXEMPT ? PAM_IGNORE
							      : carry_out(pamh, flags, &args, a);
	if (k)
		pam_set_data(pamh, DECISION_NAME, NULL, NULL); /* frees it */
	else
		admission_free(&fresh);
	return status;
}

int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)flags;
	struct pam_args args;
	if (!read_args(pamh, argc, argv, &args))
		return PAM_SESSION_ERR;
	int rc = return_to_host(pamh);
	if (args.return_only || rc == PAM_IGNORE)
		return rc == PAM_IGNORE ? PAM_SUCCESS : rc;
	const void *data = NULL, *kept = NULL;
	bool expired = pam_get_data(pamh, DATA_NAME, &data) == PAM_SUCCESS &&
		       sandbox_expired(data);
	/* Ends every process of the session, without waiting for them (the
	 * replaced data's cleanup runs sandbox_end), and removes its record:
	 * the end record comes after, to find stop's mark (records.h). */
	pam_set_data(pamh, DATA_NAME, NULL, NULL);
	struct audit_record r;
	audit_init(&r, "end");
	if (pam_get_data(pamh, RECORD_NAME, &kept) != PAM_SUCCESS)
		kept = NULL;
	/* Once: it takes stop's mark. */
	audit_session_end(kept, expired, &r);
	log_record(pamh, audit_end_priority(&r), &r);
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
	struct pam_args args;
	const void *cut = NULL;
	if (!read_args(pamh, argc, argv, &args))
		return PAM_CRED_ERR;
	if (args.return_only || pam_get_data(pamh, CUT_NAME, &cut) != PAM_SUCCESS || !cut)
		return PAM_SUCCESS;
	struct cc_error err;
	if (edit_environment(pamh, NULL, NULL, args.debug, &err) < 0) {
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
