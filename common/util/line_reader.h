/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A text file read a line at a time, with its line numbers: the one
 * fopen and getline loop of the files cocoon reads that way. */
#ifndef COCOON_LINE_READER_H
#define COCOON_LINE_READER_H

#include <stdio.h>
#include <sys/types.h>

#include "error.h"

struct line_reader {
	const char *path;
	FILE *file;
	char *line;    /* the current line, its newline kept; the caller may change it */
	size_t cap;
	ssize_t len;   /* strlen(line) as read */
	int lineno;    /* from 1 */
};

/* Open PATH for reading; -1 with "opening PATH: ..." (and its errnum)
 * in ERR, and nothing to close, when it cannot be. */
int line_reader_open(struct line_reader *r, const char *path, struct cc_error *err);
/* The next line into r->line: 1, or 0 at the end, or -1 with "reading
 * PATH: ..." in ERR when the file could not be read to its end. */
int line_reader_next(struct line_reader *r, struct cc_error *err);
/* Back to the first line. */
void line_reader_rewind(struct line_reader *r);
void line_reader_close(struct line_reader *r);

#endif
