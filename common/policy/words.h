/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A directive's value as words: whitespace separates words, double quotes
 * keep spaces, and inside them \" and \\ are the only escapes. */
#ifndef COCOON_WORDS_H
#define COCOON_WORDS_H

#include <stddef.h>

#include "error.h"

/* Split VALUE into a NULL-terminated array of words. Returns -1 with err
 * set (no file:line; the caller adds it) on a syntax error. */
int words_split(const char *value, char ***words, size_t *count,
		struct cc_error *err);
void words_free(char **words, size_t count);

#endif
