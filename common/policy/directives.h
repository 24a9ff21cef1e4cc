/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of directives: names (after bubblewrap's options), how many
 * words each takes, and where each may appear. */
#ifndef COCOON_DIRECTIVES_H
#define COCOON_DIRECTIVES_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "plan.h"

enum directive_id {
	D_PROFILE,
	D_SERVICE,
	D_BIND,
	D_RO_BIND,
	D_DEV_BIND,
	D_BIND_TRY,
	D_RO_BIND_TRY,
	D_DEV_BIND_TRY,
	D_REMOUNT_RO,
	D_TMPFS,
	D_DIR,
	D_SYMLINK,
	D_FILE,
	D_CHMOD,
	D_PROC,
	D_DEV,
	D_MQUEUE,
	D_TMP_OVERLAY,
	D_CHDIR,
	D_HOSTNAME,
	D_SETENV,
	D_UNSETENV,
	D_CLEARENV,
	D_UNSHARE,
	D_NEW_SESSION,
	D_SECCOMP,
	D_NO_NEW_PRIVS,
	D_SHELL,
	D_SANDBOX,
	D_LANDLOCK,
	D_LANDLOCK_SCOPE,
	D_HOME,
	D_HOME_SIZE,
	D_HOME_SKEL,
	D_PRIVATE_TMP,
	D_TMP_SIZE,
	/* Session limits (rlimits.c, cgroup.c, cocoon-init). */
	D_RLIMIT_NPROC,
	D_RLIMIT_NOFILE,
	D_RLIMIT_AS,
	D_RLIMIT_FSIZE,
	D_RLIMIT_CPU,
	D_RLIMIT_CORE,
	D_RLIMIT_MEMLOCK,
	D_MAX_SESSION_TIME,
	D_SESSION_TIME_WARNINGS,
	D_MEMORY_MAX,
	D_PIDS_MAX,
	D_CPU_MAX,
	D_COMMAND,
	D_SECCOMP_LOG,
	/* Bounds of the in-memory file systems without a size of their own. */
	D_ROOT_SIZE,
	D_TMPFS_SIZE,
	/* The session's share of the host's pty pool, and the user's. */
	D_PTY_MAX,
	D_PTY_MAX_USER,
	/* The host's name-service daemons reached from inside. */
	D_NAME_SERVICES,
	/* Programs that cannot work in the session, covered by a stub. */
	D_UNAVAILABLE,
	/* One sandbox for the user's logins of one plan, and its life. */
	D_SHARE_SANDBOX,
	D_LINGER,
};

/* Bits of where a directive may appear. */
#define IN_PROFILE 1u
#define IN_RULE 2u

struct directive_spec {
	const char *name;
	enum directive_id id;
	unsigned min_words, max_words; /* max 0: unlimited */
	unsigned where;
	const char *usage; /* for error messages: "SRC [DEST]" */
};

const struct directive_spec *directive_lookup(const char *name);

/* Value parsers of the directives' words. Each returns -1 with err set. */
int directive_parse_bool(const char *word, bool *out, struct cc_error *err);
int directive_parse_mode(const char *word, unsigned *out, struct cc_error *err);
int directive_parse_size(const char *word, unsigned long long *out, struct cc_error *err);
/* max-session-time, memory-max, pids-max, cpu-max: WORD (seconds,
 * bytes, a count, a percentage) or none (0). */
int directive_limit_parse(enum directive_id id, const char *word, unsigned long long *out,
			  struct cc_error *err);
/* VALUE of limit ID into its field of L. */
void directive_limit_store(enum directive_id id, unsigned long long value,
			   struct session_limits *l);
/* pty-max: a count of at most PTY_COUNT_LIMIT; pty-max-user: the
 * same, or none (0). */
int directive_pty_parse(enum directive_id id, const char *word, unsigned *out,
			struct cc_error *err);
/* A positive decimal count. */
int directive_parse_count(const char *word, unsigned long long *out, struct cc_error *err);
/* Seconds: a number, then s, m, h or d (none: seconds). */
int directive_parse_duration(const char *word, unsigned long long *out, struct cc_error *err);
/* linger: no, yes or a DURATION (LINGER_FOR, its seconds in SECONDS). */
int directive_linger_parse(const char *word, enum linger_mode *mode,
			   unsigned long long *seconds, struct cc_error *err);
/* N% (100% is one CPU), into percent. */
int directive_parse_percent(const char *word, unsigned *out, struct cc_error *err);
/* SOFT [HARD] (one word sets both) of an rlimit-NAME for RESOURCE:
 * counts, sizes with K/M/G/T or durations by resource, or `unlimited`;
 * soft <= hard. */
struct plan_rlimit;
int directive_rlimit_parse(int resource, char *const *words, size_t count,
			   struct plan_rlimit *out, struct cc_error *err);
/* Only %u %U %g %G %h %% may follow a '%'. */
int directive_check_tokens(const char *word, struct cc_error *err);
/* An absolute path (or one starting with %h) without "." or ".."
 * components. */
int directive_check_path_word(const char *word, const char *what, struct cc_error *err);
/* A directive's words as the typed value the code that uses it reads,
 * parsed once, when the policy is read. Directives whose words are
 * paths, names or text leave it zero and keep their words. */
struct directive_value {
	bool flag;                   /* yes|no settings; landlock = required;
				      * name-services = auto */
	enum linger_mode linger;     /* linger (LINGER_FOR: seconds in number) */
	unsigned bits;               /* unshare: NS_*; landlock-scope: LL_SCOPE_* */
	unsigned long long number;   /* *-size; session limits (directive_limit_parse);
				      * linger's DURATION */
	unsigned count;              /* pty-max, pty-max-user (0: none) */
	/* session-time-warnings: seconds before the end (ndurations 0: none) */
	unsigned long long durations[PLAN_TIME_WARNINGS_MAX];
	unsigned ndurations;
	enum home_mode home;
	enum private_tmp private_tmp;
	enum seccomp_mode seccomp;   /* SECCOMP_FILE: the file is the word */
	struct plan_rlimit rlimit;   /* rlimit-* */
	bool has_mode;               /* chmod's MODE; mode= of tmpfs, dir, file */
	unsigned mode;
	unsigned long long size;     /* size= of tmpfs (0: none given) */
};
/* Check a directive's words (counts, tokens, paths, names) and parse
 * them into VALUE; -1 with the reason in ERR. */
int directive_parse_words(const struct directive_spec *spec, char *const *words,
			  size_t count, struct directive_value *value, struct cc_error *err);

#endif
