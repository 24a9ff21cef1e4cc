// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl's first word, dispatched to its subcommand. */
/* cocoonctl: check, explain and run the cocoon policy. A thin front end
 * over common/: policy -> rule -> plan -> sandbox. This file reads the
 * first word; each subcommand lives in a file of its own. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"

void usage(FILE *out)
{
	fprintf(out,
		"usage: cocoonctl check [--config FILE] [--pam [--root DIR] [--sshd PROGRAM]]\n"
		"       cocoonctl check [--as PATH] [--pam [--root DIR] [--sshd PROGRAM]] CANDIDATE\n"
		"       cocoonctl explain [--config FILE] [--service NAME] [--json | --bwrap] USER\n"
		"       cocoonctl explain [--config FILE] [--service NAME] --all [--system]\n"
		"       cocoonctl edit [--config FILE]\n"
		"       cocoonctl run [--config FILE] [--service NAME] --user USER -- COMMAND [ARG...]\n"
		"       cocoonctl list [--json] [--verbose]\n"
		"       cocoonctl stop [--message TEXT] ID\n"
		"       cocoonctl enter ID [--root] [-- COMMAND [ARG...]]\n"
		"       cocoonctl why\n"
		"       cocoonctl --version\n");
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "check", cmd_check },
	{ "explain", cmd_explain },
	{ "edit", cmd_edit },
	{ "run", cmd_run },
	{ "list", cmd_list },
	{ "stop", cmd_stop },
	{ "enter", cmd_enter },
	{ "why", cmd_why },
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--version") == 0) {
		printf("cocoonctl %s\n", COCOON_VERSION);
		return 0;
	}
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(cmd, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "cocoonctl: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
