// SPDX-License-Identifier: GPL-2.0-or-later
/* What sshd would do for one user (`sshd -T`), for check --pam. */
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
#include "line_reader.h"
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

static bool is_yes(const char *value)
{
	return strcasecmp(value, "yes") == 0;
}

static void keep_setting(struct sshd_settings *s, const char *key, const char *value)
{
	if (strcmp(key, "usepam") == 0)
		s->use_pam = is_yes(value);
	else if (strcmp(key, "allowtcpforwarding") == 0)
		s->tcp_forwarding = strcasecmp(value, "no") != 0;
	else if (strcmp(key, "allowstreamlocalforwarding") == 0)
		s->streamlocal_forwarding = strcasecmp(value, "no") != 0;
	else if (strcmp(key, "allowagentforwarding") == 0)
		s->agent_forwarding = is_yes(value);
	else if (strcmp(key, "x11forwarding") == 0)
		s->x11_forwarding = is_yes(value);
	else if (strcmp(key, "permittunnel") == 0)
		s->tunnel = strcasecmp(value, "no") != 0;
	else if (strcmp(key, "subsystem") == 0)
		s->internal_sftp |= strstr(value, "internal-sftp") != NULL;
	else if (strcmp(key, "disableforwarding") == 0)
		s->forwarding_disabled = is_yes(value);
}

/* SSHD_OPTS="..." in a shell-variable file: its -o options. Quotes are
 * taken away, nothing else of the shell is read. */
void sshd_options_read(const char *file, struct sshd_options *out)
{
	memset(out, 0, sizeof(*out));
	struct line_reader r;
	if (line_reader_open(&r, file, NULL) < 0)
		return;
	while (line_reader_next(&r, NULL) > 0) {
		char *p = r.line + strspn(r.line, " \t");
		if (strncmp(p, "SSHD_OPTS=", 10) != 0)
			continue;
		p += 10;
		for (char *q = p; *q; q++)
			if (*q == '"' || *q == '\'' || *q == '\n')
				*q = ' ';
		for (size_t i = 0; i < out->count; i++)
			free(out->words[i]);
		out->count = 0;
		bool take_next = false;
		for (char *save = NULL, *w = strtok_r(p, " \t", &save); w;
		     w = strtok_r(NULL, " \t", &save)) {
			if (take_next || (w[0] == '-' && w[1] == 'o' && w[2])) {
				*ARRAY_PUSH(out->words, out->count, out->cap) = xstrdup("-o");
				*ARRAY_PUSH(out->words, out->count, out->cap) =
					xstrdup(take_next ? w : w + 2);
			}
			take_next = strcmp(w, "-o") == 0;
		}
		free(out->file);
		out->file = xstrdup(file);
		out->line = r.lineno;
	}
	line_reader_close(&r);
}

void sshd_options_free(struct sshd_options *o)
{
	for (size_t i = 0; i < o->count; i++)
		free(o->words[i]);
	free(o->words);
	free(o->file);
	memset(o, 0, sizeof(*o));
}

int sshd_settings_read(const char *sshd, const char *config, const char *user,
		       const struct sshd_options *options, struct sshd_settings *out,
		       struct cc_error *err)
{
	memset(out, 0, sizeof(*out));
	/* The test specification is a comma-separated key=value list. */
	if (strpbrk(user, ",= \t\n"))
		return cc_fail(err, "user name '%s' cannot be given to sshd -T", user);
	char spec[512];
	snprintf(spec, sizeof(spec), "user=%s,host=localhost,addr=127.0.0.1,"
		 "laddr=127.0.0.1,lport=22", user);
	const char *fixed[] = { sshd, "-T", "-f", config, "-C", spec };
	size_t nfixed = ARRAY_SIZE(fixed);
	size_t nopts = options ? options->count : 0;
	char **argv AUTOFREE = xcalloc(nfixed + nopts + 1, sizeof(*argv));
	for (size_t i = 0; i < nfixed; i++)
		argv[i] = (char *)fixed[i];
	for (size_t i = 0; i < nopts; i++)
		argv[nfixed + i] = options->words[i];
	int ends[2];
	if (pipe2(ends, O_CLOEXEC) < 0)
		return cc_fail_errno(err, "pipe");
	int out_read AUTOCLOSE = ends[0], out_write AUTOCLOSE = ends[1];
	if (pipe2(ends, O_CLOEXEC) < 0)
		return cc_fail_errno(err, "pipe");
	int err_read AUTOCLOSE = ends[0], err_write AUTOCLOSE = ends[1];
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(out_write, 1) < 0 ||
		    dup2(err_write, 2) < 0)
			_exit(127);
		execv(sshd, argv);
		_exit(127);
	}
	/* Only the child writes: the reads end when it does. */
	close(steal_fd(&out_write));
	close(steal_fd(&err_write));
	struct strbuf text = { 0 }, complaint = { 0 };
	if (pid > 0) {
		read_all(out_read, &text);
		read_all(err_read, &complaint);
	}
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
	/* DisableForwarding overrides the others, in whatever order -T
	 * prints them. */
	if (out->forwarding_disabled)
		out->tcp_forwarding = out->streamlocal_forwarding = out->agent_forwarding =
			out->x11_forwarding = false;
	return 0;
}

/* sshd's patterns: '*' and '?' are the wildcards. A literal name passes
 * when the allow-list has it; a wildcard only after a literal "LC_",
 * which admits locale variables alone. */
static bool pattern_safe(const char *pattern, size_t len)
{
	size_t literal = strcspn(pattern, "*?");
	if (literal >= len)
		return environment_name_allowed(pattern, len);
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

struct walk {
	const char *root, *keyword;
	void (*visit)(const char *value, const char *file, int line, void *data);
	void *data;
};

static void walk_file(const struct walk *w, const char *path, int depth);

/* An Include line's patterns: relative ones are below /etc/ssh. */
static void walk_includes(const struct walk *w, const char *value, int depth)
{
	char *copy = xstrdup(value);
	for (char *save = NULL, *pat = strtok_r(copy, " \t", &save); pat;
	     pat = strtok_r(NULL, " \t", &save)) {
		/* Under --root, the image's file; sshd itself, run from the
		 * host, reads the path as it stands: either will do. */
		char full[PATH_MAX], plain[PATH_MAX];
		snprintf(plain, sizeof(plain), "%s%s", pat[0] == '/' ? "" : "/etc/ssh/", pat);
		snprintf(full, sizeof(full), "%s%s", w->root ? w->root : "", plain);
		glob_t g;
		int rc = glob(full, 0, NULL, &g);
		if (rc != 0 && w->root) {
			globfree(&g);
			rc = glob(plain, 0, NULL, &g);
		}
		if (rc != 0) {
			globfree(&g);
			continue;
		}
		for (size_t i = 0; i < g.gl_pathc; i++)
			walk_file(w, g.gl_pathv[i], depth + 1);
		globfree(&g);
	}
	free(copy);
}

static void walk_file(const struct walk *w, const char *path, int depth)
{
	if (depth > MAX_INCLUDE_DEPTH)
		return;
	struct line_reader r;
	if (line_reader_open(&r, path, NULL) < 0)
		return;
	while (line_reader_next(&r, NULL) > 0) {
		char *p = r.line + strspn(r.line, " \t");
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		p[strcspn(p, "\r\n")] = '\0';
		size_t klen = strcspn(p, " \t=");
		char *value = p + klen;
		value += strspn(value, " \t=");
		if (klen == 7 && strncasecmp(p, "include", 7) == 0)
			walk_includes(w, value, depth);
		else if (klen == strlen(w->keyword) && strncasecmp(p, w->keyword, klen) == 0)
			w->visit(value, path, r.lineno, w->data);
	}
	line_reader_close(&r);
}

void sshd_config_each(const char *config, const char *root, const char *keyword,
		      void (*visit)(const char *value, const char *file, int line,
				    void *data),
		      void *data)
{
	struct walk w = { .root = root, .keyword = keyword, .visit = visit, .data = data };
	walk_file(&w, config, 0);
}
