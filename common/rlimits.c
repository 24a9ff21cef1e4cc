// SPDX-License-Identifier: GPL-2.0-or-later
#include "rlimits.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "directives.h"

enum rlimit_unit { UNIT_COUNT, UNIT_SIZE, UNIT_SECONDS };

static const struct {
	const char *name;
	int resource;
	enum rlimit_unit unit;
} rlimits[] = {
	{ "nproc", RLIMIT_NPROC, UNIT_COUNT },
	{ "nofile", RLIMIT_NOFILE, UNIT_COUNT },
	{ "as", RLIMIT_AS, UNIT_SIZE },
	{ "fsize", RLIMIT_FSIZE, UNIT_SIZE },
	{ "cpu", RLIMIT_CPU, UNIT_SECONDS },
	{ "core", RLIMIT_CORE, UNIT_SIZE },
	{ "memlock", RLIMIT_MEMLOCK, UNIT_SIZE },
};
#define NRLIMITS (sizeof(rlimits) / sizeof(rlimits[0]))

int rlimit_by_name(const char *name)
{
	for (size_t i = 0; i < NRLIMITS; i++)
		if (strcmp(rlimits[i].name, name) == 0)
			return rlimits[i].resource;
	return -1;
}

static int unit_of(int resource)
{
	for (size_t i = 0; i < NRLIMITS; i++)
		if (rlimits[i].resource == resource)
			return (int)rlimits[i].unit;
	return -1;
}

const char *rlimit_name(int resource)
{
	for (size_t i = 0; i < NRLIMITS; i++)
		if (rlimits[i].resource == resource)
			return rlimits[i].name;
	return NULL;
}

static int parse_value(enum rlimit_unit unit, const char *word, rlim_t *out,
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
	int rc = unit == UNIT_SIZE ? parse_size(word, &v, err)
		 : unit == UNIT_SECONDS ? parse_duration(word, &v, err)
		 : parse_count(word, &v, err);
	if (rc < 0)
		return -1;
	if (v >= RLIM_INFINITY)
		return cc_fail(err, "'%s' is out of range", word);
	*out = (rlim_t)v;
	return 0;
}

int rlimit_parse(int resource, char *const *words, size_t count,
		 struct plan_rlimit *out, struct cc_error *err)
{
	int unit = unit_of(resource);
	if (unit < 0)
		return cc_fail(err, "unknown resource limit %d", resource);
	if (count < 1 || count > 2)
		return cc_fail(err, "a resource limit takes SOFT [HARD]");
	struct plan_rlimit r = { .set = true };
	if (parse_value((enum rlimit_unit)unit, words[0], &r.soft, err) < 0)
		return -1;
	r.hard = r.soft;
	if (count == 2 && parse_value((enum rlimit_unit)unit, words[1], &r.hard, err) < 0)
		return -1;
	if (r.soft > r.hard)
		return cc_fail(err, "the soft limit %s is above the hard limit %s",
			       words[0], words[1]);
	*out = r;
	return 0;
}

void rlimit_format(rlim_t value, char *buf, size_t size)
{
	if (value == RLIM_INFINITY)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu", (unsigned long long)value);
}

static rlim_t min_limit(rlim_t a, rlim_t b)
{
	return a < b ? a : b; /* RLIM_INFINITY is the largest value */
}

int rlimits_apply(const struct session_limits *limits, struct cc_error *err)
{
	for (size_t i = 0; i < NRLIMITS; i++) {
		int res = rlimits[i].resource;
		const struct plan_rlimit *want = &limits->rlimit[res];
		struct rlimit cur;
		if (!want->set)
			continue;
		if (getrlimit(res, &cur) < 0)
			return cc_fail_errno(err, "getrlimit %s", rlimits[i].name);
		struct rlimit next = { .rlim_max = min_limit(want->hard, cur.rlim_max) };
		next.rlim_cur = min_limit(min_limit(want->soft, cur.rlim_cur), next.rlim_max);
		if (setrlimit(res, &next) < 0)
			return cc_fail_errno(err, "setting rlimit-%s", rlimits[i].name);
	}
	return 0;
}
