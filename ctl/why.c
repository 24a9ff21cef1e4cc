// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl why: what confines this session, asked from inside it. */
/* cocoonctl why: run by the session's user inside a session, prints the
 * description the engine wrote as root before the user's first program
 * (SESSION_INFO_PATH, on a read-only tmpfs of root's): the session's
 * id, the rule that matched and why, its profile, the namespaces,
 * filter, no_new_privs, Landlock, limits and every operation of the
 * plan. It reads no policy, so it shows no other user's rules and needs
 * no privilege. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "plan_print.h"
#include "util.h"

/* Enough for a plan of a few thousand operations. */
#define SESSION_INFO_MAX (1u << 20)

int cmd_why(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "cocoonctl why: takes no arguments\n");
		usage(stderr);
		return 2;
	}
	int fd AUTOCLOSE = open(SESSION_INFO_PATH, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
				O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		fprintf(stderr, "cocoonctl why: not in a cocoon session (no %s)\n",
			SESSION_INFO_PATH);
		return 1;
	}
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "cocoonctl why: %s: %s\n", SESSION_INFO_PATH, strerror(errno));
		return 1;
	}
	/* Only root can have written it: anything else is not the engine's. */
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 0222) ||
	    st.st_size > SESSION_INFO_MAX) {
		fprintf(stderr, "cocoonctl why: %s is not the read-only file of root's "
			"that a cocoon session has\n", SESSION_INFO_PATH);
		return 1;
	}
	char buf[8192];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
			break;
	if (n < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "cocoonctl why: %s: %s\n", SESSION_INFO_PATH, strerror(errno));
		return 1;
	}
	return 0;
}
