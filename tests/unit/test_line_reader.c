// SPDX-License-Identifier: GPL-2.0-or-later
/* The line reader: lines and their numbers, the last line without a
 * newline, rewinding, and the two errors with their messages and errno. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "line_reader.h"
#include "tap.h"
#include "util.h"

static char dir[] = "/tmp/cocoon-test-lines.XXXXXX";

static void test_lines(void)
{
	char *path = xasprintf("%s/three", dir);
	tap_write_file(path, "one\n\nthree");
	struct line_reader r;
	struct cc_error err;
	tap_ok(line_reader_open(&r, path, &err) == 0, "a file opens");
	struct strbuf seen = { 0 };
	sb_addn(&seen, "", 0);
	while (line_reader_next(&r, &err) > 0)
		sb_addf(&seen, "%d:%zd:%s|", r.lineno, r.len, r.line);
	tap_is_str(seen.data, "1:4:one\n|2:1:\n|3:5:three|",
		   "every line, numbered, its newline kept, the last one without");
	tap_ok(line_reader_next(&r, &err) == 0, "the end stays the end");
	line_reader_rewind(&r);
	tap_ok(line_reader_next(&r, &err) == 1 && r.lineno == 1 && strcmp(r.line, "one\n") == 0,
	       "rewinding starts again at line 1");
	line_reader_close(&r);
	line_reader_close(&r);
	tap_ok(r.file == NULL && r.line == NULL, "closing twice is harmless");
	sb_free(&seen);
	unlink(path);
	free(path);

	path = xasprintf("%s/empty", dir);
	tap_write_file(path, "");
	tap_ok(line_reader_open(&r, path, &err) == 0 && line_reader_next(&r, &err) == 0,
	       "an empty file has no line");
	line_reader_close(&r);
	unlink(path);
	free(path);
}

static void test_errors(void)
{
	char *path = xasprintf("%s/missing", dir);
	struct line_reader r;
	struct cc_error err;
	char *want = xasprintf("opening %s: %s", path, strerror(ENOENT));
	tap_ok(line_reader_open(&r, path, &err) == -1 && err.errnum == ENOENT,
	       "a missing file does not open, and the error keeps ENOENT");
	tap_is_str(err.msg, want, "its message names the file");
	tap_ok(line_reader_open(&r, path, NULL) == -1, "with no error to fill as well");
	free(want);
	free(path);

	/* A directory opens as a stream but cannot be read. */
	tap_ok(line_reader_open(&r, dir, &err) == 0, "a directory opens");
	want = xasprintf("reading %s: %s", dir, strerror(EISDIR));
	tap_ok(line_reader_next(&r, &err) == -1 && err.errnum == EISDIR,
	       "and reading it fails with EISDIR");
	tap_is_str(err.msg, want, "its message names the file");
	line_reader_close(&r);
	free(want);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		tap_ok(false, "mkdtemp");
		return tap_done();
	}
	test_lines();
	test_errors();
	rmdir(dir);
	return tap_done();
}
