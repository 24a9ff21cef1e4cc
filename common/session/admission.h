/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The front door: what a login gets. Every entry point (pam_cocoon,
 * cocoon-shell, cocoonctl run, enter and explain) asks admission_decide
 * and only translates its inputs and reports its answer, so that explain
 * says what a login does because it asks the same question. */
#ifndef COCOON_ADMISSION_H
#define COCOON_ADMISSION_H

#include <stdbool.h>
#include <sys/types.h>

#include "audit.h"
#include "error.h"
#include "identity.h"
#include "plan.h"
#include "policy.h"

/* Who asks. */
enum entry_kind {
	ENTRY_PAM,          /* pam_cocoon's session line, for PAM_USER on PAM_SERVICE */
	ENTRY_COCOON_SHELL, /* cocoon-shell as the login shell of its real uid */
	ENTRY_RUN,          /* cocoonctl run: root starts a command in the sandbox */
	ENTRY_ENTER,        /* cocoonctl enter: a command inside a live session */
};

/* What the login gets, in the words of its audit record's result. */
enum verdict {
	VERDICT_REFUSED,    /* no session */
	VERDICT_EXEMPT,     /* root or pam_cocoon's exempt=: the policy is not read */
	VERDICT_UNCONFINED, /* no rule (PAM), or sandbox = none */
	VERDICT_AUDIT,      /* pam_cocoon mode=audit: judged, let in unconfined */
	VERDICT_SANDBOXED,
};

/* A check only the entry can make (pam_cocoon: the limits handed to
 * pam_systemd), run where the ladder runs its own service checks, so
 * that mode=audit softens its refusal like theirs. APPLY is false under
 * mode=audit. */
typedef int (*admission_check_fn)(void *data, const struct plan *plan, bool apply,
				  struct cc_error *err);

struct admission_request {
	enum entry_kind kind;
	/* The account: by name (PAM_USER, cocoonctl's USER, a name or else a
	 * uid when NAME_OR_UID), or by uid (cocoon-shell's real uid, a live
	 * session's owner) when USER is NULL. */
	const char *user;
	bool name_or_uid;
	uid_t uid;
	/* enter: the name the live session's record carries, which the uid
	 * must still have. */
	const char *expect_user;
	const char *service;   /* NULL: cocoonctl's default; cocoon-shell's is "shell" */
	const char *config;    /* conf= or --config; NULL: the system policy */
	/* pam_cocoon's module arguments: */
	const char *bad_arguments; /* why the line's arguments are wrong; NULL: fine */
	const char *exempt;        /* exempt=user,@group */
	bool audit;                /* mode=audit */
	/* The caller's argv (cocoon-shell: its own; run: the command) and
	 * environment; the finished command is built from them. */
	int argc;
	char **argv;
	char *const *envp;
	const char *live_hash; /* enter: the live session's plan hash */
	/* enter --root: root's command in the session, which only a plan
	 * that is safe with root inside may have (plan_check_service). */
	bool enter_as_root;
	enum identity_groups groups; /* GROUPS_NOW where the caller prints them */
	admission_check_fn entry_check;
	void *entry_check_data;
	/* For tests and explain --all: a policy already loaded and checked,
	 * an account already looked up (borrowed, never freed here), and
	 * UID_MIN (0: read from login.defs). */
	const struct policy *policy;
	struct identity *who;
	uid_t uid_min;
};

struct admission {
	enum verdict verdict;
	/* The audit record's result and reason: "would-refuse" for a refusal
	 * mode=audit lets in; the reason is "root", "exempt=", "no rule",
	 * "sandbox = none", "mode=audit: ..." or the refusal's message. */
	const char *result;
	char reason[sizeof(((struct cc_error *)0)->msg)];
	enum cc_cause cause;      /* of a refusal: CC_UNREACHABLE, an outage */
	bool mode_audit;
	bool known_account;       /* WHO is filled */
	struct identity who;
	bool have_plan;           /* a rule matched: PLAN is filled */
	struct plan plan;
	/* The account's login shell is cocoon-shell. */
	bool cocoon_shell_account;
	/* PAM lets such an account in without a sandbox (exempt, unconfined,
	 * audit): the service runs programs on the host before that shell
	 * confines the login, so the PAM environment is cut to the
	 * allow-list, and the reason says so. Root is never cocoon-shell's. */
	bool cut_environment;
	/* The finished command, for a sandboxed or unconfined login that
	 * execs (cocoon-shell, run, enter): the real shell, and what runs. */
	const char *shell;
	const char *path;
	char **argv;
	char **envp;
};

/* Decide. Always fills OUT (admission_free it); returns -1 when the
 * verdict is VERDICT_REFUSED, else 0. */
int admission_decide(const struct admission_request *req, struct admission *out);
void admission_free(struct admission *a);

/* A PAM decision made without REQ's entry check (pam_cocoon's return
 * line decides before pam_systemd has run), finished with it: A becomes
 * what admission_decide with the check answers. Returns -1 when the
 * verdict is VERDICT_REFUSED, else 0. */
int admission_entry_check(const struct admission_request *req, struct admission *a);

/* A decision kept from one line of a PAM stack to the next (pam_cocoon's
 * return line decides, the confining line finishes it with its entry
 * check), with the question it answers. */
struct admission_kept {
	struct admission a; /* admission_decide fills it */
	char *user, *service, *config, *exempt;
	bool audit;
};
/* Record REQ as the question K->a answers (after admission_decide). */
void admission_kept_asked(struct admission_kept *k, const struct admission_request *req);
/* Whether K answers REQ: the same user, service, config, exempt, audit. */
bool admission_kept_answers(const struct admission_kept *k,
			    const struct admission_request *req);
void admission_kept_free(struct admission_kept *k);

/* The audit record's fields that come of the front door's answer A:
 * uid, plan, result, reason and mode (the event and the rest are the
 * entry point's). */
void admission_record(const struct admission *a, struct audit_record *r);

/* The verdict as a word: refused, exempt, unconfined, audit, sandboxed. */
const char *admission_verdict_name(enum verdict verdict);

#endif
