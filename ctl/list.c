// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl list: the live sessions. */
/* cocoonctl list: the live sessions, as a table or JSON; records that
 * outlived their session are removed on the way. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "commands.h"
#include "plan_values.h"
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
		plan_ns_format(r->namespaces, ns, sizeof(ns));
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
	return 0;
}

int cmd_list(int argc, char **argv)
{
	return run_session_command(argc, argv, list_live);
}
