// SPDX-License-Identifier: GPL-2.0-or-later
/* The directive table, and each directive's words parsed into its value. */
#include "directives.h"

#include <string.h>

#include "util.h"

#define BOTH (IN_PROFILE | IN_RULE)

static const struct directive_spec directives[] = {
	{ "profile", D_PROFILE, 1, 1, BOTH, "NAME" },
	{ "service", D_SERVICE, 1, 0, IN_RULE, "NAME..." },
	{ "bind", D_BIND, 1, 2, BOTH, "SRC [DEST]" },
	{ "ro-bind", D_RO_BIND, 1, 2, BOTH, "SRC [DEST]" },
	{ "dev-bind", D_DEV_BIND, 1, 2, BOTH, "SRC [DEST]" },
	{ "bind-try", D_BIND_TRY, 1, 2, BOTH, "SRC [DEST]" },
	{ "ro-bind-try", D_RO_BIND_TRY, 1, 2, BOTH, "SRC [DEST]" },
	{ "dev-bind-try", D_DEV_BIND_TRY, 1, 2, BOTH, "SRC [DEST]" },
	{ "remount-ro", D_REMOUNT_RO, 1, 1, BOTH, "DEST" },
	{ "tmpfs", D_TMPFS, 1, 3, BOTH, "DEST [size=SIZE] [mode=MODE]" },
	{ "dir", D_DIR, 1, 2, BOTH, "DEST [mode=MODE]" },
	{ "symlink", D_SYMLINK, 2, 2, BOTH, "TARGET LINK" },
	{ "file", D_FILE, 2, 3, BOTH, "DEST CONTENT [mode=MODE]" },
	{ "chmod", D_CHMOD, 2, 2, BOTH, "MODE PATH" },
	{ "proc", D_PROC, 1, 1, BOTH, "DEST" },
	{ "dev", D_DEV, 1, 1, BOTH, "DEST" },
	{ "mqueue", D_MQUEUE, 1, 1, BOTH, "DEST" },
	{ "tmp-overlay", D_TMP_OVERLAY, 1, 1, BOTH, "DEST" },
	{ "chdir", D_CHDIR, 1, 1, BOTH, "DIR" },
	{ "hostname", D_HOSTNAME, 1, 1, BOTH, "NAME" },
	{ "setenv", D_SETENV, 2, 2, BOTH, "NAME VALUE" },
	{ "unsetenv", D_UNSETENV, 1, 1, BOTH, "NAME" },
	{ "clearenv", D_CLEARENV, 1, 1, BOTH, "yes|no" },
	{ "unshare", D_UNSHARE, 1, 0, BOTH, "NAMESPACE... (pid net ipc uts cgroup user all)" },
	{ "new-session", D_NEW_SESSION, 1, 1, BOTH, "yes|no" },
	{ "seccomp", D_SECCOMP, 1, 1, BOTH, "default|none|FILE" },
	{ "no-new-privs", D_NO_NEW_PRIVS, 1, 1, BOTH, "yes|no" },
	{ "shell", D_SHELL, 1, 1, BOTH, "PATH" },
	{ "sandbox", D_SANDBOX, 1, 1, BOTH, "none" },
	{ "landlock", D_LANDLOCK, 1, 1, BOTH, "best-effort|required" },
	{ "landlock-scope", D_LANDLOCK_SCOPE, 1, 2, BOTH, "abstract-unix signal | none" },
	{ "home", D_HOME, 1, 1, BOTH, "bind|tmpfs|overlay|none" },
	{ "home-size", D_HOME_SIZE, 1, 1, BOTH, "SIZE" },
	{ "home-skel", D_HOME_SKEL, 1, 1, BOTH, "DIR" },
	{ "private-tmp", D_PRIVATE_TMP, 1, 1, BOTH, "no|session|persistent" },
	{ "tmp-size", D_TMP_SIZE, 1, 1, BOTH, "SIZE" },
	{ "rlimit-nproc", D_RLIMIT_NPROC, 1, 2, BOTH, "SOFT [HARD] (counts, or unlimited)" },
	{ "rlimit-nofile", D_RLIMIT_NOFILE, 1, 2, BOTH, "SOFT [HARD] (counts, or unlimited)" },
	{ "rlimit-as", D_RLIMIT_AS, 1, 2, BOTH, "SOFT [HARD] (sizes, or unlimited)" },
	{ "rlimit-fsize", D_RLIMIT_FSIZE, 1, 2, BOTH, "SOFT [HARD] (sizes, or unlimited)" },
	{ "rlimit-cpu", D_RLIMIT_CPU, 1, 2, BOTH, "SOFT [HARD] (durations, or unlimited)" },
	{ "rlimit-core", D_RLIMIT_CORE, 1, 2, BOTH, "SOFT [HARD] (sizes, or unlimited)" },
	{ "rlimit-memlock", D_RLIMIT_MEMLOCK, 1, 2, BOTH, "SOFT [HARD] (sizes, or unlimited)" },
	{ "max-session-time", D_MAX_SESSION_TIME, 1, 1, BOTH, "DURATION|none" },
	{ "session-time-warnings", D_SESSION_TIME_WARNINGS, 1, PLAN_TIME_WARNINGS_MAX, BOTH,
	  "DURATION... (at most 8)|none" },
	{ "memory-max", D_MEMORY_MAX, 1, 1, BOTH, "SIZE|none" },
	{ "pids-max", D_PIDS_MAX, 1, 1, BOTH, "COUNT|none" },
	{ "cpu-max", D_CPU_MAX, 1, 1, BOTH, "PERCENT%|none" },
	{ "command", D_COMMAND, 1, 0, BOTH, "PATH [ARG...]" },
	{ "seccomp-log", D_SECCOMP_LOG, 1, 1, BOTH, "yes|no" },
	{ "root-size", D_ROOT_SIZE, 1, 1, BOTH, "SIZE" },
	{ "tmpfs-size", D_TMPFS_SIZE, 1, 1, BOTH, "SIZE" },
	{ "pty-max", D_PTY_MAX, 1, 1, BOTH, "COUNT" },
	{ "pty-max-user", D_PTY_MAX_USER, 1, 1, BOTH, "COUNT|none" },
	{ "name-services", D_NAME_SERVICES, 1, 1, BOTH, "auto|none" },
	{ "unavailable", D_UNAVAILABLE, 1, 0, BOTH, "PATH..." },
	{ "share-sandbox", D_SHARE_SANDBOX, 1, 1, BOTH, "yes|no" },
	{ "linger", D_LINGER, 1, 1, BOTH, "no|yes|DURATION" },
};

const struct directive_spec *directive_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(directives); i++)
		if (strcmp(directives[i].name, name) == 0)
			return &directives[i];
	return NULL;
}

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "plan_values.h"

int directive_limit_parse(enum directive_id id, const char *word, unsigned long long *out,
			  struct cc_error *err)
{
	unsigned long long v = 0;
	unsigned percent = 0;
	int rc = 0;
	if (id != D_MAX_SESSION_TIME && id != D_MEMORY_MAX && id != D_PIDS_MAX &&
	    id != D_CPU_MAX)
		return cc_fail(err, "not a session limit");
	if (strcmp(word, "none") != 0)
		rc = id == D_MAX_SESSION_TIME ? directive_parse_duration(word, &v, err)
		     : id == D_MEMORY_MAX ? directive_parse_size(word, &v, err)
		     : id == D_PIDS_MAX ? directive_parse_count(word, &v, err)
		     : directive_parse_percent(word, &percent, err);
	if (rc < 0)
		return -1;
	/* The service process and cocoon-init are in the session's cgroup
	 * while it is set up: below this the OOM killer takes them and the
	 * session dies half-made. */
	if (id == D_MEMORY_MAX && v && v < MEMORY_MAX_FLOOR)
		return cc_fail(err, "memory-max %s is too small to set up a session (at "
			       "least %lluM)", word, MEMORY_MAX_FLOOR >> 20);
	*out = id == D_CPU_MAX ? percent : v;
	return 0;
}

/* session-time-warnings: each word a positive DURATION, or none alone. */
static int warnings_parse(char *const *words, size_t count,
			  struct directive_value *value, struct cc_error *err)
{
	value->ndurations = 0;
	if (count == 1 && strcmp(words[0], "none") == 0)
		return 0;
	for (size_t i = 0; i < count; i++) {
		unsigned long long v = 0;
		if (strcmp(words[i], "none") == 0)
			return cc_fail(err, "session-time-warnings takes none alone");
		if (directive_parse_duration(words[i], &v, err) < 0)
			return -1;
		if (!v)
			return cc_fail(err, "session-time-warnings %s is not a positive "
				       "duration", words[i]);
		value->durations[value->ndurations++] = v;
	}
	return 0;
}

int directive_pty_parse(enum directive_id id, const char *word, unsigned *out,
			struct cc_error *err)
{
	unsigned long long v = 0;
	if (id != D_PTY_MAX && id != D_PTY_MAX_USER)
		return cc_fail(err, "not a pty limit");
	/* A session always has a limit of its own: devpts takes max=0 as
	 * no limit at all. */
	if (id == D_PTY_MAX_USER && strcmp(word, "none") == 0) {
		*out = 0;
		return 0;
	}
	if (directive_parse_count(word, &v, err) < 0)
		return -1;
	if (v > PTY_COUNT_LIMIT)
		return cc_fail(err, "%s %s is above the kernel's %u ptys",
			       id == D_PTY_MAX ? "pty-max" : "pty-max-user", word,
			       PTY_COUNT_LIMIT);
	*out = (unsigned)v;
	return 0;
}

void directive_limit_store(enum directive_id id, unsigned long long value,
			   struct session_limits *l)
{
	switch (id) {
	case D_MAX_SESSION_TIME: l->max_session_time = value; break;
	case D_MEMORY_MAX: l->memory_max = value; break;
	case D_PIDS_MAX: l->pids_max = value; break;
	case D_CPU_MAX: l->cpu_max_percent = (unsigned)value; break;
	default: break;
	}
}

int directive_parse_bool(const char *word, bool *out, struct cc_error *err)
{
	if (strcmp(word, "yes") == 0)
		*out = true;
	else if (strcmp(word, "no") == 0)
		*out = false;
	else
		return cc_fail(err, "'%s' is not yes or no", word);
	return 0;
}

int directive_parse_mode(const char *word, unsigned *out, struct cc_error *err)
{
	size_t n = strlen(word);
	if (n < 1 || n > 4 || strspn(word, "01234567") != n)
		return cc_fail(err, "'%s' is not an octal mode (0000 to 7777)", word);
	*out = (unsigned)strtoul(word, NULL, 8);
	return 0;
}

int directive_parse_size(const char *word, unsigned long long *out, struct cc_error *err)
{
	char *end;
	if (!isdigit((unsigned char)word[0]))
		return cc_fail(err, "'%s' is not a size (like 64M)", word);
	errno = 0;
	unsigned long long v = strtoull(word, &end, 10);
	unsigned shift = 0;
	if (*end) {
		const char *units = "KMGT";
		const char *u = strchr(units, toupper((unsigned char)*end));
		if (!u || end[1])
			return cc_fail(err, "'%s' is not a size (digits, then K, M, G "
				       "or T)", word);
		shift = 10 * (unsigned)(u - units + 1);
	}
	if (errno || v == 0 || v > (~0ULL >> shift))
		return cc_fail(err, "size '%s' is out of range", word);
	*out = v << shift;
	return 0;
}

int directive_parse_count(const char *word, unsigned long long *out, struct cc_error *err)
{
	char *end;
	errno = 0;
	unsigned long long v = isdigit((unsigned char)word[0]) ? strtoull(word, &end, 10) : 0;
	if (!isdigit((unsigned char)word[0]) || *end)
		return cc_fail(err, "'%s' is not a count", word);
	if (errno || v == 0 || v > (1ULL << 62))
		return cc_fail(err, "count '%s' is out of range", word);
	*out = v;
	return 0;
}

int directive_parse_duration(const char *word, unsigned long long *out, struct cc_error *err)
{
	static const struct { char unit; unsigned long long seconds; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	char *end;
	errno = 0;
	unsigned long long v = isdigit((unsigned char)word[0]) ? strtoull(word, &end, 10) : 0;
	if (!isdigit((unsigned char)word[0]))
		return cc_fail(err, "'%s' is not a duration (like 90s, 30m, 8h, 1d)", word);
	unsigned long long scale = *end ? 0 : 1;
	for (size_t i = 0; *end && !end[1] && i < ARRAY_SIZE(units); i++)
		if (units[i].unit == *end)
			scale = units[i].seconds;
	if (!scale)
		return cc_fail(err, "'%s' is not a duration (a number, then s, m, h "
			       "or d)", word);
	if (errno || v == 0 || v > (1ULL << 40) / scale)
		return cc_fail(err, "duration '%s' is out of range", word);
	*out = v * scale;
	return 0;
}

int directive_linger_parse(const char *word, enum linger_mode *mode,
			   unsigned long long *seconds, struct cc_error *err)
{
	*seconds = 0;
	if (strcmp(word, "no") == 0 || strcmp(word, "yes") == 0) {
		*mode = word[0] == 'y' ? LINGER_YES : LINGER_NO;
		return 0;
	}
	/* A digit first: the duration's own message says what is wrong. */
	if (!isdigit((unsigned char)word[0]))
		return cc_fail(err, "linger takes no, yes or a duration (like 30m or "
			       "8h), not '%s'", word);
	if (directive_parse_duration(word, seconds, err) < 0)
		return -1;
	*mode = LINGER_FOR;
	return 0;
}

int directive_parse_percent(const char *word, unsigned *out, struct cc_error *err)
{
	size_t n = strlen(word);
	unsigned long long v;
	struct cc_error ignored;
	if (n < 2 || word[n - 1] != '%' || n > 7)
		return cc_fail(err, "'%s' is not a percentage (like 50%% or 200%%)", word);
	char digits[8];
	memcpy(digits, word, n - 1);
	digits[n - 1] = '\0';
	if (directive_parse_count(digits, &v, &ignored) < 0 || v > 100000)
		return cc_fail(err, "'%s' is not a percentage from 1%% to 100000%%", word);
	*out = (unsigned)v;
	return 0;
}

int directive_check_tokens(const char *word, struct cc_error *err)
{
	for (const char *p = strchr(word, '%'); p; p = strchr(p + 2, '%')) {
		if (!p[1])
			return cc_fail(err, "a lone '%%' ends '%s' (write %%%% for a "
				       "percent sign)", word);
		if (!strchr("uUgGh%", p[1]))
			return cc_fail(err, "unknown token '%%%c' (%%u %%U %%g %%G %%h "
				       "%%%% exist)", p[1]);
	}
	return 0;
}

int directive_check_path_word(const char *word, const char *what, struct cc_error *err)
{
	if (word[0] != '/' && !(str_starts_with(word, "%h") && (word[2] == '/' || !word[2])))
		return cc_fail(err, "%s '%s' is not an absolute path (%%h may only "
			       "stand alone or before a '/')", what, word);
	for (const char *p = word; *p;) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return cc_fail(err, "%s '%s' has a '.' or '..' component", what,
				       word);
		p += n;
	}
	return 0;
}

/* "key=value" options of tmpfs, dir and file: tokens never reach them. */
static int parse_op_options(char *const *words, size_t count, bool allow_size,
			 struct directive_value *v, struct cc_error *err)
{
	bool seen_size = false;
	for (size_t i = 0; i < count; i++) {
		if (allow_size && str_starts_with(words[i], "size=")) {
			if (seen_size)
				return cc_fail(err, "size= given twice");
			seen_size = true;
			if (directive_parse_size(words[i] + 5, &v->size, err) < 0)
				return -1;
		} else if (str_starts_with(words[i], "mode=")) {
			if (v->has_mode)
				return cc_fail(err, "mode= given twice");
			v->has_mode = true;
			if (directive_parse_mode(words[i] + 5, &v->mode, err) < 0)
				return -1;
		} else {
			return cc_fail(err, "unknown option '%s' (%s)", words[i],
				       allow_size ? "size= or mode=" : "mode=");
		}
	}
	return 0;
}

static int check_env_name(const char *name, struct cc_error *err)
{
	if (!(isalpha((unsigned char)name[0]) || name[0] == '_'))
		return cc_fail(err, "'%s' is not an environment variable name", name);
	for (const char *p = name; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return cc_fail(err, "'%s' is not an environment variable name",
				       name);
	return 0;
}

static int check_name_word(const char *word, const char *what, struct cc_error *err)
{
	if (!*word)
		return cc_fail(err, "empty %s", what);
	for (const char *p = word; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr("._-", *p)))
			return cc_fail(err, "%s '%s' may only hold letters, digits, "
				       "'.', '_' and '-'", what, word);
	return 0;
}

int directive_parse_words(const struct directive_spec *spec, char *const *words,
			  size_t count, struct directive_value *v, struct cc_error *err)
{
	memset(v, 0, sizeof(*v));
	if (count < spec->min_words || (spec->max_words && count > spec->max_words))
		return cc_fail(err, "'%s' takes %s (got %zu word%s)", spec->name,
			       spec->usage, count, count == 1 ? "" : "s");
	/* cpu-max's '%' is a percent sign, not a token. */
	for (size_t i = 0; i < count && spec->id != D_CPU_MAX; i++)
		if (directive_check_tokens(words[i], err) < 0)
			return -1;

	switch (spec->id) {
	case D_PROFILE:
		return check_name_word(words[0], "profile name", err);
	case D_SERVICE:
		for (size_t i = 0; i < count; i++)
			if (check_name_word(words[i], "service name", err) < 0)
				return -1;
		return 0;
	case D_BIND: case D_RO_BIND: case D_DEV_BIND:
	case D_BIND_TRY: case D_RO_BIND_TRY: case D_DEV_BIND_TRY:
		if (directive_check_path_word(words[0], "source", err) < 0)
			return -1;
		return count > 1 ? directive_check_path_word(words[1], "destination", err) : 0;
	case D_REMOUNT_RO: case D_PROC: case D_DEV: case D_MQUEUE:
	case D_TMP_OVERLAY:
		return directive_check_path_word(words[0], "destination", err);
	case D_TMPFS:
		if (directive_check_path_word(words[0], "destination", err) < 0)
			return -1;
		return parse_op_options(words + 1, count - 1, true, v, err);
	case D_DIR:
		if (directive_check_path_word(words[0], "destination", err) < 0)
			return -1;
		return parse_op_options(words + 1, count - 1, false, v, err);
	case D_FILE:
		if (directive_check_path_word(words[0], "destination", err) < 0)
			return -1;
		return parse_op_options(words + 2, count - 2, false, v, err);
	case D_SYMLINK:
		if (!words[0][0])
			return cc_fail(err, "empty symlink target");
		return directive_check_path_word(words[1], "link", err);
	case D_CHMOD:
		if (directive_parse_mode(words[0], &v->mode, err) < 0)
			return -1;
		v->has_mode = true;
		return directive_check_path_word(words[1], "path", err);
	case D_CHDIR:
		return directive_check_path_word(words[0], "directory", err);
	case D_SHELL:
		return directive_check_path_word(words[0], "shell", err);
	case D_HOSTNAME:
		if (strlen(words[0]) > 64)
			return cc_fail(err, "hostname longer than 64 bytes");
		return strchr(words[0], '%') ? 0 : check_name_word(words[0], "hostname", err);
	case D_SETENV:
		return check_env_name(words[0], err);
	case D_UNSETENV:
		return check_env_name(words[0], err);
	case D_CLEARENV: case D_NEW_SESSION: case D_NO_NEW_PRIVS: case D_SECCOMP_LOG:
	case D_SHARE_SANDBOX:
		return directive_parse_bool(words[0], &v->flag, err);
	case D_LINGER:
		return directive_linger_parse(words[0], &v->linger, &v->number, err);
	case D_UNSHARE:
		return plan_parse_namespaces(words, count, &v->bits, err);
	case D_SECCOMP:
		if (strcmp(words[0], "default") == 0 || strcmp(words[0], "none") == 0) {
			v->seccomp = words[0][0] == 'd' ? SECCOMP_DEFAULT : SECCOMP_NONE;
			return 0;
		}
		v->seccomp = SECCOMP_FILE;
		if (words[0][0] != '/')
			return cc_fail(err, "seccomp takes default, none or an absolute "
				       "file name");
		if (strchr(words[0], '%'))
			return cc_fail(err, "a seccomp file name takes no tokens");
		return directive_check_path_word(words[0], "seccomp file", err);
	case D_LANDLOCK:
		if (strcmp(words[0], "best-effort") != 0 && strcmp(words[0], "required") != 0)
			return cc_fail(err, "landlock takes best-effort or required");
		v->flag = strcmp(words[0], "required") == 0;
		return 0;
	case D_LANDLOCK_SCOPE:
		return plan_parse_landlock_scope(words, count, &v->bits, err);
	case D_NAME_SERVICES:
		if (strcmp(words[0], "auto") != 0 && strcmp(words[0], "none") != 0)
			return cc_fail(err, "name-services takes auto or none");
		v->flag = strcmp(words[0], "auto") == 0;
		return 0;
	case D_RLIMIT_NPROC: case D_RLIMIT_NOFILE: case D_RLIMIT_AS:
	case D_RLIMIT_FSIZE: case D_RLIMIT_CPU: case D_RLIMIT_CORE:
	case D_RLIMIT_MEMLOCK:
		return directive_rlimit_parse(plan_rlimit_by_name(spec->name + strlen("rlimit-")),
					      words, count, &v->rlimit, err);
	case D_MAX_SESSION_TIME: case D_MEMORY_MAX: case D_PIDS_MAX: case D_CPU_MAX:
		return directive_limit_parse(spec->id, words[0], &v->number, err);
	case D_SESSION_TIME_WARNINGS:
		return warnings_parse(words, count, v, err);
	case D_SANDBOX:
		if (strcmp(words[0], "none") != 0)
			return cc_fail(err, "sandbox takes only 'none' (to leave matching "
				       "sessions unconfined)");
		return 0;
	case D_HOME:
		return plan_parse_home_mode(words[0], &v->home, err);
	case D_PRIVATE_TMP:
		return plan_parse_private_tmp(words[0], &v->private_tmp, err);
	case D_HOME_SIZE: case D_TMP_SIZE: case D_ROOT_SIZE: case D_TMPFS_SIZE:
		return directive_parse_size(words[0], &v->number, err);
	case D_PTY_MAX: case D_PTY_MAX_USER:
		return directive_pty_parse(spec->id, words[0], &v->count, err);
	case D_HOME_SKEL:
		if (strchr(words[0], '%'))
			return cc_fail(err, "home-skel takes no tokens: one skeleton "
				       "serves every user");
		return directive_check_path_word(words[0], "skeleton", err);
	case D_COMMAND:
		return directive_check_path_word(words[0], "command", err);
	case D_UNAVAILABLE:
		/* Host programs: one path for every user. */
		for (size_t i = 0; i < count; i++) {
			if (strchr(words[i], '%'))
				return cc_fail(err, "unavailable takes no tokens: '%s'",
					       words[i]);
			if (words[i][0] != '/')
				return cc_fail(err, "unavailable takes absolute paths: "
					       "'%s'", words[i]);
			if (directive_check_path_word(words[i], "program", err) < 0)
				return -1;
			if (strcmp(words[i], "/") == 0)
				return cc_fail(err, "unavailable takes programs, not '/'");
		}
		return 0;
	}
	return 0;
}

static int parse_value(enum plan_rlimit_unit unit, const char *word, rlim_t *out,
		       struct cc_error *err)
{
	unsigned long long v;
	if (strcmp(word, "unlimited") == 0) {
		*out = RLIM_INFINITY;
		return 0;
	}
	/* 0 is a real limit here (no core files, say). */
	if (strcmp(word, "0") == 0) {
		*out = 0;
		return 0;
	}
	int rc = unit == UNIT_SIZE ? directive_parse_size(word, &v, err)
		 : unit == UNIT_SECONDS ? directive_parse_duration(word, &v, err)
		 : directive_parse_count(word, &v, err);
	if (rc < 0)
		return -1;
	if (v >= RLIM_INFINITY)
		return cc_fail(err, "'%s' is out of range", word);
	*out = (rlim_t)v;
	return 0;
}

int directive_rlimit_parse(int resource, char *const *words, size_t count,
			   struct plan_rlimit *out, struct cc_error *err)
{
	enum plan_rlimit_unit unit = plan_rlimit_unit(resource);
	if (unit == RLIMIT_UNIT_NONE)
		return cc_fail(err, "unknown resource limit %d", resource);
	if (count < 1 || count > 2)
		return cc_fail(err, "a resource limit takes SOFT [HARD]");
	struct plan_rlimit r = { .set = true };
	if (parse_value(unit, words[0], &r.soft, err) < 0)
		return -1;
	r.hard = r.soft;
	if (count == 2 && parse_value(unit, words[1], &r.hard, err) < 0)
		return -1;
	if (r.soft > r.hard)
		return cc_fail(err, "the soft limit %s is above the hard limit %s",
			       words[0], words[1]);
	*out = r;
	return 0;
}
