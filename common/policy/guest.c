// SPDX-License-Identifier: GPL-2.0-or-later
/* A guest account's `home` and `private-tmp` settings as plan ops. */
/* Guest accounts: a rule's `home` and `private-tmp` settings become the
 * plan's ops, replacing or joining a bind of the home. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rule_merge.h"
#include "util.h"

/* "%h", or "%h/" and the like: the same directory. */
static bool is_home_token(const char *path)
{
	return strncmp(path, "%h", 2) == 0 && strspn(path + 2, "/") == strlen(path + 2);
}

static bool binds_home(const struct fs_op *op)
{
	return op_is_bind(op->type) && is_home_token(op->source) && is_home_token(op->dest);
}

static void clear_op(struct fs_op *op, enum op_type type, const char *file, int line)
{
	free(op->source);
	free(op->dest);
	free(op->content);
	memset(op, 0, sizeof(*op));
	op->type = type;
	op->file = file;
	op->line = line;
}

/* A new op at index AT (nops: at the end), said to come from WHERE. */
static struct fs_op *insert_op(struct plan *plan, size_t at, enum op_type type,
			       struct place where)
{
	const char *file = plan_intern_file(plan, where.file);
	ARRAY_PUSH(plan->ops, plan->nops, plan->ops_cap);
	memmove(&plan->ops[at + 1], &plan->ops[at],
		(plan->nops - 1 - at) * sizeof(plan->ops[0]));
	struct fs_op *op = &plan->ops[at];
	memset(op, 0, sizeof(*op));
	clear_op(op, type, file, where.line);
	return op;
}

static void remove_op(struct plan *plan, size_t at)
{
	clear_op(&plan->ops[at], OP_BIND, NULL, 0);
	memmove(&plan->ops[at], &plan->ops[at + 1],
		(plan->nops - at - 1) * sizeof(plan->ops[0]));
	plan->nops--;
}

/* tmpfs: the first op binding %h at %h becomes the tmpfs home and the
 * others go; overlay: one goes over the last such bind; none: they all
 * go (and `chdir = %h` with them). With no such bind, a tmpfs or overlay
 * home comes after every op. */
void guest_plan_home(struct merge *m)
{
	struct plan *plan = m->plan;
	if (plan->home == HOME_BIND)
		return;
	size_t found = SIZE_MAX; /* tmpfs: the first; overlay: the last */
	for (size_t i = 0; i < plan->nops;) {
		if (!binds_home(&plan->ops[i]))
			i++;
		else if (plan->home == HOME_OVERLAY ||
			 (plan->home == HOME_TMPFS && found == SIZE_MAX))
			found = i++;
		else
			remove_op(plan, i);
	}
	if (plan->home == HOME_NONE) {
		/* No home to go to: `chdir = %h` falls back to /. */
		if (plan->chdir && strcmp(plan->chdir, "%h") == 0) {
			free(plan->chdir);
			plan->chdir = NULL;
		}
		return;
	}
	struct fs_op *op;
	if (plan->home == HOME_TMPFS && found != SIZE_MAX) {
		op = &plan->ops[found];
		clear_op(op, OP_HOME_TMPFS, plan_intern_file(plan, m->home_at.file),
			 m->home_at.line);
	} else {
		op = insert_op(plan, found == SIZE_MAX ? plan->nops : found + 1,
			       plan->home == HOME_TMPFS ? OP_HOME_TMPFS : OP_TMP_OVERLAY,
			       m->home_at);
	}
	op->dest = xstrdup("%h");
	op->size = plan->home_size;
	if (op->type == OP_HOME_TMPFS) {
		op->source = xstrdup(plan->home_skel ? plan->home_skel : COCOON_DEFAULT_SKEL);
		op->mode = 0700;
		op->has_mode = true;
	}
}

/* Each private temporary directory after every other op, over whatever
 * the profile put there. */
void guest_plan_private_tmp(struct merge *m)
{
	static const char *const dirs[][2] = {
		{ "/tmp", "tmp" }, { "/var/tmp", "var-tmp" }, { "/dev/shm", "shm" },
	};
	struct plan *plan = m->plan;
	if (plan->private_tmp == PRIVATE_TMP_NO)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		struct fs_op *op = insert_op(plan, plan->nops, OP_PRIVATE_TMP,
					     m->private_tmp_at);
		op->dest = xstrdup(dirs[i][0]);
		op->mode = 01777;
		op->has_mode = true;
		if (plan->private_tmp == PRIVATE_TMP_PERSISTENT)
			op->source = xasprintf("%s/%%U/%s", COCOON_PRIVATE_TMP_DIR,
					       dirs[i][1]);
		else
			op->size = plan->tmp_size;
	}
}
