// SPDX-License-Identifier: GPL-2.0-or-later
/* nsswitch.conf's passwd, group and initgroups lines, parsed as glibc. */
/* As glibc 2.36 parses them (nss/nss_database.c, nss/nss_action_parse.c). */
#include "nsswitch.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "line_reader.h"
#include "util.h"

static const char *const db_names[] = {
	[NSSWITCH_PASSWD] = "passwd",
	[NSSWITCH_GROUP] = "group",
	[NSSWITCH_INITGROUPS] = "initgroups",
};

static const char *const status_names[] = { "TRYAGAIN", "UNAVAIL", "NOTFOUND", "SUCCESS" };

size_t nsswitch_status_index(enum nss_status status)
{
	/* TRYAGAIN -2, UNAVAIL -1, NOTFOUND 0, SUCCESS 1; NSS_STATUS_RETURN
	 * (a module's internal answer) returns, as SUCCESS does. */
	if (status < NSS_STATUS_TRYAGAIN || status > NSS_STATUS_SUCCESS)
		return 3;
	return (size_t)(status - NSS_STATUS_TRYAGAIN);
}

enum nsswitch_action nsswitch_action_after(const struct nsswitch_source *src,
					   enum nss_status status)
{
	return src->action[nsswitch_status_index(status)];
}

static void skip_space(const char **p)
{
	while (**p && isspace((unsigned char)**p))
		(*p)++;
}

/* A word up to a space or one of STOP. */
static size_t word_len(const char *p, const char *stop)
{
	size_t n = 0;
	while (p[n] && !isspace((unsigned char)p[n]) && !strchr(stop, p[n]))
		n++;
	return n;
}

static int parse_status(const char *p, size_t len)
{
	for (size_t i = 0; i < 4; i++)
		if (len == strlen(status_names[i]) && strncasecmp(p, status_names[i], len) == 0)
			return (int)i;
	return -1;
}

static int parse_action(const char *p, size_t len)
{
	static const char *const names[] = { "CONTINUE", "RETURN", "MERGE" };
	for (size_t i = 0; i < 3; i++)
		if (len == strlen(names[i]) && strncasecmp(p, names[i], len) == 0)
			return (int)i;
	return -1;
}

/* "[!NOTFOUND=return UNAVAIL=continue]" at *P, into SRC. */
static int parse_criteria(const char **p, struct nsswitch_source *src)
{
	(*p)++;
	skip_space(p);
	do {
		bool negate = **p == '!';
		if (negate)
			(*p)++;
		size_t len = word_len(*p, "=]");
		int status = parse_status(*p, len);
		*p += len;
		skip_space(p);
		if (status < 0 || **p != '=')
			return -1;
		(*p)++;
		skip_space(p);
		len = word_len(*p, "=]");
		int action = parse_action(*p, len);
		*p += len;
		if (action < 0)
			return -1;
		if (negate) {
			enum nsswitch_action keep = src->action[status];
			for (size_t i = 0; i < 4; i++)
				src->action[i] = (enum nsswitch_action)action;
			src->action[status] = keep;
		} else {
			src->action[status] = (enum nsswitch_action)action;
		}
		skip_space(p);
	} while (**p != ']');
	(*p)++;
	return 0;
}

static void sources_clear(struct nsswitch_sources *s)
{
	for (size_t i = 0; i < s->count; i++)
		free(s->items[i].name);
	free(s->items);
	s->items = NULL;
	s->count = 0;
}

/* The sources after "db:", as glibc's nss_action_parse: a source name
 * runs to a space or '['; '#' is no comment there (it names a module). */
static int parse_sources(const char *p, struct nsswitch_sources *out)
{
	size_t cap = 0;
	sources_clear(out);
	for (;;) {
		skip_space(&p);
		size_t len = word_len(p, "[");
		if (len == 0)
			return 0;
		struct nsswitch_source *src = ARRAY_PUSH(out->items, out->count, cap);
		src->name = xstrndup(p, len);
		for (size_t i = 0; i < 4; i++)
			src->action[i] = NSSWITCH_CONTINUE;
		src->action[nsswitch_status_index(NSS_STATUS_SUCCESS)] = NSSWITCH_RETURN;
		p += len;
		skip_space(&p);
		if (*p == '[' && parse_criteria(&p, src) < 0)
			return -1;
	}
}

/* The database LINE is for, and where its sources start; -1: none. */
static int line_db(const char *line, const char **rest)
{
	const char *p = line;
	skip_space(&p);
	size_t len = word_len(p, ":");
	if (len == 0 || !p[len])
		return -1;
	for (size_t db = 0; db < ARRAY_SIZE(db_names); db++)
		if (len == strlen(db_names[db]) && strncmp(p, db_names[db], len) == 0) {
			p += len;
			while (*p && (isspace((unsigned char)*p) || *p == ':'))
				p++;
			*rest = p;
			return (int)db;
		}
	return -1;
}

/* Every line of the file, DB's kept in OUT (the last one wins); FOUND
 * says whether DB had one. */
static int read_db(struct line_reader *r, enum nsswitch_db db,
		   struct nsswitch_sources *out, bool *found, struct cc_error *err)
{
	int rc = 0, more = 0;
	*found = false;
	while (rc == 0 && (more = line_reader_next(r, err)) > 0) {
		const char *rest = NULL;
		if (line_db(r->line, &rest) != (int)db)
			continue;
		*found = true;
		if (parse_sources(rest, out) < 0)
			rc = cc_fail(err, "%s:%d: a criterion glibc does not know", r->path,
				     r->lineno);
	}
	return rc == 0 && more < 0 ? -1 : rc;
}

int nsswitch_read(const char *path, enum nsswitch_db db, struct nsswitch_sources *out,
		  struct cc_error *err)
{
	memset(out, 0, sizeof(*out));
	/* A file that is not there or not readable is no file, as for glibc. */
	struct line_reader r;
	struct cc_error why;
	bool opened = line_reader_open(&r, path, &why) == 0;
	if (!opened && why.errnum != EACCES && why.errnum != EISDIR && why.errnum != ELOOP &&
	    why.errnum != ENOENT && why.errnum != ENOTDIR && why.errnum != EPERM) {
		if (err)
			*err = why;
		return -1;
	}
	bool found = false;
	if (opened) {
		int rc = read_db(&r, db, out, &found, err);
		if (rc == 0 && db == NSSWITCH_INITGROUPS && !found) {
			line_reader_rewind(&r);
			rc = read_db(&r, NSSWITCH_GROUP, out, &found, err);
			db = NSSWITCH_GROUP;
		}
		line_reader_close(&r);
		if (rc < 0) {
			nsswitch_free(out);
			return -1;
		}
	} else if (db == NSSWITCH_INITGROUPS) {
		db = NSSWITCH_GROUP;
	}
	out->initgroups_line = db == NSSWITCH_INITGROUPS;
	if (!found)
		parse_sources("files", out);
	return 0;
}

void nsswitch_free(struct nsswitch_sources *sources)
{
	sources_clear(sources);
	memset(sources, 0, sizeof(*sources));
}
