// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl list: the live sessions, as a table or JSON. */
/* Records that outlived their session are removed on the way. A shared
 * sandbox (share-sandbox) is one entry, its own record's, with what its pid 1
 * says of its logins and its linger; the logins that joined it come
 * under it, never as sandboxes of their own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "plan_values.h"
#include "sandbox_share.h"
#include "sessions.h"
#include "util.h"

static void print_started(FILE *out, long long when)
{
	time_t t = (time_t)when;
	struct tm tm;
	char buf[32] = "?";
	if (localtime_r(&t, &tm))
		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	fputs(buf, out);
}

/* The record of a shared sandbox itself: its first login's, shared=ID. */
static bool is_sandbox(const struct live_record *r)
{
	return r->shared[0] && strcmp(r->shared, r->id) == 0;
}

static bool is_joined(const struct live_record *r)
{
	return r->shared[0] && strcmp(r->shared, r->id) != 0;
}

/* What a shared sandbox's pid 1 says of itself (share_status). */
struct share_view {
	int answered; /* 1 yes, 0 nobody listens (it is ending), -1 error */
	size_t logins;
	long long linger_left; /* -1: no linger running */
};

static struct share_view share_view_of(const struct live_record *r, bool verbose)
{
	struct share_view v = { 0 };
	struct cc_error err;
	v.answered = share_status(r->uid, r->hash, &v.logins, &v.linger_left, &err);
	if (v.answered < 0 && verbose)
		fprintf(stderr, "cocoonctl list: shared sandbox %s: %s\n", r->id, err.msg);
	return v;
}

/* The STATE column of a shared sandbox. */
static void share_state(const struct share_view *v, char *out, size_t size)
{
	if (v->answered != 1)
		snprintf(out, size, "shared, does not answer");
	else if (v->logins)
		snprintf(out, size, "shared, %zu login%s", v->logins, v->logins == 1 ? "" : "s");
	else if (v->linger_left >= 0)
		snprintf(out, size, "shared, lingering, ends in %llds", v->linger_left);
	else
		snprintf(out, size, "shared, lingering, no end");
}

static void json_common(struct strbuf *sb, const struct live_record *r)
{
	sb_addf(sb, "{\"id\": ");
	sb_add_json_string(sb, r->id);
	sb_addf(sb, ", \"user\": ");
	sb_add_json_string(sb, r->user);
	sb_addf(sb, ", \"uid\": %u, \"service\": ", (unsigned)r->uid);
	sb_add_json_string(sb, r->service);
	sb_addf(sb, ", \"started\": %lld", r->started);
}

/* "share": what the pid 1 of the sandbox R says, and the logins that
 * joined it (their own records). */
static void json_share(struct strbuf *sb, const struct record_list *list, const bool *live,
		       const struct live_record *r, bool verbose)
{
	struct share_view v = share_view_of(r, verbose);
	const char *state = v.answered != 1 ? "not-answering" :
			    v.logins ? "attached" : "lingering";
	sb_addf(sb, ", \"share\": {\"state\": \"%s\", \"logins\": ", state);
	if (v.answered == 1)
		sb_addf(sb, "%zu", v.logins);
	else
		sb_addf(sb, "null");
	sb_addf(sb, ", \"ends_in\": ");
	if (v.answered == 1 && !v.logins && v.linger_left >= 0)
		sb_addf(sb, "%lld", v.linger_left);
	else
		sb_addf(sb, "null");
	sb_addf(sb, ", \"joined\": [");
	size_t n = 0;
	for (size_t j = 0; j < list->count; j++) {
		const struct live_record *o = &list->items[j];
		if (!live[j] || !is_joined(o) || strcmp(o->shared, r->id) != 0)
			continue;
		sb_addf(sb, "%s", n++ ? ", " : "");
		json_common(sb, o);
		sb_addf(sb, "}");
	}
	sb_addf(sb, "]}");
}

/* A joined login whose sandbox has no live record of its own: shown on
 * its own rather than hidden. */
static bool has_sandbox(const struct record_list *list, const bool *live,
			const struct live_record *r)
{
	for (size_t j = 0; j < list->count; j++)
		if (live[j] && is_sandbox(&list->items[j]) &&
		    strcmp(list->items[j].id, r->shared) == 0)
			return true;
	return false;
}

static void list_json(const struct record_list *list, const bool *live, bool verbose)
{
	struct strbuf sb = { 0 };
	sb_addf(&sb, "[");
	size_t shown = 0;
	for (size_t i = 0; i < list->count; i++) {
		const struct live_record *r = &list->items[i];
		if (!live[i] || (is_joined(r) && has_sandbox(list, live, r)))
			continue;
		char ns[128];
		plan_ns_format(r->namespaces, ns, sizeof(ns));
		sb_addf(&sb, "%s\n  ", shown++ ? "," : "");
		json_common(&sb, r);
		sb_addf(&sb, ", \"rule\": ");
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
		sb_addf(&sb, ", \"state\": \"%s\"",
			r->namespaces & NS_PID ? "running" : "running-no-pidns");
		if (is_sandbox(r))
			json_share(&sb, list, live, r, verbose);
		else if (is_joined(r)) {
			sb_addf(&sb, ", \"joined_to\": ");
			sb_add_json_string(&sb, r->shared);
		}
		sb_addf(&sb, "}");
	}
	sb_addf(&sb, "%s]\n", shown ? "\n" : "");
	fputs(sb.data, stdout);
	sb_free(&sb);
}

static void text_row(const struct live_record *r, const char *state)
{
	printf("%-32s %-12s %-10s ", r->id, r->user, r->service);
	print_started(stdout, r->started);
	printf(" %-12s %-16s %s\n", r->profile ? r->profile : "-", r->hash, state);
}

static void list_text(const struct record_list *list, const bool *live, bool verbose)
{
	printf("%-32s %-12s %-10s %-19s %-12s %-16s %s\n", "ID", "USER", "SERVICE",
	       "STARTED", "PROFILE", "PLAN", "STATE");
	for (size_t i = 0; i < list->count; i++) {
		const struct live_record *r = &list->items[i];
		if (!live[i] || (is_joined(r) && has_sandbox(list, live, r)))
			continue;
		char state[128];
		if (is_sandbox(r)) {
			struct share_view v = share_view_of(r, verbose);
			share_state(&v, state, sizeof(state));
		} else if (is_joined(r)) {
			snprintf(state, sizeof(state), "joined %.*s (no record of it)",
				 RECORD_PREFIX_MIN, r->shared);
		} else {
			snprintf(state, sizeof(state), "%s", r->namespaces & NS_PID ?
				 "running" : "running (no pid namespace)");
		}
		text_row(r, state);
		if (!is_sandbox(r))
			continue;
		/* Its logins, right under it, each naming it. */
		snprintf(state, sizeof(state), "joined %.*s", RECORD_PREFIX_MIN, r->id);
		for (size_t j = 0; j < list->count; j++)
			if (live[j] && is_joined(&list->items[j]) &&
			    strcmp(list->items[j].shared, r->id) == 0)
				text_row(&list->items[j], state);
	}
}

static int list_live(const struct session_ctx *s)
{
	const struct session_args *a = &s->args;
	const struct record_list *list = &s->list;
	int dir = s->dir;
	bool *live AUTOFREE = xcalloc(list->count, sizeof(bool));
	size_t stale = 0;
	for (size_t i = 0; i < list->count; i++) {
		const struct live_record *r = &list->items[i];
		struct cc_error why;
		/* A stale one (a crash or a lost end left it) is removed: it
		 * confuses nothing. */
		int rc = record_remove_if_stale(dir, r, &why);
		if (rc == 1) {
			live[i] = true;
		} else if (rc == 0) {
			stale++;
			if (a->verbose)
				fprintf(stderr, "cocoonctl list: removed the stale record %s: "
					"%s\n", r->id, why.msg);
		} else {
			fprintf(stderr, "cocoonctl list: %s: %s\n", r->id, why.msg);
		}
	}
	if (a->json)
		list_json(list, live, a->verbose);
	else
		list_text(list, live, a->verbose);
	if (stale && !a->verbose)
		fprintf(stderr, "cocoonctl list: removed %zu stale record%s (--verbose "
			"says which)\n", stale, stale == 1 ? "" : "s");
	return 0;
}

int cmd_list(int argc, char **argv)
{
	return run_session_command(argc, argv, list_live);
}
