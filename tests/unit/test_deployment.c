// SPDX-License-Identifier: GPL-2.0-or-later
/* The shells file read as glibc's getusershell reads it (su -s and chsh
 * go by that): pam_cocoon's forced-command guard must agree with su. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "deployment.h"
#include "tap.h"

static char path[] = "/tmp/cocoon-shells.XXXXXX";

static void shells(const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		perror(path);
}

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	shells("# /etc/shells\n/bin/sh\n/bin/bash\n");
	tap_ok(shells_lists(path, "/bin/bash"), "a listed shell");
	tap_ok(!shells_lists(path, "/bin/zsh"), "an unlisted one");
	tap_ok(!shells_lists(path, "/bin/ba"), "a prefix of a listed one is not listed");
	tap_ok(!shells_lists(path, "/etc/shells"), "nor is a commented-out path");
	shells("  /bin/bash  # the usual one\n\t/usr/bin/zsh\t\n/bin/dash#x\n/bin/ksh");
	tap_ok(shells_lists(path, "/bin/bash"), "leading blanks and a trailing comment");
	tap_ok(shells_lists(path, "/usr/bin/zsh"), "tabs around it");
	tap_ok(shells_lists(path, "/bin/dash"), "'#' ends the word");
	tap_ok(shells_lists(path, "/bin/ksh"), "a last line without a newline");
	shells("bash /bin/fish\n# /bin/tcsh\n");
	tap_ok(shells_lists(path, "/bin/fish"), "the word starts at the first '/'");
	tap_ok(!shells_lists(path, "/bin/tcsh"), "a '#' before it hides it");
	shells("# no shell here\n\n");
	tap_ok(shells_lists(path, "/bin/sh") && !shells_lists(path, "/bin/bash"),
	       "a file listing none: /bin/sh and /bin/csh, as later glibc reads it");
	unlink(path);
	tap_ok(shells_lists(path, "/bin/sh") && shells_lists(path, "/bin/csh") &&
	       !shells_lists(path, "/bin/bash"),
	       "no file: getusershell's own list, /bin/sh and /bin/csh");
	return tap_done();
}
