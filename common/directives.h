/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of directives: names (after bubblewrap's options), how many
 * words each takes, and where each may appear. */
#ifndef COCOON_DIRECTIVES_H
#define COCOON_DIRECTIVES_H

#include <stdbool.h>
#include <stddef.h>

enum directive_id {
	D_PROFILE,
	D_SERVICE,
	D_BIND,
	D_RO_BIND,
	D_DEV_BIND,
	D_BIND_TRY,
	D_RO_BIND_TRY,
	D_DEV_BIND_TRY,
	D_REMOUNT_RO,
	D_TMPFS,
	D_DIR,
	D_SYMLINK,
	D_FILE,
	D_CHMOD,
	D_PROC,
	D_DEV,
	D_MQUEUE,
	D_TMP_OVERLAY,
	D_CHDIR,
	D_HOSTNAME,
	D_SETENV,
	D_UNSETENV,
	D_CLEARENV,
	D_UNSHARE,
	D_NEW_SESSION,
	D_SECCOMP,
	D_NO_NEW_PRIVS,
	D_SHELL,
	D_SANDBOX,
	D_LANDLOCK,
	D_COMMAND,
};

/* Bits of where a directive may appear. */
#define IN_PROFILE 1u
#define IN_RULE 2u

struct directive_spec {
	const char *name;
	enum directive_id id;
	unsigned min_words, max_words; /* max 0: unlimited */
	unsigned where;
	const char *usage; /* for error messages: "SRC [DEST]" */
};

const struct directive_spec *directive_lookup(const char *name);

#endif

/* Value parsers shared by the parser (to report errors at file:line) and
 * the resolver (to fill the plan). Each returns -1 with err set. */
#include "error.h"
int parse_bool(const char *word, bool *out, struct cc_error *err);
int parse_mode(const char *word, unsigned *out, struct cc_error *err);
int parse_size(const char *word, unsigned long long *out, struct cc_error *err);
int parse_namespaces(char *const *words, size_t count, unsigned *out,
		     struct cc_error *err);
/* Only %u %U %g %G %h %% may follow a '%'. */
int check_tokens(const char *word, struct cc_error *err);
/* An absolute path (or one starting with %h) without "." or ".."
 * components. */
int check_path_word(const char *word, const char *what, struct cc_error *err);
/* Words of a directive checked for shape: counts, paths, modes, sizes. */
int directive_check_words(const struct directive_spec *spec, char *const *words,
			  size_t count, struct cc_error *err);
