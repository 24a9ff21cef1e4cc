// SPDX-License-Identifier: GPL-2.0-or-later
/* A directive's value split into words, with quotes and escapes. */
#include "words.h"

#include <stdbool.h>
#include <stdlib.h>

#include "util.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Read the word that starts at *P into WORD and leave *P just after it. */
static int read_word(const char **pp, struct strbuf *word, struct cc_error *err)
{
	const char *p = *pp;
	/* A comment must have a line of its own; catching it here stops
	 * "bind = /usr ; system" from binding a path ";". */
	if (*p == '#' || *p == ';')
		return cc_fail(err, "'%c' starts a comment, and comments must be on "
			       "a line of their own (quote it to use it in a value)", *p);
	bool quoted = false;
	sb_addn(word, "", 0);
	while (*p && (quoted || !is_blank(*p))) {
		char c = *p++;
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (c == '\\') {
			if (!quoted)
				return cc_fail(err, "a backslash is only an escape inside "
					       "double quotes");
			if (*p != '"' && *p != '\\')
				return cc_fail(err, "unknown escape '\\%c' (only \\\" and "
					       "\\\\ exist)", *p ? *p : ' ');
			c = *p++;
		} else if (c == '\'' && !quoted) {
			return cc_fail(err, "single quotes do not quote; use double quotes");
		}
		sb_addn(word, &c, 1);
	}
	if (quoted)
		return cc_fail(err, "unterminated double quote");
	*pp = p;
	return 0;
}

int words_split(const char *value, char ***words, size_t *count,
		struct cc_error *err)
{
	char **list = NULL;
	size_t n = 0, cap = 0;
	const char *p = value;

	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		struct strbuf word = { 0 };
		if (read_word(&p, &word, err) < 0) {
			sb_free(&word);
			words_free(list, n);
			return -1;
		}
		*ARRAY_PUSH(list, n, cap) = sb_steal(&word);
	}
	*ARRAY_PUSH(list, n, cap) = NULL;
	*words = list;
	*count = n - 1;
	return 0;
}

void words_free(char **words, size_t count)
{
	if (!words)
		return;
	for (size_t i = 0; i < count; i++)
		free(words[i]);
	free(words);
}
