// SPDX-License-Identifier: GPL-2.0-or-later
#include "sshd_config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "environment.h"
#include "util.h"

#define MAX_OUTPUT (256 * 1024)
#define MAX_INCLUDE_DEPTH 16

/* Everything FD gives until its end, bounded. */
static void read_all(int fd, struct strbuf *out)
{
	char buf[4096];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (out->len < MAX_OUTPUT)
			sb_addn(out, buf, (size_t)n);
	}
}

static void keep_setting(struct sshd_settings *s, const char *key, const char *value)
{
	if (strcmp(key, "usepam") == 0) {
		s->use_pam = strcasecmp(value, "yes") == 0;
	} else if (strcmp(key, "permituserenvironment") == 0) {
		free(s->permit_user_environment);
		s->permit_user_environment = xstrdup(value);
	} else if (strcmp(key, "acceptenv") == 0) {
		*ARRAY_PUSH(s->accept_env, s->naccept_env, s->cap) = xstrdup(value);
	}
}

int sshd_settings_read(const char *sshd, const char *config, const char *user,
		       struct sshd_settings *out, struct cc_error *err)
{
	memset(out, 0, sizeof(*out));
	/* The test specification is a comma-separated key=value list. */
	if (strpbrk(user, ",= \t\n"))
		return cc_fail(err, "user name '%s' cannot be given to sshd -T", user);
	char spec[512];
	snprintf(spec, sizeof(spec), "user=%s,host=localhost,addr=127.0.0.1,"
		 "laddr=127.0.0.1,lport=22", user);
	int out_pipe[2], err_pipe[2];
	if (pipe2(out_pipe, O_CLOEXEC) < 0)
		return cc_fail_errno(err, "pipe");
	if (pipe2(err_pipe, O_CLOEXEC) < 0) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		return cc_fail_errno(err, "pipe");
	}
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(out_pipe[1], 1) < 0 ||
		    dup2(err_pipe[1], 2) < 0)
			_exit(127);
		execl(sshd, sshd, "-T", "-f", config, "-C", spec, (char *)NULL);
		_exit(127);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	struct strbuf text = { 0 }, complaint = { 0 };
	if (pid > 0) {
		read_all(out_pipe[0], &text);
		read_all(err_pipe[0], &complaint);
	}
	close(out_pipe[0]);
	close(err_pipe[0]);
	int status = -1;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		const char *why = complaint.data ? complaint.data : "no reason given";
		int rc = pid < 0 ? cc_fail_errno(err, "fork")
				 : cc_fail(err, "%s -T -f %s for user %s failed: %.*s", sshd,
					   config, user, (int)strcspn(why, "\n"), why);
		sb_free(&text);
		sb_free(&complaint);
		return rc;
	}
	sb_free(&complaint);
	for (char *save = NULL, *line = text.data ? strtok_r(text.data, "\n", &save) : NULL;
	     line; line = strtok_r(NULL, "\n", &save)) {
		char *value = strchr(line, ' ');
		if (!value)
			continue;
		*value++ = '\0';
		keep_setting(out, line, value);
	}
	sb_free(&text);
	return 0;
}

void sshd_settings_free(struct sshd_settings *s)
{
	free(s->permit_user_environment);
	for (size_t i = 0; i < s->naccept_env; i++)
		free(s->accept_env[i]);
	free(s->accept_env);
	memset(s, 0, sizeof(*s));
}

/* sshd's patterns: '*' and '?' are the wildcards. A literal name passes
 * when the allow-list has it; a wildcard only after a literal "LC_",
 * which admits locale variables alone. */
static bool pattern_safe(const char *pattern, size_t len)
{
	size_t literal = strcspn(pattern, "*?");
	if (literal >= len)
		return env_name_allowed(pattern, len);
	return literal >= 3 && strncmp(pattern, "LC_", 3) == 0;
}

char *sshd_unsafe_env_pattern(const char *list)
{
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len && p[0] != '!' && !pattern_safe(p, len))
			return xstrndup(p, len);
		p += len + (p[len] == ',');
	}
	return NULL;
}

/* Does VALUE, a list of words split by blanks or commas, hold WORD? */
static bool value_has_word(const char *value, const char *word)
{
	size_t wlen = strlen(word);
	for (const char *p = value; *p;) {
		p += strspn(p, " \t,");
		size_t len = strcspn(p, " \t,");
		if (len == wlen && strncmp(p, word, len) == 0)
			return true;
		p += len;
	}
	return false;
}

static bool find_in(const char *path, const char *root, const char *keyword,
		    const char *word, char **file, int *line, int depth);

/* An Include line's patterns: relative ones are below /etc/ssh. */
static bool find_in_includes(const char *value, const char *root, const char *keyword,
			     const char *word, char **file, int *line, int depth)
{
	char *copy = xstrdup(value);
	bool found = false;
	for (char *save = NULL, *pat = strtok_r(copy, " \t", &save); pat && !found;
	     pat = strtok_r(NULL, " \t", &save)) {
		/* Under --root, the image's file; sshd itself, run from the
		 * host, reads the path as it stands: either will do. */
		char full[PATH_MAX], plain[PATH_MAX];
		snprintf(plain, sizeof(plain), "%s%s", pat[0] == '/' ? "" : "/etc/ssh/", pat);
		snprintf(full, sizeof(full), "%s%s", root ? root : "", plain);
		glob_t g;
		int rc = glob(full, 0, NULL, &g);
		if (rc != 0 && root) {
			globfree(&g);
			rc = glob(plain, 0, NULL, &g);
		}
		if (rc != 0) {
			globfree(&g);
			continue;
		}
		for (size_t i = 0; i < g.gl_pathc && !found; i++)
			found = find_in(g.gl_pathv[i], root, keyword, word, file, line,
					depth + 1);
		globfree(&g);
	}
	free(copy);
	return found;
}

static bool find_in(const char *path, const char *root, const char *keyword,
		    const char *word, char **file, int *line, int depth)
{
	if (depth > MAX_INCLUDE_DEPTH)
		return false;
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char *text = NULL;
	size_t cap = 0;
	int lineno = 0;
	bool found = false;
	while (!found && getline(&text, &cap, f) != -1) {
		lineno++;
		char *p = text + strspn(text, " \t");
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		p[strcspn(p, "\r\n")] = '\0';
		size_t klen = strcspn(p, " \t=");
		char *value = p + klen;
		value += strspn(value, " \t=");
		if (klen == 7 && strncasecmp(p, "include", 7) == 0) {
			found = find_in_includes(value, root, keyword, word, file, line, depth);
		} else if (klen == strlen(keyword) && strncasecmp(p, keyword, klen) == 0 &&
			   (!word || value_has_word(value, word))) {
			*file = xstrdup(path);
			*line = lineno;
			found = true;
		}
	}
	free(text);
	fclose(f);
	return found;
}

bool sshd_config_where(const char *config, const char *root, const char *keyword,
		       const char *word, char **file, int *line)
{
	*file = NULL;
	*line = 0;
	return find_in(config, root, keyword, word, file, line, 0);
}
