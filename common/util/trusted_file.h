/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading files as root only when nobody else could have written them:
 * policy files, seccomp filter files, the state and record directories. */
#ifndef COCOON_TRUSTED_FILE_H
#define COCOON_TRUSTED_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The trust rule for policy files: FILE and every directory on its path
 * owned by root and not writable by group or others. */
int path_trusted(const char *path, struct cc_error *err);

/* Read a whole file that passes path_trusted, checked again once open
 * (regular, root-owned, not writable by group or others, at most MAX
 * bytes). *text is NUL-terminated and the caller's to free. */
int read_trusted_file(const char *path, size_t max, char **text, size_t *len,
		      struct cc_error *err);

/* Read the regular file PATH, at most MAX bytes, never through a symlink
 * or a FIFO; ROOT_OWNED: it must also pass the owner and mode check once
 * open. *text is NUL-terminated and the caller's to free. */
int read_regular_file(const char *path, size_t max, bool root_owned, char **text,
		      size_t *len, struct cc_error *err);

#endif
