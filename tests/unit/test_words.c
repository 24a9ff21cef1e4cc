// SPDX-License-Identifier: GPL-2.0-or-later
/* A directive's value as words: blanks, double quotes, the two escapes,
 * and each syntax error with its exact message. */
#include <stdlib.h>

#include "tap.h"
#include "util.h"
#include "words.h"

/* VALUE's words as "<a> <b>", or "ERR message". */
static char *split(const char *value)
{
	char **words = NULL;
	size_t count = 0;
	struct cc_error err;
	if (words_split(value, &words, &count, &err) < 0)
		return xasprintf("ERR %s", err.msg);
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	for (size_t i = 0; i < count; i++)
		sb_addf(&out, "%s<%s>", i ? " " : "", words[i]);
	if (words[count] != NULL)
		sb_addf(&out, " (not NULL-terminated)");
	words_free(words, count);
	return sb_steal(&out);
}

static void expect(const char *value, const char *want, const char *name)
{
	char *got = split(value);
	tap_is_str(got, want, name);
	free(got);
}

static void test_blanks(void)
{
	expect("", "", "an empty value has no words");
	expect(" \t ", "", "nor has one of blanks only");
	expect("/usr", "</usr>", "one word");
	expect("  a\tb   c  ", "<a> <b> <c>", "spaces and tabs separate, at either end too");
	expect("a\nb", "<a\nb>", "a newline is no blank");
}

static void test_quotes(void)
{
	expect("\"a b\" c", "<a b> <c>", "double quotes keep blanks");
	expect("x\"a b\"y", "<xa by>", "a quoted part joins the word around it");
	expect("\"\"", "<>", "an empty quoted word is a word");
	expect("\"\" \"\"", "<> <>", "two of them are two words");
	expect("\"a\\\"b\\\\c\"", "<a\"b\\c>", "\\\" and \\\\ escape inside quotes");
	expect("\"a ; b # c\"", "<a ; b # c>", "; and # inside quotes are characters");
	expect("a#b a;b", "<a#b> <a;b>", "and inside a word");
	expect("\"it's\"", "<it's>", "a single quote inside double quotes is a character");
}

static void test_errors(void)
{
	expect("/usr ; system", "ERR ';' starts a comment, and comments must be on a line "
	       "of their own (quote it to use it in a value)", "a ; word is an inline comment");
	expect("# all", "ERR '#' starts a comment, and comments must be on a line of "
	       "their own (quote it to use it in a value)", "so is a # word");
	expect("a\\ b", "ERR a backslash is only an escape inside double quotes",
	       "a backslash outside quotes");
	expect("\"a\\nb\"", "ERR unknown escape '\\n' (only \\\" and \\\\ exist)",
	       "an unknown escape");
	expect("\"a\\", "ERR unknown escape '\\ ' (only \\\" and \\\\ exist)",
	       "a backslash at the end of the value");
	expect("it's", "ERR single quotes do not quote; use double quotes",
	       "a single quote outside double quotes");
	expect("a b \"c d", "ERR unterminated double quote",
	       "an unterminated quote after whole words (their memory is freed)");
}

int main(void)
{
	test_blanks();
	test_quotes();
	test_errors();
	words_free(NULL, 0);
	tap_ok(true, "words_free takes NULL");
	return tap_done();
}
