/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A PAM service's stack of one type, read as libpam reads it: includes
 * and substacks followed, continued lines joined, arguments in
 * [brackets] given as the module gets them. Read by check --pam to judge
 * the stacks, by check and edit to know which services run pam_cocoon on
 * the policy, and by explain to say what a login through one does. */
#ifndef COCOON_PAM_STACK_H
#define COCOON_PAM_STACK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define COCOON_PAM_DIR "/etc/pam.d"
/* Where libpam looks for a service its own directory lacks. */
#define COCOON_PAM_DIST_DIR "/usr/lib/pam.d"
#define PAM_STACK_COCOON_MODULE "pam_cocoon.so"
/* The service libpam runs when another has no lines of a type. */
#define PAM_STACK_OTHER "other"

/* One line of a PAM stack, after includes were followed. */
struct pam_stack_line {
	char *file;      /* where it is written */
	int line;
	bool optional_module; /* "-session": skipped when the module is missing */
	char control[128];
	char module[PATH_MAX];
	bool is_cocoon;
	bool has_return; /* pam_cocoon's `return` argument */
	/* pam_env with user_readenv=1: ~/.pam_environment's variables, the
	 * user's own choice, join the PAM environment. */
	bool reads_user_env;
	int level;       /* 0 in the service's stack, +1 per substack */
	char **argv;     /* the module's arguments, as libpam gives them */
	int argc;
};

struct pam_stack {
	struct pam_stack_line *lines;
	size_t count, cap;
	int level; /* of the lines read now */
	const char *type; /* the lines kept: "session" or "auth" */
};

/* Append the lines of s->type of NAME (a service or an included file,
 * relative to DIR or absolute) to OUT. DEPTH: 0 for a service. A missing
 * file adds nothing, as libpam skips a missing include; includes nested
 * too deep are a warning in DIAGS. */
void pam_stack_read(const char *dir, const char *name, struct pam_stack *out,
		    int depth, struct diag_list *diags);
void pam_stack_free(struct pam_stack *s);

/* CONTROL with the blanks around its '=' taken out, as libpam reads a
 * [value = action] control, into OUT. */
void pam_stack_control_normalize(const char *control, char *out, size_t size);

/* Whether pam_cocoon's refusal (PAM_SESSION_ERR) on line L fails the
 * session: required, requisite, or a [value=action] control whose
 * session_err (else default, else libpam's "bad") is bad or die. An
 * optional or sufficient line lets libpam open the session unconfined. */
bool pam_stack_refusal_holds(const struct pam_stack_line *l);

/* What a session through SERVICE meets of pam_cocoon. */
struct pam_stack_cocoon {
	/* The file the session lines were read from: SERVICE's (under DIR,
	 * or libpam's distribution directory), or `other`'s when SERVICE has
	 * none (no file, or no session line), which libpam then runs. */
	char path[PATH_MAX];
	bool service_exists;
	bool from_other;
	/* pam_cocoon's first session line without `return` (the one that
	 * confines), borrowed from STACK; NULL when there is none. */
	const struct pam_stack_line *confining;
	size_t confining_lines;
	bool has_return_line;
	struct pam_stack stack;
};

/* Read SERVICE's session stack under DIR (COCOON_PAM_DIR) as libpam
 * would for a login, into OUT (pam_stack_cocoon_free it). */
void pam_stack_cocoon_read(const char *dir, const char *service,
			   struct pam_stack_cocoon *out);
void pam_stack_cocoon_free(struct pam_stack_cocoon *c);

/* Whether pam_cocoon's line L is left in mode=audit (the last of
 * mode=audit and mode=enforce holds, as the module reads them). */
bool pam_stack_line_audit(const struct pam_stack_line *l);
/* Whether NAME, a file of the PAM directory, is a service: not a package
 * manager's or an editor's file. */
bool pam_stack_is_service_name(const char *name);

/* A service whose session stack runs this build's pam_cocoon, confining
 * and enforcing, on the policy a check judges; and that line. */
struct pam_stack_service {
	char *service;
	char *file;
	int line;
};
struct pam_stack_services {
	struct pam_stack_service *items;
	size_t count, cap;
};

/* The services under DIR (COCOON_PAM_DIR) whose stacks confine with the
 * policy POLICY_FILE: a line with conf= naming it, or, when POLICY_FILE
 * is DEFAULT_FILE (the build's cocoon.conf), a line without conf= that
 * loads this build's module (COCOON_PAM_MODULE; a bare name is found in
 * COCOON_PAM_SYSTEM_DIR, as libpam finds it). Another build's lines, and
 * an installed cocoon's beside a test tree's, do not count. */
/* Whether SERVICE's session stack under DIR has a pam_cocoon line that
 * confines and enforces with POLICY_FILE: its conf= names that file
 * (inside ROOT, for an image: NULL for this host), or it has no conf=
 * (any build's module). POLICY_FILE NULL: any such line counts. */
bool pam_stack_service_reads(const char *dir, const char *service, const char *policy_file,
			     const char *root);

void pam_stack_policy_services(const char *dir, const char *policy_file,
			       const char *default_file, struct pam_stack_services *out);
void pam_stack_services_free(struct pam_stack_services *s);

#endif
