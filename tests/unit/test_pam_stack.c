// SPDX-License-Identifier: GPL-2.0-or-later
/* A service's session stack as libpam reads it, for explain: includes,
 * arguments in [brackets], other's lines for a service without any. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pam_stack.h"
#include "tap.h"

static char dir[] = "/tmp/cocoon-pam-stack.XXXXXX";

static void file(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	tap_write_file(path, text);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	struct pam_stack_cocoon c;

	file("common", "session optional pam_permit.so\n");
	file("svc", "auth required pam_permit.so\n"
		    "@include common\n"
		    "session required pam_cocoon.so return\n"
		    "session required /lib/security/pam_cocoon.so \\\n"
		    "  exempt=alice,@wheel [conf=/etc/a b.conf] [x\\]y] mode=audit\n");
	pam_stack_cocoon_read(dir, "svc", &c);
	tap_ok(c.service_exists && !c.from_other, "the service's own file");
	tap_ok(c.has_return_line, "the return line is seen");
	tap_ok(c.confining != NULL && c.confining_lines == 1, "one confining line");
	if (c.confining) {
		tap_ok(c.confining->line == 4, "at the line it starts on (%d)", c.confining->line);
		tap_is_str(c.confining->control, "required", "its control");
		tap_ok(c.confining->argc == 4, "four arguments (%d)", c.confining->argc);
		if (c.confining->argc == 4) {
			tap_is_str(c.confining->argv[0], "exempt=alice,@wheel", "a plain argument");
			tap_is_str(c.confining->argv[1], "conf=/etc/a b.conf",
				   "one in brackets keeps its space and loses the brackets");
			tap_is_str(c.confining->argv[2], "x]y", "\\] in brackets is ]");
			tap_is_str(c.confining->argv[3], "mode=audit", "and the next one");
		}
	}
	pam_stack_cocoon_free(&c);

	file("other", "session required pam_cocoon.so\n");
	file("noses", "auth required pam_permit.so\n");
	pam_stack_cocoon_read(dir, "noses", &c);
	tap_ok(c.service_exists && c.from_other && c.confining,
	       "a service without session lines: other's");
	pam_stack_cocoon_free(&c);
	pam_stack_cocoon_read(dir, "missing", &c);
	tap_ok(!c.service_exists && c.from_other && c.confining, "a missing service: other's");
	tap_like(c.path, "/other", "and explain names other's file");
	pam_stack_cocoon_free(&c);
	pam_stack_cocoon_read(dir, "../svc", &c);
	tap_ok(!c.service_exists, "a service name that leaves the directory is not read");
	pam_stack_cocoon_free(&c);

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		perror(cmd);
	return tap_done();
}
