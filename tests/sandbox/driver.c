// SPDX-License-Identifier: GPL-2.0-or-later
/* engine-driver: build a plan from bubblewrap-like options and run it
 * through sandbox_run, so the engine can be tested without a policy.
 *
 *   engine-driver --user USER [OPTION...] -- COMMAND [ARG...]
 *
 * Operations, in order: --bind SRC DEST, --ro-bind, --dev-bind and their
 * -try forms, --remount-ro DEST, --tmpfs DEST, --dir DEST, --symlink
 * TARGET DEST, --file DEST CONTENT, --chmod MODE DEST, --proc DEST,
 * --dev DEST, --mqueue DEST, --tmp-overlay DEST. --mode OCTAL and --size
 * BYTES apply to the next operation, --user-writable marks the next bind's
 * source as one the user can write. Settings: --unshare LIST (pid, net,
 * ipc, uts, cgroup, user, comma-separated), --hostname, --chdir,
 * --new-session, --no-new-privs 0|1, --seccomp none|default, --env
 * NAME=VALUE, --session-nofile N (the
 * session's RLIMIT_NOFILE soft limit, through session_rlimits). --uid USER:UID:GID:HOME
 * replaces --user without an NSS lookup (for timing the engine alone).
 *
 * Exit status: the command's, or 125 with the engine's message on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "plan.h"
#include "sandbox.h"
#include "util.h"

static void usage(void)
{
	fprintf(stderr, "usage: engine-driver --user USER [OPTION...] -- COMMAND [ARG...]\n");
	exit(125);
}

static const struct {
	const char *name;
	enum op_type type;
	bool optional;
	int nargs; /* 1: DEST, 2: SRC DEST (or DEST CONTENT for --file, MODE DEST for --chmod) */
} op_options[] = {
	{ "--bind", OP_BIND, false, 2 },
	{ "--ro-bind", OP_RO_BIND, false, 2 },
	{ "--dev-bind", OP_DEV_BIND, false, 2 },
	{ "--bind-try", OP_BIND, true, 2 },
	{ "--ro-bind-try", OP_RO_BIND, true, 2 },
	{ "--dev-bind-try", OP_DEV_BIND, true, 2 },
	{ "--remount-ro", OP_REMOUNT_RO, false, 1 },
	{ "--tmpfs", OP_TMPFS, false, 1 },
	{ "--dir", OP_DIR, false, 1 },
	{ "--symlink", OP_SYMLINK, false, 2 },
	{ "--file", OP_FILE, false, 2 },
	{ "--chmod", OP_CHMOD, false, 2 },
	{ "--proc", OP_PROC, false, 1 },
	{ "--dev", OP_DEV, false, 1 },
	{ "--mqueue", OP_MQUEUE, false, 1 },
	{ "--tmp-overlay", OP_TMP_OVERLAY, false, 1 },
};

static unsigned parse_ns(const char *list)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{ "pid", NS_PID }, { "net", NS_NET }, { "ipc", NS_IPC },
		{ "uts", NS_UTS }, { "cgroup", NS_CGROUP }, { "user", NS_USER },
	};
	unsigned ns = 0;
	char *copy = xstrdup(list);
	for (char *save, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(w, names[i].name) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "engine-driver: unknown namespace %s\n", w);
			exit(125);
		}
		ns |= names[i].bit;
	}
	free(copy);
	return ns;
}

int main(int argc, char **argv)
{
	struct plan plan;
	plan_init(&plan);
	plan.seccomp = SECCOMP_NONE;
	/* No session id, so no record to count a per-user pty total in. */
	plan.pty_max_user = 0;
	const char *user = NULL;
	char **env = NULL;
	size_t nenv = 0, env_cap = 0;
	bool next_uw = false, next_has_mode = false;
	unsigned next_mode = 0;
	unsigned long long next_size = 0;
	struct rlimit limits[RLIM_NLIMITS];
	bool use_limits = false;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		bool has_arg = i + 1 < argc;
		size_t k;
		for (k = 0; k < sizeof(op_options) / sizeof(op_options[0]); k++)
			if (strcmp(a, op_options[k].name) == 0)
				break;
		if (k < sizeof(op_options) / sizeof(op_options[0])) {
			int n = op_options[k].nargs;
			if (i + n >= argc)
				usage();
			struct fs_op *op = ARRAY_PUSH(plan.ops, plan.nops, plan.ops_cap);
			memset(op, 0, sizeof(*op));
			op->type = op_options[k].type;
			op->optional = op_options[k].optional;
			if (op->type == OP_FILE) {
				op->dest = xstrdup(argv[i + 1]);
				op->content = xstrdup(argv[i + 2]);
			} else if (op->type == OP_CHMOD) {
				op->mode = (unsigned)strtoul(argv[i + 1], NULL, 8);
				op->has_mode = true;
				op->dest = xstrdup(argv[i + 2]);
			} else if (n == 2) {
				op->source = xstrdup(argv[i + 1]);
				op->dest = xstrdup(argv[i + 2]);
			} else {
				op->dest = xstrdup(argv[i + 1]);
			}
			if (next_has_mode) {
				op->mode = next_mode;
				op->has_mode = true;
			}
			op->size = next_size;
			op->source_user_writable = next_uw;
			op->file = "engine-driver";
			op->line = (int)plan.nops;
			next_uw = next_has_mode = false;
			next_size = 0;
			i += n;
		} else if (strcmp(a, "--user-writable") == 0) {
			next_uw = true;
		} else if (strcmp(a, "--mode") == 0 && has_arg) {
			next_mode = (unsigned)strtoul(argv[++i], NULL, 8);
			next_has_mode = true;
		} else if (strcmp(a, "--size") == 0 && has_arg) {
			next_size = strtoull(argv[++i], NULL, 10);
		} else if (strcmp(a, "--user") == 0 && has_arg) {
			user = argv[++i];
		} else if (strcmp(a, "--uid") == 0 && has_arg) {
			/* No NSS: USER:UID:GID:HOME, one group (benchmarks). */
			char *spec = xstrdup(argv[++i]);
			char *f[4] = { NULL };
			for (int j = 0; j < 4; j++)
				f[j] = strsep(&spec, ":");
			if (!f[3])
				usage();
			plan.who.user = xstrdup(f[0]);
			plan.who.uid = (uid_t)strtoul(f[1], NULL, 10);
			plan.who.gid = (gid_t)strtoul(f[2], NULL, 10);
			plan.who.home = xstrdup(f[3]);
			plan.who.groups = xcalloc(1, sizeof(gid_t));
			plan.who.groups[0] = plan.who.gid;
			plan.who.ngroups = 1;
			user = plan.who.user;
		} else if (strcmp(a, "--unshare") == 0 && has_arg) {
			plan.namespaces |= parse_ns(argv[++i]);
		} else if (strcmp(a, "--hostname") == 0 && has_arg) {
			plan.hostname = xstrdup(argv[++i]);
		} else if (strcmp(a, "--chdir") == 0 && has_arg) {
			plan.chdir = xstrdup(argv[++i]);
		} else if (strcmp(a, "--new-session") == 0) {
			plan.new_session = true;
		} else if (strcmp(a, "--no-new-privs") == 0 && has_arg) {
			plan.no_new_privs = strcmp(argv[++i], "0") != 0;
		} else if (strcmp(a, "--seccomp") == 0 && has_arg) {
			plan.seccomp = strcmp(argv[++i], "none") == 0 ? SECCOMP_NONE
								      : SECCOMP_DEFAULT;
		} else if (strcmp(a, "--session-nofile") == 0 && has_arg) {
			/* session_rlimits: ours, with RLIMIT_NOFILE's soft limit
			 * replaced. */
			for (int r = 0; r < RLIM_NLIMITS; r++)
				getrlimit(r, &limits[r]);
			limits[RLIMIT_NOFILE].rlim_cur = strtoul(argv[++i], NULL, 10);
			use_limits = true;
		} else if (strcmp(a, "--env") == 0 && has_arg) {
			*ARRAY_PUSH(env, nenv, env_cap) = argv[++i];
		} else {
			fprintf(stderr, "engine-driver: unknown option %s\n", a);
			usage();
		}
	}
	if (!user || i >= argc)
		usage();

	struct cc_error err;
	if (!plan.who.home && identity_lookup(user, GROUPS_NOW, &plan.who, &err) < 0) {
		fprintf(stderr, "engine-driver: %s\n", err.msg);
		return 125;
	}
	if (!nenv) {
		*ARRAY_PUSH(env, nenv, env_cap) = "PATH=/usr/local/bin:/usr/bin:/bin";
		*ARRAY_PUSH(env, nenv, env_cap) = xasprintf("HOME=%s", plan.who.home);
		*ARRAY_PUSH(env, nenv, env_cap) = xasprintf("USER=%s", plan.who.user);
	}
	*ARRAY_PUSH(env, nenv, env_cap) = NULL;

	struct sandbox_request req = {
		.plan = &plan,
		.path = argv[i],
		.argv = &argv[i],
		.envp = env,
		.session_rlimits = use_limits ? limits : NULL,
	};
	int status = 125;
	if (sandbox_run(&req, &status, &err) < 0) {
		fprintf(stderr, "engine-driver: %s\n", err.msg);
		status = 125;
	}
	plan_free(&plan);
	free(env);
	return status;
}
