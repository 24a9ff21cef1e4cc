// SPDX-License-Identifier: GPL-2.0-or-later
/* A stub bound over a program that cannot work in the session. */
/* `unavailable` binds it over such a program: it says so, naming the
 * session policy, and exits 126. */
/* Set-user-ID and set-group-ID programs (su, sudo, crontab, passwd...)
 * gain nothing under no_new_privs and then fail with messages of their
 * own that blame the password, a missing spool or "a container". This
 * runs as the user, inside the sandbox, on the user's argv and
 * environment: it reads nothing but argv[0], of which it prints the last
 * component alone, and only in letters, digits and ". _ + -", so that
 * no escape sequence reaches the terminal. */
#include <string.h>
#include <unistd.h>

#ifndef COCOON_CTL
#define COCOON_CTL "/usr/local/sbin/cocoonctl"
#endif

#define NAME_MAX_SHOWN 64

static void put(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* The program's name as the caller typed it, if it is a plain word. */
static void program_name(const char *argv0, char *out, size_t size)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;
	base = base ? base + 1 : argv0;
	size_t n = base ? strlen(base) : 0;
	if (n == 0 || n >= size || n > NAME_MAX_SHOWN ||
	    strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789._+-") != n) {
		strcpy(out, "this program");
		return;
	}
	memcpy(out, base, n + 1);
}

int main(int argc, char **argv)
{
	char name[NAME_MAX_SHOWN + 1];
	program_name(argc > 0 ? argv[0] : NULL, name, sizeof(name));
	put(name);
	put(": not available in this session: this host's session policy "
	    "(cocoon) runs the session's programs without privileges.\n");
	put(COCOON_CTL " why shows what confines this session.\n");
	return 126;
}
