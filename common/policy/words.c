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

int words_split(const char *value, char ***words, size_t *count,
		struct cc_error *err)
{
	char **list = NULL;
	size_t n = 0, cap = 0;
	const char *p = value;
	struct strbuf word = { 0 };

	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		/* A comment must have a line of its own; catching it here
		 * stops "bind = /usr ; system" from binding a path ";". */
		if (*p == '#' || *p == ';') {
			cc_fail(err, "'%c' starts a comment, and comments must be on "
				"a line of their own (quote it to use it in a value)", *p);
			goto fail;
		}
		bool quoted = false;
		sb_addn(&word, "", 0);
		while (*p && (quoted || !is_blank(*p))) {
			char c = *p++;
			if (c == '"') {
				quoted = !quoted;
				continue;
			}
			if (c == '\\') {
				if (!quoted) {
					cc_fail(err, "a backslash is only an escape inside "
						"double quotes");
					goto fail;
				}
				if (*p != '"' && *p != '\\') {
					cc_fail(err, "unknown escape '\\%c' (only \\\" and "
						"\\\\ exist)", *p ? *p : ' ');
					goto fail;
				}
				c = *p++;
			} else if (c == '\'' && !quoted) {
				cc_fail(err, "single quotes do not quote; use double quotes");
				goto fail;
			}
			sb_addn(&word, &c, 1);
		}
		if (quoted) {
			cc_fail(err, "unterminated double quote");
			goto fail;
		}
		*ARRAY_PUSH(list, n, cap) = sb_steal(&word);
	}
	*ARRAY_PUSH(list, n, cap) = NULL;
	*words = list;
	*count = n - 1;
	return 0;
fail:
	sb_free(&word);
	words_free(list, n);
	return -1;
}

void words_free(char **words, size_t count)
{
	if (!words)
		return;
	for (size_t i = 0; i < count; i++)
		free(words[i]);
	free(words);
}
