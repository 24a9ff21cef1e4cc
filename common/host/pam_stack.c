// SPDX-License-Identifier: GPL-2.0-or-later
/* A PAM service's stack, read as libpam reads it (pam_stack.h). */
#include "pam_stack.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "line_reader.h"
#include "util.h"

#define MAX_INCLUDE_DEPTH 8
/* The module this build installs, and where libpam finds a module named
 * without a path (the Makefile's PAMDIR and the system's). */
#ifndef COCOON_PAM_MODULE
#define COCOON_PAM_MODULE "/usr/lib/security/" PAM_STACK_COCOON_MODULE
#endif
#ifndef COCOON_PAM_SYSTEM_DIR
#define COCOON_PAM_SYSTEM_DIR "/usr/lib/security"
#endif

void pam_stack_free(struct pam_stack *s)
{
	for (size_t i = 0; i < s->count; i++) {
		free(s->lines[i].file);
		for (int a = 0; a < s->lines[i].argc; a++)
			free(s->lines[i].argv[a]);
		free(s->lines[i].argv);
	}
	free(s->lines);
	memset(s, 0, sizeof(*s));
}

/* Whether MODULE (a path or a bare name) is NAME. */
static bool pam_stack_module_is(const char *module, const char *name)
{
	const char *base = strrchr(module, '/');
	return strcmp(base ? base + 1 : module, name) == 0;
}

void pam_stack_control_normalize(const char *control, char *out, size_t size)
{
	size_t n = 0;
	for (const char *c = control; *c && n + 1 < size; c++) {
		if (isspace((unsigned char)*c) &&
		    (c[1 + strspn(c + 1, " \t")] == '=' || (n > 0 && out[n - 1] == '=')))
			continue;
		out[n++] = *c;
	}
	out[n] = '\0';
}

/* The action of VALUE in a [value=action ...] control: VALUE's, else
 * default's, else "bad", as libpam fills the values a line leaves out. */
static void control_action(const char *control, const char *value, char *action, size_t size)
{
	char words[sizeof(((struct pam_stack_line *)0)->control)];
	pam_stack_control_normalize(control, words, sizeof(words));
	const char *found = NULL, *fallback = NULL;
	size_t found_len = 0, fallback_len = 0, vlen = strlen(value);
	for (const char *p = words + 1; *p && *p != ']';) {
		size_t len = strcspn(p, " \t]");
		const char *eq = memchr(p, '=', len);
		if (eq && (size_t)(eq - p) == vlen && strncasecmp(p, value, vlen) == 0) {
			found = eq + 1;
			found_len = len - (size_t)(eq + 1 - p);
		} else if (eq && eq - p == 7 && strncasecmp(p, "default", 7) == 0) {
			fallback = eq + 1;
			fallback_len = len - (size_t)(eq + 1 - p);
		}
		p += len;
		p += strspn(p, " \t");
	}
	if (!found) {
		found = fallback ? fallback : "bad";
		found_len = fallback ? fallback_len : 3;
	}
	snprintf(action, size, "%.*s", (int)found_len, found);
}

bool pam_stack_refusal_holds(const struct pam_stack_line *l)
{
	if (strcasecmp(l->control, "required") == 0 || strcasecmp(l->control, "requisite") == 0)
		return true;
	if (l->control[0] != '[')
		return false; /* optional, sufficient */
	char action[32];
	control_action(l->control, "session_err", action, sizeof(action));
	return strcasecmp(action, "bad") == 0 || strcasecmp(action, "die") == 0;
}

/* The next word of a PAM line; a control in [brackets] is one word. */
static char *next_word(char **cursor, char *buf, size_t size)
{
	char *p = *cursor;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NULL;
	size_t n = 0;
	char end = *p == '[' ? ']' : '\0';
	while (*p && (end ? n == 0 || p[-1] != end : !isspace((unsigned char)*p))) {
		if (n + 1 < size)
			buf[n++] = *p;
		p++;
	}
	buf[n] = '\0';
	*cursor = p;
	return buf;
}

/* The next module argument, as libpam hands it over: one in [brackets]
 * may hold spaces, ends at the first ']' and loses the brackets, and
 * "\]" in it is "]". NULL at the end of the line. */
static char *next_arg(char **cursor)
{
	char *p = *cursor;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NULL;
	struct strbuf arg = { 0 };
	if (*p == '[') {
		for (p++; *p && *p != ']'; p++) {
			if (p[0] == '\\' && p[1] == ']')
				p++;
			sb_addf(&arg, "%c", *p);
		}
		if (*p)
			p++;
	} else {
		for (; *p && !isspace((unsigned char)*p); p++)
			sb_addf(&arg, "%c", *p);
	}
	*cursor = p;
	return arg.data ? arg.data : xstrdup("");
}

/* Add one parsed line of type s->type (includes followed). */
static void stack_line(const char *dir, const char *path, int lineno, char *text,
		       struct pam_stack *out, int depth, struct diag_list *diags)
{
	char type[32], control[128], module[PATH_MAX];
	char *cursor = text;
	if (!next_word(&cursor, type, sizeof(type)))
		return;
	if (strcmp(type, "@include") == 0) {
		if (next_word(&cursor, module, sizeof(module)))
			pam_stack_read(dir, module, out, depth + 1, diags);
		return;
	}
	bool dash = type[0] == '-';
	if (strcasecmp(type + dash, out->type) != 0)
		return;
	if (!next_word(&cursor, control, sizeof(control)) ||
	    !next_word(&cursor, module, sizeof(module)))
		return;
	if (strcmp(control, "include") == 0 || strcmp(control, "substack") == 0) {
		bool sub = strcmp(control, "substack") == 0;
		out->level += sub;
		pam_stack_read(dir, module, out, depth + 1, diags);
		out->level -= sub;
		return;
	}
	struct pam_stack_line *l = ARRAY_PUSH(out->lines, out->count, out->cap);
	memset(l, 0, sizeof(*l));
	l->file = xstrdup(path);
	l->line = lineno;
	l->optional_module = dash;
	snprintf(l->control, sizeof(l->control), "%s", control);
	snprintf(l->module, sizeof(l->module), "%s", module);
	l->is_cocoon = pam_stack_module_is(module, PAM_STACK_COCOON_MODULE);
	l->level = out->level;
	bool pam_env = pam_stack_module_is(module, "pam_env.so");
	size_t cap = 0, argc = 0;
	for (char *a; (a = next_arg(&cursor));) {
		l->has_return |= l->is_cocoon && strcmp(a, "return") == 0;
		/* As pam_env reads it: atoi, any value but 0 turns it on. */
		l->reads_user_env |= pam_env && str_starts_with(a, "user_readenv=") &&
				     atoi(a + strlen("user_readenv=")) != 0;
		*ARRAY_PUSH(l->argv, argc, cap) = a;
	}
	l->argc = (int)argc;
}

void pam_stack_read(const char *dir, const char *name, struct pam_stack *out,
		    int depth, struct diag_list *diags)
{
	char path[PATH_MAX];
	/* An absolute include names a file of the same system: under --root,
	 * the image's, found by the image's /etc/pam.d. */
	size_t dlen = strlen(dir), plen = strlen(COCOON_PAM_DIR);
	int root_len = dlen >= plen && strcmp(dir + dlen - plen, COCOON_PAM_DIR) == 0
			       ? (int)(dlen - plen) : 0;
	if (name[0] == '/')
		snprintf(path, sizeof(path), "%.*s%s", root_len, dir, name);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (depth > MAX_INCLUDE_DEPTH) {
		diag_add(diags, DIAG_WARNING, path, 0, "includes nest deeper than %d; "
			 "not followed further", MAX_INCLUDE_DEPTH);
		return;
	}
	struct line_reader r;
	if (line_reader_open(&r, path, NULL) < 0)
		return; /* PAM skips a missing include too */
	char *joined = NULL;
	size_t jlen = 0;
	int start = 0;
	while (line_reader_next(&r, NULL) > 0) {
		char *line = r.line;
		ssize_t n = r.len;
		if (!jlen)
			start = r.lineno;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0', n = hash - line;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		bool more = n > 0 && line[n - 1] == '\\';
		if (more)
			line[--n] = ' ';
		joined = xreallocarray(joined, jlen + (size_t)n + 1, 1);
		memcpy(joined + jlen, line, (size_t)n + 1);
		jlen += (size_t)n;
		if (more)
			continue;
		stack_line(dir, path, start, joined, out, depth, diags);
		jlen = 0;
	}
	line_reader_close(&r);
	free(joined);
}

/* The directory holding SERVICE's file, as libpam looks for it: DIR,
 * then, for the system's own directory, the distribution's. NULL when
 * neither has it. */
static const char *service_dir(const char *dir, const char *service, char *path,
			       size_t size)
{
	struct stat st;
	snprintf(path, size, "%s/%s", dir, service);
	if (stat(path, &st) == 0)
		return dir;
	if (strcmp(dir, COCOON_PAM_DIR) != 0)
		return NULL;
	char dist[PATH_MAX];
	snprintf(dist, sizeof(dist), "%s/%s", COCOON_PAM_DIST_DIR, service);
	if (stat(dist, &st) < 0)
		return NULL;
	snprintf(path, size, "%s", dist);
	return COCOON_PAM_DIST_DIR;
}

void pam_stack_cocoon_read(const char *dir, const char *service,
			   struct pam_stack_cocoon *out)
{
	memset(out, 0, sizeof(*out));
	out->stack.type = "session";
	/* A service name is a file name: nothing that climbs out of DIR. */
	bool plain = service[0] && !strchr(service, '/') && strcmp(service, ".") != 0 &&
		     strcmp(service, "..") != 0;
	struct diag_list ignored = { 0 };
	const char *found = plain ? service_dir(dir, service, out->path, sizeof(out->path))
				  : NULL;
	out->service_exists = found != NULL;
	if (found)
		pam_stack_read(found, service, &out->stack, 0, &ignored);
	if (!out->stack.count) {
		/* libpam runs other's session lines for a service without any. */
		out->from_other = true;
		found = service_dir(dir, PAM_STACK_OTHER, out->path, sizeof(out->path));
		if (found)
			pam_stack_read(found, PAM_STACK_OTHER, &out->stack, 0, &ignored);
	}
	diag_free(&ignored);
	for (size_t i = 0; i < out->stack.count; i++) {
		const struct pam_stack_line *l = &out->stack.lines[i];
		if (!l->is_cocoon)
			continue;
		if (l->has_return) {
			out->has_return_line = true;
			continue;
		}
		if (!out->confining_lines++)
			out->confining = l;
	}
}

void pam_stack_cocoon_free(struct pam_stack_cocoon *c)
{
	pam_stack_free(&c->stack);
	memset(c, 0, sizeof(*c));
}

bool pam_stack_line_audit(const struct pam_stack_line *l)
{
	bool audit = false;
	for (int i = 0; i < l->argc; i++)
		if (strcmp(l->argv[i], "mode=audit") == 0)
			audit = true;
		else if (strcmp(l->argv[i], "mode=enforce") == 0)
			audit = false;
	return audit;
}

bool pam_stack_is_service_name(const char *name)
{
	if (name[0] == '.' || strchr(name, '~'))
		return false;
	return !strstr(name, ".dpkg-") && !strstr(name, ".ucf-") &&
	       !strstr(name, ".rpm");
}

/* The policy file line L gives pam_cocoon (its last conf=, as the
 * module takes it), or NULL: the build's own. */
static const char *line_conf(const struct pam_stack_line *l)
{
	const char *conf = NULL;
	for (int i = 0; i < l->argc; i++)
		if (str_starts_with(l->argv[i], "conf="))
			conf = l->argv[i] + strlen("conf=");
	return conf;
}

/* Two spellings of one file: the same text, or the same real path. */
static bool same_file(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return true;
	char *ra AUTOFREE = realpath(a, NULL);
	char *rb AUTOFREE = realpath(b, NULL);
	return ra && rb && strcmp(ra, rb) == 0;
}

static bool is_this_build_module(const char *module)
{
	char path[PATH_MAX];
	if (module[0] == '/')
		snprintf(path, sizeof(path), "%s", module);
	else
		snprintf(path, sizeof(path), "%s/%s", COCOON_PAM_SYSTEM_DIR, module);
	return same_file(path, COCOON_PAM_MODULE);
}

/* pam_cocoon's enforcing line of SERVICE's stack that reads POLICY_FILE. */
static const struct pam_stack_line *service_line(const struct pam_stack *s,
						 const char *policy_file, bool is_default)
{
	for (size_t i = 0; i < s->count; i++) {
		const struct pam_stack_line *l = &s->lines[i];
		if (!l->is_cocoon || l->has_return || pam_stack_line_audit(l))
			continue;
		const char *conf = line_conf(l);
		if (conf ? same_file(conf, policy_file)
			 : is_default && is_this_build_module(l->module))
			return l;
	}
	return NULL;
}

bool pam_stack_service_reads(const char *dir, const char *service, const char *policy_file,
			     const char *root)
{
	struct pam_stack s = { .type = "session" };
	struct diag_list ignored = { 0 };
	pam_stack_read(dir, service, &s, 0, &ignored);
	diag_free(&ignored);
	bool reads = false;
	for (size_t i = 0; i < s.count && !reads; i++) {
		const struct pam_stack_line *l = &s.lines[i];
		if (!l->is_cocoon || l->has_return || pam_stack_line_audit(l))
			continue;
		const char *conf = line_conf(l);
		if (!conf || !policy_file) {
			reads = true;
			continue;
		}
		/* In an image, as the image names it, or as checked from here
		 * (check --root --config ROOT/...). */
		char *in_root AUTOFREE = root ? xasprintf("%s%s", root, conf) : NULL;
		reads = same_file(in_root ? in_root : conf, policy_file) ||
			strcmp(conf, policy_file) == 0;
	}
	pam_stack_free(&s);
	return reads;
}

void pam_stack_policy_services(const char *dir, const char *policy_file,
			       const char *default_file, struct pam_stack_services *out)
{
	memset(out, 0, sizeof(*out));
	bool is_default = same_file(policy_file, default_file);
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char path[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		/* common-* files are included, not services of their own. */
		if (pam_stack_is_service_name(name) && !str_starts_with(name, "common-") &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			struct pam_stack s = { .type = "session" };
			struct diag_list ignored = { 0 };
			pam_stack_read(dir, name, &s, 0, &ignored);
			diag_free(&ignored);
			const struct pam_stack_line *l = service_line(&s, policy_file, is_default);
			if (l)
				*ARRAY_PUSH(out->items, out->count, out->cap) =
					(struct pam_stack_service){ xstrdup(name),
								    xstrdup(l->file), l->line };
			pam_stack_free(&s);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
}

void pam_stack_services_free(struct pam_stack_services *s)
{
	for (size_t i = 0; i < s->count; i++) {
		free(s->items[i].service);
		free(s->items[i].file);
	}
	free(s->items);
	memset(s, 0, sizeof(*s));
}
