// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl's subcommands, one file each: the entry points main.c
 * dispatches to, with the command's own name in argv[0]. */
#ifndef COCOON_CTL_COMMANDS_H
#define COCOON_CTL_COMMANDS_H

#include <stdio.h>

/* Every form of the command line, to OUT (main.c). */
void usage(FILE *out);

int cmd_check(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_edit(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_enter(int argc, char **argv);
int cmd_why(int argc, char **argv);

#endif
