// SPDX-License-Identifier: GPL-2.0-or-later
/* The words of the plan's enumerated values, both ways. */
/* Namespaces, Landlock scopes, home and private-tmp modes, op types,
 * resource limits: one table per value, read by the policy, the records
 * and the printers. */
#include "plan_values.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "util.h"

const char *plan_op_type_name(enum op_type type, bool optional)
{
	switch (type) {
	case OP_BIND: return optional ? "bind-try" : "bind";
	case OP_RO_BIND: return optional ? "ro-bind-try" : "ro-bind";
	case OP_DEV_BIND: return optional ? "dev-bind-try" : "dev-bind";
	case OP_REMOUNT_RO: return "remount-ro";
	case OP_TMPFS: return "tmpfs";
	case OP_DIR: return "dir";
	case OP_SYMLINK: return "symlink";
	case OP_FILE: return "file";
	case OP_CHMOD: return "chmod";
	case OP_PROC: return "proc";
	case OP_DEV: return "dev";
	case OP_MQUEUE: return "mqueue";
	case OP_TMP_OVERLAY: return "tmp-overlay";
	case OP_HOME_TMPFS: return "home-tmpfs";
	case OP_PRIVATE_TMP: return "private-tmp";
	case OP_NAME_SERVICE: return "name-service";
	case OP_UNAVAILABLE: return "unavailable";
	}
	return "?";
}

void plan_op_describe(const struct fs_op *op, char *buf, size_t size)
{
	const char *name = plan_op_type_name(op->type, op->optional);
	if (op->source && strcmp(op->source, op->dest) != 0)
		snprintf(buf, size, "%s %s %s", name, op->source, op->dest);
	else
		snprintf(buf, size, "%s %s", name, op->dest);
}

const char *plan_home_mode_name(enum home_mode mode)
{
	switch (mode) {
	case HOME_BIND: return "bind";
	case HOME_TMPFS: return "tmpfs";
	case HOME_OVERLAY: return "overlay";
	case HOME_NONE: return "none";
	}
	return "?";
}

const char *plan_private_tmp_name(enum private_tmp mode)
{
	switch (mode) {
	case PRIVATE_TMP_NO: return "no";
	case PRIVATE_TMP_SESSION: return "session";
	case PRIVATE_TMP_PERSISTENT: return "persistent";
	}
	return "?";
}

struct flag_name {
	const char *name;
	unsigned flag;
};

static const struct flag_name namespace_names[] = {
	{ "pid", NS_PID }, { "net", NS_NET }, { "ipc", NS_IPC },
	{ "uts", NS_UTS }, { "cgroup", NS_CGROUP }, { "user", NS_USER },
	{ "all", NS_ALL },
};

static const struct flag_name scope_names[] = {
	{ "abstract-unix", LL_SCOPE_ABSTRACT_UNIX }, { "signal", LL_SCOPE_SIGNAL },
};

/* Words naming flags of NAMES (N of them), or "none" alone; WHAT and
 * CHOICES make the message for any other word. */
static int parse_flag_words(char *const *words, size_t count, const struct flag_name *names,
			    size_t n, const char *what, const char *choices, unsigned *out,
			    struct cc_error *err)
{
	unsigned flags = 0;
	for (size_t i = 0; i < count; i++) {
		size_t k = 0;
		while (k < n && strcmp(words[i], names[k].name) != 0)
			k++;
		if (k < n)
			flags |= names[k].flag;
		else if (strcmp(words[i], "none") != 0 || count != 1)
			return cc_fail(err, "unknown %s '%s' (%s, or none alone)", what,
				       words[i], choices);
	}
	*out = flags;
	return 0;
}

int plan_parse_namespaces(char *const *words, size_t count, unsigned *out,
			  struct cc_error *err)
{
	return parse_flag_words(words, count, namespace_names,
				ARRAY_SIZE(namespace_names),
				"namespace", "pid net ipc uts cgroup user all", out, err);
}

int plan_parse_landlock_scope(char *const *words, size_t count, unsigned *out,
			      struct cc_error *err)
{
	return parse_flag_words(words, count, scope_names,
				ARRAY_SIZE(scope_names),
				"landlock-scope", "abstract-unix signal", out, err);
}

void plan_landlock_scope_format(unsigned scope, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", scope & LL_SCOPE_ABSTRACT_UNIX ? "abstract-unix" : "",
		 (scope & LL_SCOPE_ALL) == LL_SCOPE_ALL ? " " : "",
		 scope & LL_SCOPE_SIGNAL ? "signal" : (scope ? "" : "none"));
}

void plan_ns_format(unsigned namespaces, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t k = 0; k + 1 < ARRAY_SIZE(namespace_names); k++) {
		if (!(namespaces & namespace_names[k].flag))
			continue;
		int n = snprintf(buf + used, size - used, "%s%s", used ? " " : "",
				 namespace_names[k].name);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
}

int plan_parse_home_mode(const char *word, enum home_mode *out, struct cc_error *err)
{
	static const enum home_mode modes[] = { HOME_BIND, HOME_TMPFS, HOME_OVERLAY,
						HOME_NONE };
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (strcmp(word, plan_home_mode_name(modes[i])) == 0) {
			*out = modes[i];
			return 0;
		}
	return cc_fail(err, "home takes bind, tmpfs, overlay or none, not '%s'", word);
}

int plan_parse_private_tmp(const char *word, enum private_tmp *out, struct cc_error *err)
{
	static const enum private_tmp modes[] = { PRIVATE_TMP_NO, PRIVATE_TMP_SESSION,
						  PRIVATE_TMP_PERSISTENT };
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (strcmp(word, plan_private_tmp_name(modes[i])) == 0) {
			*out = modes[i];
			return 0;
		}
	return cc_fail(err, "private-tmp takes no, session or persistent, not '%s'",
		       word);
}

static const struct {
	const char *name;
	int resource;
	enum plan_rlimit_unit unit;
} rlimits[] = {
	{ "nproc", RLIMIT_NPROC, UNIT_COUNT },
	{ "nofile", RLIMIT_NOFILE, UNIT_COUNT },
	{ "as", RLIMIT_AS, UNIT_SIZE },
	{ "fsize", RLIMIT_FSIZE, UNIT_SIZE },
	{ "cpu", RLIMIT_CPU, UNIT_SECONDS },
	{ "core", RLIMIT_CORE, UNIT_SIZE },
	{ "memlock", RLIMIT_MEMLOCK, UNIT_SIZE },
};
#define NRLIMITS ARRAY_SIZE(rlimits)

int plan_rlimit_by_name(const char *name)
{
	for (size_t i = 0; i < NRLIMITS; i++)
		if (strcmp(rlimits[i].name, name) == 0)
			return rlimits[i].resource;
	return -1;
}

enum plan_rlimit_unit plan_rlimit_unit(int resource)
{
	for (size_t i = 0; i < NRLIMITS; i++)
		if (rlimits[i].resource == resource)
			return rlimits[i].unit;
	return RLIMIT_UNIT_NONE;
}

const char *plan_rlimit_name(int resource)
{
	for (size_t i = 0; i < NRLIMITS; i++)
		if (rlimits[i].resource == resource)
			return rlimits[i].name;
	return NULL;
}

void plan_rlimit_format(rlim_t value, char *buf, size_t size)
{
	if (value == RLIM_INFINITY)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu", (unsigned long long)value);
}
