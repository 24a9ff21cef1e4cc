// SPDX-License-Identifier: GPL-2.0-or-later
/* The forced command: what a shell was asked becomes SSH_ORIGINAL_COMMAND. */
#include "forced_command.h"

#include <stdbool.h>
#include <string.h>

const char *forced_command_asked(char *const *argv)
{
	if (!argv || !argv[0])
		return NULL;
	for (char *const *a = argv + 1; *a; a++) {
		const char *w = *a;
		/* "--" or the first operand ends the options. */
		if (w[0] != '-' || !w[1] || strcmp(w, "--") == 0)
			return NULL;
		if (w[1] != '-' && strchr(w + 1, 'c'))
			return a[1];
	}
	return NULL;
}

/* Does TEXT spell FORCED's words joined by single spaces? */
static bool is_forced_text(const char *text, char *const *forced)
{
	for (char *const *w = forced; *w; w++) {
		size_t n = strlen(*w);
		if (strncmp(text, *w, n) != 0)
			return false;
		text += n;
		if (!w[1])
			break;
		if (*text++ != ' ')
			return false;
	}
	return *text == '\0';
}

const char *forced_command_original(char *const *argv, const char *inherited,
				    char *const *forced)
{
	if (inherited)
		return inherited;
	const char *asked = forced_command_asked(argv);
	if (!asked || (forced && forced[0] && (strcmp(asked, forced[0]) == 0 ||
					       is_forced_text(asked, forced))))
		return NULL;
	return asked;
}
