// SPDX-License-Identifier: GPL-2.0-or-later
/* The forced command: what a shell was asked to run (-c, -lc), and when
 * that becomes SSH_ORIGINAL_COMMAND. */
#include "forced_command.h"
#include "tap.h"

#define ARGV(...) ((char *const[]){ __VA_ARGS__, NULL })

static void asked(char *const *argv, const char *want, const char *name)
{
	tap_is_str(forced_command_asked(argv), want, name);
}

static void test_asked(void)
{
	asked(NULL, NULL, "no argv");
	asked(ARGV(NULL), NULL, "an empty argv");
	asked(ARGV("-bash"), NULL, "a login shell without options");
	asked(ARGV("sh", "-c", "ls -l"), "ls -l", "-c TEXT");
	asked(ARGV("sh", "-lc", "ls"), "ls", "a cluster holding c");
	asked(ARGV("sh", "-l", "-c", "ls", "arg0"), "ls", "-c after another option");
	asked(ARGV("sh", "-c"), NULL, "-c without its text");
	asked(ARGV("sh", "-i"), NULL, "an interactive shell");
	asked(ARGV("sh", "--", "-c", "ls"), NULL, "-- ends the options");
	asked(ARGV("sh", "-", "-c", "ls"), NULL, "so does a lone -");
	asked(ARGV("sh", "script", "-c", "ls"), NULL, "and the first operand");
	asked(ARGV("sh", "--rcfile", "f"), NULL, "a long option holding c is no -c");
	asked(ARGV("sh", "--norc"), NULL, "a long option alone");
}

static void original(char *const *argv, const char *inherited, char *const *forced,
		     const char *want, const char *name)
{
	tap_is_str(forced_command_original(argv, inherited, forced), want, name);
}

static void test_original(void)
{
	char *const *menu = ARGV("/opt/menu", "--for", "ann");
	original(ARGV("sh", "-c", "ls"), "git-upload-pack 'r'", menu, "git-upload-pack 'r'",
		 "the inherited SSH_ORIGINAL_COMMAND wins");
	original(ARGV("sh", "-c", "ls"), "", menu, "", "even when empty");
	original(ARGV("-bash"), NULL, menu, NULL, "an interactive login has none");
	original(ARGV("sh", "-c", "ls"), NULL, menu, "ls", "what was asked");
	original(ARGV("sh", "-c", "/opt/menu"), NULL, menu, NULL,
		 "the forced command's path is a ForceCommand repeating it");
	original(ARGV("sh", "-c", "/opt/menu --for ann"), NULL, menu, NULL,
		 "so are its words joined by spaces");
	original(ARGV("sh", "-c", "/opt/menu --for"), NULL, menu, "/opt/menu --for",
		 "a prefix of the words is asked");
	original(ARGV("sh", "-c", "/opt/menu --for ann x"), NULL, menu,
		 "/opt/menu --for ann x", "and so are more words");
	original(ARGV("sh", "-c", "/opt/menu  --for ann"), NULL, menu,
		 "/opt/menu  --for ann", "and other spacing");
	original(ARGV("sh", "-c", "/opt/menu\t--for ann"), NULL, menu,
		 "/opt/menu\t--for ann", "a tab is not the space between words");
	original(ARGV("sh", "-c", "/opt/menu-x"), NULL, ARGV("/opt/menu"), "/opt/menu-x",
		 "a longer path");
	original(ARGV("sh", "-c", "ls"), NULL, NULL, "ls", "no forced command");
	original(ARGV("sh", "-c", "ls"), NULL, ARGV(NULL), "ls", "an empty one");
}

int main(void)
{
	tap_ok(FORCED_COMMAND_LINE == sizeof("command="), "a line's overhead: key and newline");
	test_asked();
	test_original();
	return tap_done();
}
