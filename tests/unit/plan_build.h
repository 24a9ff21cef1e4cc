/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plans built by hand, op by op, for the unit tests of the plan and its
 * printing (test_resolve makes them from policies instead). */
#ifndef COCOON_PLAN_BUILD_H
#define COCOON_PLAN_BUILD_H

#include <string.h>

#include "plan.h"
#include "util.h"

/* An op of TYPE that the policy said at FILE:LINE. */
static inline struct fs_op *plan_add_op(struct plan *plan, enum op_type type,
					const char *source, const char *dest,
					const char *file, int line)
{
	struct fs_op *op = ARRAY_PUSH(plan->ops, plan->nops, plan->ops_cap);
	memset(op, 0, sizeof(*op));
	op->type = type;
	op->source = source ? xstrdup(source) : NULL;
	op->dest = xstrdup(dest);
	op->file = plan_intern_file(plan, file);
	op->line = line;
	return op;
}

/* setenv NAME VALUE, or unsetenv NAME for a NULL value. */
static inline void plan_add_env(struct plan *plan, const char *name, const char *value)
{
	struct env_op *e = ARRAY_PUSH(plan->env, plan->nenv, plan->env_cap);
	e->name = xstrdup(name);
	e->value = value ? xstrdup(value) : NULL;
}

/* The forced command's words joined by spaces, as the policy wrote them
 * (caller frees); NULL without one. */
static inline char *plan_command_text(const struct plan *plan)
{
	if (!plan->command)
		return NULL;
	struct strbuf out = { 0 };
	for (char **w = plan->command; *w; w++)
		sb_addf(&out, "%s%s", w == plan->command ? "" : " ", *w);
	return sb_steal(&out);
}

#endif
