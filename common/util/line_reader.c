// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a text file line by line, with line numbers and its errors. */
#include "line_reader.h"

#include <stdlib.h>
#include <string.h>

int line_reader_open(struct line_reader *r, const char *path, struct cc_error *err)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->file = fopen(path, "re");
	if (!r->file)
		return cc_fail_errno(err, "opening %s", path);
	return 0;
}

int line_reader_next(struct line_reader *r, struct cc_error *err)
{
	r->len = getline(&r->line, &r->cap, r->file);
	if (r->len >= 0) {
		r->lineno++;
		return 1;
	}
	if (ferror(r->file))
		return cc_fail_errno(err, "reading %s", r->path);
	return 0;
}

void line_reader_rewind(struct line_reader *r)
{
	rewind(r->file);
	r->lineno = 0;
}

void line_reader_close(struct line_reader *r)
{
	free(r->line);
	r->line = NULL;
	r->cap = 0;
	if (r->file)
		fclose(r->file);
	r->file = NULL;
}
