// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading policy text into sections, with inih's silences made errors. */
/* Reading policy text. inih splits sections from "key = value" lines; our
 * reader feeds it one line at a time, counts lines, and turns each of
 * inih's silent behaviours into a file:line error before inih sees the
 * line: long lines (inih would cut them), inline comments (inih would
 * strip them), indented lines (inih would join them onto the previous
 * key), "key: value" (inih accepts it), and repeated sections (inih would
 * merge adjacent ones). */
#include "policy.h"

#include <ctype.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "words.h"

/* Longest line we accept. Values are taken from our own copy of the
 * line, so inih's 200-byte buffer never cuts one. */
#define MAX_LINE 4096
#define MAX_KEY 64 /* longer than any directive; inih's buffer is 200 */

struct parser {
	struct policy *policy;
	const char *file;
	bool embedded;
	const char *text;
	size_t len, pos;
	int line;
	char raw[MAX_LINE + 1]; /* the current line, leading blanks removed */
	size_t key_len;         /* key lines: length of the key in raw */
	struct section *current;
	bool bad_header; /* its directives are skipped: one error is enough */
	size_t errors;
};

static void parse_error(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void parse_error(struct parser *p, const char *fmt, ...)
{
	char buf[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_add(&p->policy->diags, DIAG_ERROR, p->file, p->line, "%s", buf);
	p->errors++;
}

const char *policy_section_title(const struct section *s, char *buf, size_t size)
{
	static const char *const kinds[] = { "profile", "user", "group", "default" };
	if (s->kind == SECTION_DEFAULT)
		snprintf(buf, size, "[default]");
	else
		snprintf(buf, size, "[%s %s]", kinds[s->kind], s->name);
	return buf;
}

/* User and group names may hold '$' (machine accounts) and '@' (directory
 * services); profile names only what `profile = NAME` accepts. */
static bool valid_section_name(const char *name, bool profile)
{
	if (!*name || *name == '-')
		return false;
	for (const char *c = name; *c; c++)
		if (!(isalnum((unsigned char)*c) || strchr(profile ? "._-" : "._-$@", *c)))
			return false;
	return true;
}

/* "[kind name]": parse, check and start the section. */
static void start_section(struct parser *p, const char *header)
{
	size_t n = strlen(header);
	p->current = NULL;
	p->bad_header = true;
	if (n < 2 || header[n - 1] != ']') {
		parse_error(p, "section header must end with ']'");
		return;
	}
	char inner[MAX_LINE];
	snprintf(inner, sizeof(inner), "%.*s", (int)(n - 2), header + 1);
	char kind[32] = "", name[MAX_LINE] = "", extra[8] = "";
	int got = sscanf(inner, " %31s %4095s %7s", kind, name, extra);

	enum section_kind k;
	if (strcmp(kind, "profile") == 0)
		k = SECTION_PROFILE;
	else if (strcmp(kind, "user") == 0)
		k = SECTION_USER;
	else if (strcmp(kind, "group") == 0)
		k = SECTION_GROUP;
	else if (strcmp(kind, "default") == 0)
		k = SECTION_DEFAULT;
	else {
		parse_error(p, "unknown section '[%s]' (profile NAME, user NAME, "
			    "group NAME or default)", inner);
		return;
	}
	if (k == SECTION_DEFAULT ? got != 1 : got != 2) {
		parse_error(p, k == SECTION_DEFAULT ? "[default] takes no name"
			    : "section '[%s]' needs exactly one name", inner);
		return;
	}
	if (k != SECTION_DEFAULT && !valid_section_name(name, k == SECTION_PROFILE)) {
		parse_error(p, "'%s' is not a valid %s name", name, kind);
		return;
	}
	if (k == SECTION_PROFILE && strcmp(name, "default") == 0 && !p->embedded) {
		parse_error(p, "profile name 'default' is reserved for the embedded "
			    "default profile");
		return;
	}
	struct policy *pol = p->policy;
	for (size_t i = 0; i < pol->nsections; i++) {
		struct section *s = &pol->sections[i];
		if (s->kind == k && (k == SECTION_DEFAULT || strcmp(s->name, name) == 0)) {
			char title[300];
			parse_error(p, "duplicate section %s (first at %s:%d)",
				    policy_section_title(s, title, sizeof(title)), s->file, s->line);
			return;
		}
	}
	struct section *s = ARRAY_PUSH(pol->sections, pol->nsections, pol->sections_cap);
	memset(s, 0, sizeof(*s));
	s->kind = k;
	s->name = k == SECTION_DEFAULT ? NULL : xstrdup(name);
	s->file = p->file;
	s->line = p->line;
	s->embedded = p->embedded;
	p->current = s;
	p->bad_header = false;
}

static bool is_key_char(char c)
{
	return islower((unsigned char)c) || isdigit((unsigned char)c) || c == '-';
}

/* inih's reader: hand over one line, or a blank line in place of one we
 * rejected or handle ourselves. */
static char *read_line(char *buf, int size, void *stream)
{
	struct parser *p = stream;
	if (p->pos >= p->len)
		return NULL;
	const char *start = p->text + p->pos;
	const char *nl = memchr(start, '\n', p->len - p->pos);
	size_t n = nl ? (size_t)(nl - start) : p->len - p->pos;
	p->pos += n + (nl ? 1 : 0);
	p->line++;
	p->key_len = 0;
	snprintf(buf, (size_t)size, "\n");

	if (n && start[n - 1] == '\r')
		n--;
	if (p->line == 1 && n >= 3 && memcmp(start, "\xef\xbb\xbf", 3) == 0) {
		start += 3;
		n -= 3;
	}
	if (n > MAX_LINE) {
		parse_error(p, "line is %zu bytes long; the limit is %d", n, MAX_LINE);
		return buf;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)start[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			parse_error(p, c ? "control character 0x%02x in line"
				    : "NUL byte in line", c);
			return buf;
		}
	}
	/* Leading blanks are ignored, so an indented line can never become
	 * a continuation of the previous value. */
	while (n && (*start == ' ' || *start == '\t'))
		start++, n--;
	while (n && (start[n - 1] == ' ' || start[n - 1] == '\t'))
		n--;
	memcpy(p->raw, start, n);
	p->raw[n] = '\0';

	if (n == 0 || p->raw[0] == '#' || p->raw[0] == ';')
		return buf;
	if (p->raw[0] == '[') {
		start_section(p, p->raw);
		return buf;
	}
	size_t k = 0;
	while (is_key_char(p->raw[k]))
		k++;
	size_t eq = k;
	while (p->raw[eq] == ' ' || p->raw[eq] == '\t')
		eq++;
	if (k == 0 || p->raw[eq] != '=' || !islower((unsigned char)p->raw[0])) {
		parse_error(p, "expected 'key = value', a [section] or a comment");
		return buf;
	}
	if (k > MAX_KEY) {
		parse_error(p, "key longer than %d characters", MAX_KEY);
		return buf;
	}
	/* inih only needs the key; the value comes from p->raw. */
	p->key_len = k;
	snprintf(buf, (size_t)size, "%.*s=\n", (int)k, p->raw);
	return buf;
}

static void add_directive(struct parser *p, const char *key, const char *value)
{
	const struct directive_spec *spec = directive_lookup(key);
	struct section *s = p->current;
	char title[300];
	if (!spec) {
		parse_error(p, "unknown directive '%s'", key);
		return;
	}
	bool is_rule = s->kind != SECTION_PROFILE;
	if (!(spec->where & (is_rule ? IN_RULE : IN_PROFILE))) {
		parse_error(p, "'%s' is not allowed in %s (only in rules)", key,
			    policy_section_title(s, title, sizeof(title)));
		return;
	}
	if (spec->id == D_PROFILE) {
		for (size_t i = 0; i < s->ndirs; i++) {
			enum directive_id id = s->dirs[i].spec->id;
			if (id != D_PROFILE && id != D_SERVICE) {
				parse_error(p, "'profile' must come before the other "
					    "directives of %s", policy_section_title(s, title, sizeof(title)));
				return;
			}
			if (id == D_PROFILE && is_rule) {
				parse_error(p, "a rule names one profile (another profile "
					    "can include more)");
				return;
			}
		}
	}
	if (spec->id == D_SERVICE)
		for (size_t i = 0; i < s->ndirs; i++)
			if (s->dirs[i].spec->id == D_SERVICE) {
				parse_error(p, "'service' given twice in %s (list every "
					    "service on one line)",
					    policy_section_title(s, title, sizeof(title)));
				return;
			}

	char **words;
	size_t count;
	struct cc_error err;
	if (words_split(value, &words, &count, &err) < 0) {
		parse_error(p, "%s", err.msg);
		return;
	}
	struct directive_value parsed;
	if (directive_parse_words(spec, words, count, &parsed, &err) < 0) {
		parse_error(p, "%s", err.msg);
		words_free(words, count);
		return;
	}
	struct directive *d = ARRAY_PUSH(s->dirs, s->ndirs, s->dirs_cap);
	d->spec = spec;
	d->words = words;
	d->nwords = count;
	d->value = parsed;
	d->file = p->file;
	d->line = p->line;
}

static int on_key(void *user, const char *section, const char *name,
		  const char *value)
{
	struct parser *p = user;
	(void)section;
	(void)value;
	if (p->key_len == 0 || strlen(name) != p->key_len ||
	    strncmp(name, p->raw, p->key_len) != 0) {
		/* Not a line our reader vouched for: never trust it. */
		parse_error(p, "unexpected input");
		return 1;
	}
	if (!p->current) {
		if (!p->bad_header)
			parse_error(p, "'%s' is outside any section", name);
		return 1;
	}
	const char *v = p->raw + p->key_len;
	while (*v == ' ' || *v == '\t')
		v++;
	v++; /* '=' */
	add_directive(p, name, v);
	return 1;
}

size_t policy_parse_text(struct policy *policy, const char *name,
			 const char *text, size_t len)
{
	struct parser *p = xcalloc(1, sizeof(*p));
	p->policy = policy;
	p->file = name;
	p->embedded = strcmp(name, COCOON_EMBEDDED_NAME) == 0;
	p->text = text;
	p->len = len;
	int rc = ini_parse_stream(read_line, p, on_key, p);
	if (rc != 0 && p->errors == 0) {
		p->line = rc > 0 ? rc : p->line;
		parse_error(p, rc > 0 ? "syntax error" : "cannot parse");
	}
	size_t errors = p->errors;
	free(p);
	return errors;
}

const struct section *policy_find_profile(const struct policy *policy,
					  const char *name)
{
	for (size_t i = 0; i < policy->nsections; i++) {
		const struct section *s = &policy->sections[i];
		if (s->kind == SECTION_PROFILE && strcmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

void policy_free(struct policy *policy)
{
	for (size_t i = 0; i < policy->nsections; i++) {
		struct section *s = &policy->sections[i];
		for (size_t j = 0; j < s->ndirs; j++)
			words_free(s->dirs[j].words, s->dirs[j].nwords);
		free(s->dirs);
		free(s->name);
	}
	free(policy->sections);
	for (size_t i = 0; i < policy->nfiles; i++)
		free(policy->files[i]);
	free(policy->files);
	diag_free(&policy->diags);
	memset(policy, 0, sizeof(*policy));
}

const struct directive *policy_section_find(const struct section *s, enum directive_id id)
{
	for (size_t i = 0; i < s->ndirs; i++)
		if (s->dirs[i].spec->id == id)
			return &s->dirs[i];
	return NULL;
}

const struct directive *policy_section_find_last(const struct section *s, enum directive_id id)
{
	for (size_t i = s->ndirs; i-- > 0;)
		if (s->dirs[i].spec->id == id)
			return &s->dirs[i];
	return NULL;
}

bool policy_section_allows_service(const struct section *s, const char *service)
{
	const struct directive *d = policy_section_find(s, D_SERVICE);
	if (!d)
		return true;
	for (size_t i = 0; i < d->nwords; i++)
		if (strcmp(d->words[i], service) == 0)
			return true;
	return false;
}
