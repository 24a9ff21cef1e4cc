/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan as text for people, as JSON for machines, and as the
 * equivalent bubblewrap command line. */
#ifndef COCOON_PLAN_PRINT_H
#define COCOON_PLAN_PRINT_H

#include "plan.h"
#include "util.h"

void plan_print_text(const struct plan *plan, struct strbuf *out);
/* What the engine writes to a session's SESSION_INFO_PATH for
 * `cocoonctl why`: the session's id (NULL: none), then the plan as
 * plan_print_text says it. */
#define SESSION_INFO_PATH "/run/cocoon/session"
void plan_print_session(const struct plan *plan, const char *id, struct strbuf *out);
void plan_print_json(const struct plan *plan, struct strbuf *out);
/* bwrap options for the plan, ending in "--"; the caller adds the
 * command. The session limits come first, as "# " comment lines (bwrap
 * has no option for them). Returns -1 with err when the plan has an op
 * bwrap cannot express. */
int plan_print_bwrap(const struct plan *plan, struct strbuf *out,
		     struct cc_error *err);

#endif
