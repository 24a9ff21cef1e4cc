// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan printed as text, as JSON and as a bubblewrap command line. */
#include "plan_print.h"

#include <string.h>

#include "plan_values.h"
#include "util.h"


static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static const char *seccomp_name(const struct plan *plan)
{
	switch (plan->seccomp) {
	case SECCOMP_DEFAULT: return "default";
	case SECCOMP_NONE: return "none";
	case SECCOMP_FILE: return plan->seccomp_file;
	}
	return "?";
}

/* linger's value as the policy would say it: no, yes or seconds. */
static const char *linger_word(const struct plan *plan, char *buf, size_t size)
{
	switch (plan->linger) {
	case LINGER_NO: return "no";
	case LINGER_YES: return "yes";
	case LINGER_FOR: break;
	}
	snprintf(buf, size, "%llus", plan->linger_time);
	return buf;
}

/* The session limits, one "name value" line each through LINE, which
 * gets CTX. */
static void limit_lines(const struct session_limits *l,
			void (*line)(void *, const char *, const char *, bool),
			void *out)
{
	char v[192], soft[24], hard[24];
	bool first = true;
	for (int r = 0; r < RLIM_NLIMITS; r++) {
		if (!l->rlimit[r].set || !plan_rlimit_name(r))
			continue;
		char name[32];
		plan_rlimit_format(l->rlimit[r].soft, soft, sizeof(soft));
		plan_rlimit_format(l->rlimit[r].hard, hard, sizeof(hard));
		snprintf(name, sizeof(name), "rlimit-%s", plan_rlimit_name(r));
		snprintf(v, sizeof(v), "%s %s", soft, hard);
		line(out, name, v, first);
		first = false;
	}
	if (l->max_session_time) {
		snprintf(v, sizeof(v), "%llus", l->max_session_time);
		line(out, "max-session-time", v, first);
		first = false;
		/* Only with a deadline: without one nothing is warned of. */
		size_t n = 0;
		for (unsigned i = 0; i < l->ntime_warnings; i++)
			n += (size_t)snprintf(v + n, sizeof(v) - n, "%s%llus", i ? " " : "",
					      l->time_warnings[i]);
		line(out, "session-time-warnings", l->ntime_warnings ? v : "none", first);
	}
	if (l->memory_max) {
		snprintf(v, sizeof(v), "%llu", l->memory_max);
		line(out, "memory-max", v, first);
		first = false;
	}
	if (l->pids_max) {
		snprintf(v, sizeof(v), "%llu", l->pids_max);
		line(out, "pids-max", v, first);
		first = false;
	}
	if (l->cpu_max_percent) {
		snprintf(v, sizeof(v), "%u%%", l->cpu_max_percent);
		line(out, "cpu-max", v, first);
	}
}

void plan_print_session(const struct plan *plan, const char *id, struct strbuf *out)
{
	sb_addf(out, "session:     %s\n", id ? id : "(none)");
	plan_print_text(plan, out);
}

/* The limits as text: the label column as wide as the widest label
 * printed, so that no name (session-time-warnings) pushes its value out
 * of line. */
struct text_limits {
	struct strbuf *out;
	int width;
};

static void limit_label_width(void *ctx, const char *name, const char *value, bool first)
{
	(void)value; (void)first;
	struct text_limits *t = ctx;
	int n = (int)strlen(name);
	if (n > t->width)
		t->width = n;
}

static void text_limit(void *ctx, const char *name, const char *value, bool first)
{
	struct text_limits *t = ctx;
	sb_addf(t->out, "%s  %-*s %s\n", first ? "limits:\n" : "", t->width, name, value);
}

static void json_limit(void *ctx, const char *name, const char *value, bool first)
{
	struct strbuf *out = ctx;
	sb_addf(out, "%s", first ? "" : ",");
	sb_add_json_string(out, name);
	sb_addf(out, ":");
	sb_add_json_string(out, value);
}

/* The op as a policy line would say it. */
static void op_words(const struct fs_op *op, struct strbuf *out)
{
	sb_addf(out, "%s", plan_op_type_name(op->type, op->optional));
	switch (op->type) {
	case OP_BIND: case OP_RO_BIND: case OP_DEV_BIND:
		sb_addf(out, " ");
		sb_add_shell_word(out, op->source);
		if (strcmp(op->source, op->dest) != 0) {
			sb_addf(out, " ");
			sb_add_shell_word(out, op->dest);
		}
		return;
	case OP_SYMLINK:
		sb_addf(out, " ");
		sb_add_shell_word(out, op->source);
		sb_addf(out, " ");
		sb_add_shell_word(out, op->dest);
		return;
	case OP_CHMOD:
		sb_addf(out, " %04o ", op->mode);
		sb_add_shell_word(out, op->dest);
		return;
	case OP_FILE:
		sb_addf(out, " ");
		sb_add_shell_word(out, op->dest);
		sb_addf(out, " (%zu bytes)", strlen(op->content));
		break;
	case OP_HOME_TMPFS:
	case OP_PRIVATE_TMP:
		sb_addf(out, " ");
		sb_add_shell_word(out, op->dest);
		if (op->source) {
			sb_addf(out, " %s ", op->type == OP_HOME_TMPFS ? "from" : "instance");
			sb_add_shell_word(out, op->source);
		}
		break;
	default:
		sb_addf(out, " ");
		sb_add_shell_word(out, op->dest);
		break;
	}
	if (op->size)
		sb_addf(out, " size=%llu", op->size);
	if (op->has_mode)
		sb_addf(out, " mode=%04o", op->mode);
}

void plan_print_text(const struct plan *plan, struct strbuf *out)
{
	const struct identity *who = &plan->who;
	char ns[128];
	sb_addf(out, "user:        %s (uid %u, gid %u %s)\n", who->user,
		(unsigned)who->uid, (unsigned)who->gid, who->group);
	sb_addf(out, "groups:     ");
	for (size_t i = 0; i < who->ngroups; i++)
		sb_addf(out, " %s", who->group_names[i]);
	sb_addf(out, "\nservice:     %s\n", plan->service);
	sb_addf(out, "rule:        %s\n", plan->rule ? plan->rule : "(none matches)");
	if (plan->profile)
		sb_addf(out, "profile:     %s\n", plan->profile);
	for (size_t i = 0; i < plan->nlost; i++)
		sb_addf(out, "lost:        %s\n", plan->lost[i]);
	if (!plan->rule) {
		sb_addf(out, "sandbox:     no (not covered by the policy)\n");
		return;
	}
	if (!plan->sandboxed) {
		sb_addf(out, "sandbox:     no (sandbox = none)\n");
		return;
	}
	plan_ns_format(plan->namespaces, ns, sizeof(ns));
	sb_addf(out, "sandbox:     yes\nplan hash:   %s\n", plan->hash);
	sb_addf(out, "namespaces:  mount%s%s\n", ns[0] ? " " : "", ns);
	/* Only when on: a plan without it prints as it always did. */
	char linger[32];
	if (plan->share)
		sb_addf(out, "share-sandbox: yes\nlinger:      %s\n",
			linger_word(plan, linger, sizeof(linger)));
	sb_addf(out, "filesystem:\n");
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		struct strbuf line = { 0 };
		op_words(op, &line);
		/* An endpoint comes from the host, under the policy's say-so. */
		if (op->type == OP_NAME_SERVICE)
			sb_addf(out, "  %-58s # %s on this host; %s:%d\n", line.data,
				op->content, op->file, op->line);
		else
			sb_addf(out, "  %-58s # %s:%d\n", line.data, op->file, op->line);
		sb_free(&line);
	}
	for (size_t i = 0; i < plan->nendpoints_left_out; i++)
		sb_addf(out, "  (name-service left out: %s)\n", plan->endpoints_left_out[i]);
	sb_addf(out, "process:\n");
	sb_addf(out, "  chdir        %s\n", plan->chdir ? plan->chdir : "(home, else /)");
	sb_addf(out, "  hostname     %s\n", plan->hostname ? plan->hostname : "(unchanged)");
	sb_addf(out, "  shell        %s\n", plan->shell ? plan->shell : "(the entry point's)");
	sb_addf(out, "  new-session  %s\n", yes_no(plan->new_session));
	sb_addf(out, "  clearenv     %s\n", yes_no(plan->clearenv));
	for (size_t i = 0; i < plan->nenv; i++) {
		if (plan->env[i].value)
			sb_addf(out, "  setenv       %s=%s\n", plan->env[i].name,
				plan->env[i].value);
		else
			sb_addf(out, "  unsetenv     %s\n", plan->env[i].name);
	}
	sb_addf(out, "  seccomp      %s%s\n", seccomp_name(plan),
		plan->seccomp_log ? " (refusals logged)" : "");
	sb_addf(out, "  no-new-privs %s\n", yes_no(plan->no_new_privs));
	char scope[64];
	plan_landlock_scope_format(plan->landlock_scope, scope, sizeof(scope));
	sb_addf(out, "  landlock     %s, scope %s\n",
		plan->landlock_required ? "required" : "best-effort", scope);
	sb_addf(out, "  home         %s", plan_home_mode_name(plan->home));
	if (plan->home == HOME_TMPFS || plan->home == HOME_OVERLAY)
		sb_addf(out, " (size %llu%s%s)", plan->home_size,
			plan->home == HOME_TMPFS ? ", skeleton " : "",
			plan->home == HOME_TMPFS ? (plan->home_skel ? plan->home_skel
						    : COCOON_DEFAULT_SKEL) : "");
	sb_addf(out, "\n  private-tmp  %s", plan_private_tmp_name(plan->private_tmp));
	if (plan->private_tmp == PRIVATE_TMP_SESSION)
		sb_addf(out, " (size %llu)", plan->tmp_size);
	sb_addf(out, "\n  root-size    %llu\n  tmpfs-size   %llu\n", plan->root_size,
		plan->tmpfs_size);
	sb_addf(out, "  name-services %s\n", plan->name_services ? "auto" : "none");
	sb_addf(out, "  ptys         %u per session, ", plan->pty_max);
	if (plan->pty_max_user)
		sb_addf(out, "%u per user\n", plan->pty_max_user);
	else
		sb_addf(out, "no total per user\n");
	struct text_limits limits = { .out = out };
	limit_lines(&plan->limits, limit_label_width, &limits);
	limit_lines(&plan->limits, text_limit, &limits);
	if (plan->command) {
		sb_addf(out, "  command     ");
		for (char **w = plan->command; *w; w++) {
			sb_addf(out, " ");
			sb_add_shell_word(out, *w);
		}
		sb_addf(out, " (instead of anything asked)\n");
	}
	/* Through pam_cocoon the service itself stays outside the filter. */
	if (plan->service && strcmp(plan->service, "shell") != 0)
		sb_addf(out, "through pam_cocoon: seccomp, no-new-privs and Landlock reach what "
			"%s starts through the login shell\n  or /bin/sh; what it does itself "
			"(internal-sftp, port forwarding) gets the namespaces only\n",
			plan->service);
	if (plan->command && plan->service && strcmp(plan->service, "shell") != 0)
		sb_addf(out, "  and never the command: close them with the sshd Match block "
			"of pam_cocoon(8) (KIOSK ACCOUNTS)\n");
}

static void json_str_field(struct strbuf *out, const char *key, const char *value,
			   bool comma)
{
	sb_add_json_string(out, key);
	sb_addf(out, ":");
	if (value)
		sb_add_json_string(out, value);
	else
		sb_addf(out, "null");
	if (comma)
		sb_addf(out, ",");
}

/* "KEY":["a","b"], with the comma after. */
static void json_strings_field(struct strbuf *out, const char *key, char *const *items,
			       size_t count)
{
	sb_add_json_string(out, key);
	sb_addf(out, ":[");
	for (size_t i = 0; i < count; i++) {
		sb_add_json_string(out, items[i]);
		if (i + 1 < count)
			sb_addf(out, ",");
	}
	sb_addf(out, "],");
}

void plan_print_json(const struct plan *plan, struct strbuf *out)
{
	const struct identity *who = &plan->who;
	char ns[128];
	sb_addf(out, "{");
	json_str_field(out, "user", who->user, true);
	sb_addf(out, "\"uid\":%u,\"gid\":%u,", (unsigned)who->uid, (unsigned)who->gid);
	json_strings_field(out, "groups", who->group_names, who->ngroups);
	json_str_field(out, "service", plan->service, true);
	json_str_field(out, "rule", plan->rule, true);
	json_str_field(out, "profile", plan->profile, true);
	json_strings_field(out, "lost", plan->lost, plan->nlost);
	sb_addf(out, "\"covered\":%s,\"sandbox\":%s", plan->rule ? "true" : "false",
		plan->rule && plan->sandboxed ? "true" : "false");
	if (!plan->rule || !plan->sandboxed) {
		sb_addf(out, "}\n");
		return;
	}
	sb_addf(out, ",");
	json_str_field(out, "hash", plan->hash, true);
	plan_ns_format(plan->namespaces, ns, sizeof(ns));
	json_str_field(out, "namespaces", ns, true);
	char linger[32];
	if (plan->share) {
		sb_addf(out, "\"share_sandbox\":true,");
		json_str_field(out, "linger", linger_word(plan, linger, sizeof(linger)), true);
	}
	sb_addf(out, "\"operations\":[");
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		sb_addf(out, "{");
		json_str_field(out, "op", plan_op_type_name(op->type, op->optional), true);
		if (op->source)
			json_str_field(out, op->type == OP_SYMLINK ? "target" : "source",
				       op->source, true);
		if (op->content)
			json_str_field(out, op->type == OP_NAME_SERVICE ? "daemon" : "content",
				       op->content, true);
		if (op->has_mode)
			sb_addf(out, "\"mode\":\"%04o\",", op->mode);
		if (op->size)
			sb_addf(out, "\"size\":%llu,", op->size);
		json_str_field(out, "dest", op->dest, true);
		json_str_field(out, "file", op->file, true);
		sb_addf(out, "\"line\":%d}%s", op->line, i + 1 < plan->nops ? "," : "");
	}
	sb_addf(out, "],");
	json_str_field(out, "chdir", plan->chdir, true);
	json_str_field(out, "hostname", plan->hostname, true);
	json_str_field(out, "shell", plan->shell, true);
	sb_addf(out, "\"new_session\":%s,\"clearenv\":%s,\"env\":[",
		plan->new_session ? "true" : "false", plan->clearenv ? "true" : "false");
	for (size_t i = 0; i < plan->nenv; i++) {
		sb_addf(out, "{");
		json_str_field(out, "name", plan->env[i].name, true);
		json_str_field(out, "value", plan->env[i].value, false);
		sb_addf(out, "}%s", i + 1 < plan->nenv ? "," : "");
	}
	sb_addf(out, "],");
	json_str_field(out, "seccomp", seccomp_name(plan), true);
	sb_addf(out, "\"seccomp_log\":%s,", plan->seccomp_log ? "true" : "false");
	sb_addf(out, "\"no_new_privs\":%s,\"landlock\":\"%s\",\"landlock_scope\":[%s%s%s],",
		plan->no_new_privs ? "true" : "false",
		plan->landlock_required ? "required" : "best-effort",
		plan->landlock_scope & LL_SCOPE_ABSTRACT_UNIX ? "\"abstract-unix\"" : "",
		(plan->landlock_scope & LL_SCOPE_ALL) == LL_SCOPE_ALL ? "," : "",
		plan->landlock_scope & LL_SCOPE_SIGNAL ? "\"signal\"" : "");
	json_str_field(out, "home", plan_home_mode_name(plan->home), true);
	sb_addf(out, "\"home_size\":%llu,", plan->home_size);
	json_str_field(out, "home_skel", plan->home_skel ? plan->home_skel
		       : COCOON_DEFAULT_SKEL, true);
	json_str_field(out, "private_tmp", plan_private_tmp_name(plan->private_tmp), true);
	json_str_field(out, "name_services", plan->name_services ? "auto" : "none", true);
	json_strings_field(out, "name_services_left_out", plan->endpoints_left_out,
			   plan->nendpoints_left_out);
	sb_addf(out, "\"tmp_size\":%llu,\"root_size\":%llu,\"tmpfs_size\":%llu,"
		"\"pty_max\":%u,\"pty_max_user\":", plan->tmp_size, plan->root_size,
		plan->tmpfs_size, plan->pty_max);
	if (plan->pty_max_user)
		sb_addf(out, "%u", plan->pty_max_user);
	else
		sb_addf(out, "null");
	sb_addf(out, ",\"limits\":{");
	limit_lines(&plan->limits, json_limit, out);
	sb_addf(out, "},\"command\":");
	if (!plan->command)
		sb_addf(out, "null");
	for (char **w = plan->command; w && *w; w++) {
		sb_addf(out, "%s", w == plan->command ? "[" : ",");
		sb_add_json_string(out, *w);
	}
	sb_addf(out, "%s}\n", plan->command ? "]" : "");
}

static void bwrap_opt(struct strbuf *out, const char *opt, const char *a, const char *b)
{
	sb_addf(out, " %s", opt);
	if (a) {
		sb_addf(out, " ");
		sb_add_shell_word(out, a);
	}
	if (b) {
		sb_addf(out, " ");
		sb_add_shell_word(out, b);
	}
}

/* A session limit, which bubblewrap has no option for, as a comment
 * line before the command, with what could stand in for it. */
static void bwrap_limit(void *ctx, const char *name, const char *value, bool first)
{
	(void)first;
	struct strbuf *out = ctx;
	const char *instead = str_starts_with(name, "rlimit-")
		? "use prlimit(1) or the shell's ulimit"
		: strcmp(name, "max-session-time") == 0 ? "use timeout(1) or systemd-run"
		: strcmp(name, "session-time-warnings") == 0 ? "a timer running wall(1) can"
		" stand in"
		: "use systemd-run --scope with the cgroup limit";
	sb_addf(out, "# %s %s: no bwrap equivalent; %s\n", name, value, instead);
}

int plan_print_bwrap(const struct plan *plan, struct strbuf *out, struct cc_error *err)
{
	if (!plan->rule || !plan->sandboxed)
		return cc_fail(err, "%s is not sandboxed on service %s", plan->who.user,
			       plan->service);
	limit_lines(&plan->limits, bwrap_limit, out);
	char linger[32];
	if (plan->share)
		sb_addf(out, "# share-sandbox yes, linger %s: no bwrap equivalent; every "
			"bwrap is a sandbox of its own\n",
			linger_word(plan, linger, sizeof(linger)));
	sb_addf(out, "bwrap");
	int fd = 10;
	for (size_t i = 0; i < plan->nops; i++) {
		const struct fs_op *op = &plan->ops[i];
		char opt[32];
		switch (op->type) {
		case OP_BIND: case OP_RO_BIND: case OP_DEV_BIND:
			snprintf(opt, sizeof(opt), "--%s", plan_op_type_name(op->type, op->optional));
			bwrap_opt(out, opt, op->source, op->dest);
			break;
		case OP_SYMLINK:
			bwrap_opt(out, "--symlink", op->source, op->dest);
			break;
		case OP_CHMOD: {
			char mode[8];
			snprintf(mode, sizeof(mode), "%04o", op->mode);
			bwrap_opt(out, "--chmod", mode, op->dest);
			break;
		}
		case OP_FILE: {
			/* bwrap reads file content from a descriptor. */
			char fdbuf[16];
			struct strbuf content = { 0 };
			if (op->has_mode)
				sb_addf(out, " --perms %04o", op->mode);
			snprintf(fdbuf, sizeof(fdbuf), "%d", fd);
			bwrap_opt(out, "--file", fdbuf, op->dest);
			sb_add_shell_word(&content, op->content);
			sb_addf(out, " %d< <(printf %%s %s)", fd++, content.data);
			sb_free(&content);
			break;
		}
		case OP_TMPFS:
		case OP_DIR:
			if (op->has_mode)
				sb_addf(out, " --perms %04o", op->mode);
			if (op->size)
				sb_addf(out, " --size %llu", op->size);
			bwrap_opt(out, op->type == OP_TMPFS ? "--tmpfs" : "--dir", op->dest, NULL);
			break;
		case OP_REMOUNT_RO: bwrap_opt(out, "--remount-ro", op->dest, NULL); break;
		case OP_PROC: bwrap_opt(out, "--proc", op->dest, NULL); break;
		case OP_DEV: bwrap_opt(out, "--dev", op->dest, NULL); break;
		case OP_MQUEUE: bwrap_opt(out, "--mqueue", op->dest, NULL); break;
		case OP_TMP_OVERLAY:
			return cc_fail(err, "tmp-overlay %s: bubblewrap 0.8 has no "
				       "equivalent", op->dest);
		case OP_HOME_TMPFS:
			return cc_fail(err, "home-tmpfs %s: bubblewrap 0.8 has no "
				       "equivalent (a tmpfs seeded from a skeleton)",
				       op->dest);
		case OP_NAME_SERVICE:
			/* bubblewrap's nearest: no noexec, no owner checks. */
			bwrap_opt(out, "--ro-bind-try", op->source, op->dest);
			break;
		case OP_UNAVAILABLE:
			/* bubblewrap makes a missing destination: only the
			 * programs this host has. */
			if (plan_unavailable_present(op->dest))
				bwrap_opt(out, "--ro-bind", op->source, op->dest);
			break;
		case OP_PRIVATE_TMP:
			if (op->source)
				return cc_fail(err, "private-tmp %s: bubblewrap 0.8 has no "
					       "equivalent (a persistent instance made "
					       "safely at login)", op->dest);
			sb_addf(out, " --perms %04o --size %llu", op->mode, op->size);
			bwrap_opt(out, "--tmpfs", op->dest, NULL);
			break;
		}
	}
	static const struct { unsigned flag; const char *opt; } ns[] = {
		{ NS_PID, "--unshare-pid" }, { NS_NET, "--unshare-net" },
		{ NS_IPC, "--unshare-ipc" }, { NS_UTS, "--unshare-uts" },
		{ NS_CGROUP, "--unshare-cgroup" }, { NS_USER, "--unshare-user" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++)
		if (plan->namespaces & ns[i].flag)
			sb_addf(out, " %s", ns[i].opt);
	if (plan->hostname)
		bwrap_opt(out, "--hostname", plan->hostname, NULL);
	if (plan->new_session)
		sb_addf(out, " --new-session");
	if (plan->clearenv)
		sb_addf(out, " --clearenv");
	for (size_t i = 0; i < plan->nenv; i++) {
		if (plan->env[i].value)
			bwrap_opt(out, "--setenv", plan->env[i].name, plan->env[i].value);
		else
			bwrap_opt(out, "--unsetenv", plan->env[i].name, NULL);
	}
	bwrap_opt(out, "--chdir", plan->chdir ? plan->chdir : plan->who.home, NULL);
	sb_addf(out, " --die-with-parent --");
	/* The forced command is the command; without one the caller adds
	 * the shell. */
	for (char **w = plan->command; w && *w; w++) {
		sb_addf(out, " ");
		sb_add_shell_word(out, *w);
	}
	return 0;
}
