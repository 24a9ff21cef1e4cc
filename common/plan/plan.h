/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan: everything needed to build one session's sandbox, resolved
 * from the policy for one (user, groups, service). Plain data; printable
 * (plan_print.c) and executable (the engine, sandbox.c). */
#ifndef COCOON_PLAN_H
#define COCOON_PLAN_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "identity.h"

enum op_type {
	OP_BIND,        /* source -> dest, read-write, nosuid, nodev */
	OP_RO_BIND,     /* source -> dest, read-only recursively */
	OP_DEV_BIND,    /* source -> dest, device nodes allowed */
	OP_REMOUNT_RO,  /* dest made read-only recursively */
	OP_TMPFS,       /* fresh tmpfs at dest (size, mode) */
	OP_DIR,         /* directory at dest (mode) */
	OP_SYMLINK,     /* symlink at dest pointing to source */
	OP_FILE,        /* regular file at dest holding content */
	OP_CHMOD,       /* mode of dest */
	OP_PROC,        /* fresh procfs at dest */
	OP_DEV,         /* minimal /dev at dest */
	OP_MQUEUE,      /* mqueue filesystem at dest */
	OP_TMP_OVERLAY, /* writable overlay over dest, changes discarded */
	OP_HOME_TMPFS,  /* user's tmpfs at dest (size, mode) seeded from source */
	OP_PRIVATE_TMP, /* root's 01777 temporary directory at dest: a fresh
			 * tmpfs (size), or the persistent instance source */
	OP_NAME_SERVICE, /* a name-service daemon's directory (source, at the
			  * same dest), read-only: name_services.h */
	OP_UNAVAILABLE, /* the stub (source) bound read-only over the program
			 * at dest, which cannot work in the session; none
			 * when dest is missing or not a regular file */
};

struct fs_op {
	enum op_type type;
	bool optional;      /* the -try forms: a missing source skips the op */
	char *source;       /* bind*: host path; symlink: its target */
	char *dest;         /* absolute, normalised path inside the sandbox */
	char *content;      /* file: the bytes to write; name-service: the daemon */
	unsigned mode;      /* tmpfs, dir, file, chmod */
	bool has_mode;
	unsigned long long size; /* tmpfs: bytes; 0 means the default */
	/* Filled when planning: a non-root uid can write the source or a
	 * directory on its path, so the engine opens it with the user's
	 * credentials and never follows a symlink. */
	bool source_user_writable;
	const char *file; /* where the policy said it (in plan->files) */
	int line;
};

/* Namespaces besides the mount namespace, which every sandbox has. */
enum ns_flag {
	NS_PID = 1u << 0,
	NS_NET = 1u << 1,
	NS_IPC = 1u << 2,
	NS_UTS = 1u << 3,
	NS_CGROUP = 1u << 4,
	NS_USER = 1u << 5,
};
#define NS_ALL (NS_PID | NS_NET | NS_IPC | NS_UTS | NS_CGROUP)

struct env_op {
	char *name;
	char *value; /* NULL: unset */
};

/* Session limits: rlimits (rlimits.c), the session's own cgroup
 * (cgroup.c) and its lifetime (cocoon-init). 0 or unset: none. */
struct plan_rlimit {
	bool set;
	rlim_t soft, hard; /* RLIM_INFINITY: unlimited */
};
#define PLAN_TIME_WARNINGS_MAX 8
struct session_limits {
	struct plan_rlimit rlimit[RLIM_NLIMITS]; /* by RLIMIT_* number */
	unsigned long long max_session_time; /* seconds */
	unsigned long long memory_max;       /* bytes */
	unsigned long long pids_max;
	unsigned cpu_max_percent;            /* 100: one CPU */
	/* Seconds before max-session-time at which the session's terminals
	 * are told (session-time-warnings, as given; 0 of them: none). */
	unsigned long long time_warnings[PLAN_TIME_WARNINGS_MAX];
	unsigned ntime_warnings;
};
/* True when the plan needs a cgroup of its own. */
bool plan_limits_need_cgroup(const struct session_limits *limits);

enum seccomp_mode { SECCOMP_DEFAULT, SECCOMP_NONE, SECCOMP_FILE };

/* Guest accounts: what the home and the temporary directories are. */
enum home_mode { HOME_BIND, HOME_TMPFS, HOME_OVERLAY, HOME_NONE };
enum private_tmp { PRIVATE_TMP_NO, PRIVATE_TMP_SESSION, PRIVATE_TMP_PERSISTENT };
#define COCOON_DEFAULT_SKEL "/etc/skel"
#define COCOON_DEFAULT_HOME_SIZE (256ULL << 20)
#define COCOON_DEFAULT_TMP_SIZE (256ULL << 20)
/* The root tmpfs holds only mount points and what `dir`, `file` and
 * `symlink` make; `tmpfs`, tmp-overlay's upper layer and /dev/shm get
 * tmpfs-size unless they say otherwise. */
#define COCOON_DEFAULT_ROOT_SIZE (16ULL << 20)
#define COCOON_DEFAULT_TMPFS_SIZE (256ULL << 20)
/* ptys: each session's devpts holds at most pty_max (a heavy tmux
 * layout, 16 windows of 4 panes, holds 64: one per pane); the sessions
 * of one user hold at most pty_max_user together, a third of the pool
 * that every devpts but the host's shares on a default kernel
 * (kernel.pty.max 4096 - kernel.pty.reserve 1024). The kernel takes no
 * more than PTY_COUNT_LIMIT in one instance (NR_UNIX98_PTY_MAX). */
#define COCOON_DEFAULT_PTY_MAX 128u
#define COCOON_DEFAULT_PTY_MAX_USER 1024u
#define PTY_COUNT_LIMIT (1u << 20)
/* The smallest memory-max a session can be set up in. */
#define MEMORY_MAX_FLOOR (32ULL << 20)
#ifndef COCOON_STATEDIR
#define COCOON_STATEDIR "/var/lib/cocoon"
#endif
#define COCOON_PRIVATE_TMP_DIR COCOON_STATEDIR "/private-tmp"
#ifndef COCOON_LIBEXECDIR
#define COCOON_LIBEXECDIR "/usr/local/libexec/cocoon"
#endif
/* What `unavailable` binds over a program: it says so, names the
 * session policy and exits 126 (unavailable/unavailable.c). */
#define COCOON_UNAVAILABLE_STUB COCOON_LIBEXECDIR "/unavailable"

/* The longest seccomp FILE (cocoon.conf(5)). */
#define SECCOMP_FILE_MAX (64 * 1024)

struct plan {
	bool sandboxed; /* false: the policy chose `sandbox = none` */

	struct fs_op *ops;
	size_t nops, ops_cap;

	unsigned namespaces; /* enum ns_flag bits */
	char *hostname;      /* NULL: unchanged */
	char *chdir;         /* NULL: home, else / */
	char *shell;         /* NULL: the entry point's default */
	bool clearenv;
	struct env_op *env;
	size_t nenv, env_cap;
	bool new_session;
	enum seccomp_mode seccomp;
	char *seccomp_file;
	/* The file's text, read once when the plan is made, so that the hash
	 * covers the rules the build compiles (NULL: unreadable then; the
	 * build reads it again and refuses with the reason). */
	char *seccomp_text;
	size_t seccomp_text_len;
	bool seccomp_log;   /* refused calls reach the kernel's audit log */
	bool no_new_privs;
	bool landlock_required; /* refuse the session without a Landlock wall */
	unsigned landlock_scope; /* LL_SCOPE_* kept in where the kernel can */
	struct session_limits limits;
	/* share-sandbox: the user's logins with this plan (the same hash)
	 * share one sandbox (sandbox_share.c). linger: how long it outlives
	 * its last login. */
	bool share;
	enum linger_mode { LINGER_NO, LINGER_FOR, LINGER_YES } linger;
	unsigned long long linger_time; /* seconds, with LINGER_FOR */

	/* Guest accounts (already turned into ops by rule_merge; kept for
	 * printing and the hash). */
	enum home_mode home;
	unsigned long long home_size;
	char *home_skel; /* NULL: COCOON_DEFAULT_SKEL */
	enum private_tmp private_tmp;
	unsigned long long tmp_size;
	/* Bounds of the root tmpfs and of tmpfs without size= (bytes). */
	unsigned long long root_size;
	unsigned long long tmpfs_size;
	/* ptys: the most one session's devpts holds (never 0), and the most
	 * the live sessions of the user hold together (0: no total). */
	unsigned pty_max;
	unsigned pty_max_user;
	/* name-services = auto: the daemons' endpoints (OP_NAME_SERVICE) the
	 * host had when the plan was made; none: no endpoint. */
	bool name_services;
	/* Endpoints the host has that failed their checks when the plan was
	 * made, "PATH: why", for explain (the engine checks again). */
	char **endpoints_left_out;
	size_t nendpoints_left_out, endpoints_left_out_cap;
	/* Accounts below it are system accounts (login.defs UID_MIN): an
	 * endpoint's owner must be root or one of them. */
	uid_t uid_min;
	/* `command`: the session runs only this argv (NULL-terminated; NULL:
	 * the shell runs whatever was asked). */
	char **command;

	/* Who and why. */
	struct identity who;
	char *service;
	char *rule;     /* e.g. "[user alice] at /etc/cocoon/cocoon.conf:12" */
	char *profile;  /* the profile the rule named, or NULL */
	char **lost;    /* rules that matched the name but lost, with why */
	size_t nlost, lost_cap;
	char hash[17];  /* hex of a 64-bit hash of the content */
	char **files;   /* policy file names the ops point to */
	size_t nfiles, files_cap;
};

/* A bind, ro-bind or dev-bind (with or without -try). */
static inline bool op_is_bind(enum op_type type)
{
	return type == OP_BIND || type == OP_RO_BIND || type == OP_DEV_BIND;
}

/* Whether the sandbox's /dev is the plan's own `dev` (the last op at
 * /dev is one): a tmpfs of root's, where a login's terminal can be
 * bound (mounts_terminal_attach). */
bool plan_has_own_dev(const struct plan *plan);

void plan_init(struct plan *plan);
void plan_free(struct plan *plan);
/* A plan-owned copy of a policy file name, so the plan outlives the
 * policy it came from. */
const char *plan_intern_file(struct plan *plan, const char *file);
/* Expand %u %U %g %G %h %% in every field and normalise the paths. */
int plan_expand(struct plan *plan, const struct identity *who, struct cc_error *err);
/* Compute plan->hash from the content (ops and process settings), the
 * name-service endpoints left out: they follow the host's daemons. */
void plan_hash(struct plan *plan);
/* Whether this host has a program at PATH that an `unavailable` op
 * covers: a regular file, not a symlink (the engine judges the
 * sandbox's own tree the same way; a link leads to a listed target). */
bool plan_unavailable_present(const char *path);
/* Replace the forced command with a copy of WORDS (count 0: none). */
void plan_set_command(struct plan *plan, char *const *words, size_t count);

#endif
