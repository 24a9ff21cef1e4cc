// SPDX-License-Identifier: GPL-2.0-or-later
/* The library a hostile user plants and names in LD_PRELOAD: its
 * constructor appends one line about the process that loaded it to
 * $HOME/t/reports, so a test sees where the user's code ran (pid
 * namespace, seccomp, no_new_privs, the program) and which of the loader's
 * and libc's variables reached it. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const watched[] = {
	"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "GCONV_PATH", "GLIBC_TUNABLES",
	"LOCPATH", "NLSPATH", "MALLOC_CHECK_", "HOSTALIASES", "RES_OPTIONS",
	"BASH_ENV", "ENV", "PERL5LIB", "PYTHONPATH", NULL,
};

static void status_field(const char *name, char *out, size_t size)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	size_t n = strlen(name);
	snprintf(out, size, "?");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, name, n) == 0 && line[n] == ':') {
			snprintf(out, size, "%s", line + n + 1 + strspn(line + n + 1, " \t"));
			out[strcspn(out, "\n")] = '\0';
		}
	if (f)
		fclose(f);
}

__attribute__((constructor)) static void report(void)
{
	const char *home = getenv("HOME");
	char path[512], pidns[64] = "?", exe[256] = "?", seccomp[16], nnp[16];
	if (!home)
		return;
	snprintf(path, sizeof(path), "%s/t/reports", home);
	ssize_t n = readlink("/proc/self/ns/pid", pidns, sizeof(pidns) - 1);
	pidns[n > 0 ? n : 1] = '\0';
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 1] = '\0';
	status_field("Seccomp", seccomp, sizeof(seccomp));
	status_field("NoNewPrivs", nnp, sizeof(nnp));
	char line[1024];
	int len = snprintf(line, sizeof(line), "pidns=%s seccomp=%s nnp=%s exe=%s vars=",
			   pidns, seccomp, nnp, exe);
	for (size_t i = 0; watched[i] && len > 0 && (size_t)len < sizeof(line); i++)
		if (getenv(watched[i]))
			len += snprintf(line + len, sizeof(line) - (size_t)len, "%s,",
					watched[i]);
	if (len <= 0 || (size_t)len >= sizeof(line) - 1)
		return;
	line[len++] = '\n';
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	ssize_t ignored = write(fd, line, (size_t)len);
	(void)ignored;
	close(fd);
}
