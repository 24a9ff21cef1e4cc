/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The words of the plan's enumerated values, both ways (plan_values.c). */
#ifndef COCOON_PLAN_VALUES_H
#define COCOON_PLAN_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

#include "error.h"
#include "plan.h"

/* What a domain keeps its processes from reaching outside it (ABI 6,
 * Linux 6.12): abstract unix sockets bound by processes outside, and
 * signals to them. The bits are the kernel's own. */
#define LL_SCOPE_ABSTRACT_UNIX (1u << 0)
#define LL_SCOPE_SIGNAL (1u << 1)
#define LL_SCOPE_ALL (LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL)
#define LL_SCOPE_MIN_ABI 6

/* The op's directive name as the policy spells it ("ro-bind-try"). */
const char *plan_op_type_name(enum op_type type, bool optional);
/* The op as written, "ro-bind SRC DEST" or "tmpfs DEST", into BUF. */
void plan_op_describe(const struct fs_op *op, char *buf, size_t size);
const char *plan_home_mode_name(enum home_mode mode);
const char *plan_private_tmp_name(enum private_tmp mode);
int plan_parse_home_mode(const char *word, enum home_mode *out, struct cc_error *err);
int plan_parse_private_tmp(const char *word, enum private_tmp *out, struct cc_error *err);

/* unshare: namespace names (NS_* bits), or none. */
int plan_parse_namespaces(char *const *words, size_t count, unsigned *out,
			  struct cc_error *err);
/* Namespace names separated by spaces ("pid ipc uts") into BUF. */
void plan_ns_format(unsigned namespaces, char *buf, size_t size);

/* landlock-scope: abstract-unix and signal (LL_SCOPE_* bits), or none. */
int plan_parse_landlock_scope(char *const *words, size_t count, unsigned *out,
			      struct cc_error *err);
/* The scope's words, "abstract-unix signal" or "none", into BUF. */
void plan_landlock_scope_format(unsigned scope, char *buf, size_t size);

/* What an rlimit's words count. */
enum plan_rlimit_unit { RLIMIT_UNIT_NONE, UNIT_COUNT, UNIT_SIZE, UNIT_SECONDS };
/* The RLIMIT_* number of NAME ("nproc", the directive's name without
 * "rlimit-"), or -1. */
int plan_rlimit_by_name(const char *name);
/* "nproc" for RLIMIT_NPROC; NULL for a limit cocoon does not set. */
const char *plan_rlimit_name(int resource);
/* RLIMIT_UNIT_NONE for a limit cocoon does not set. */
enum plan_rlimit_unit plan_rlimit_unit(int resource);
/* "unlimited" or the number, into buf. */
void plan_rlimit_format(rlim_t value, char *buf, size_t size);

#endif
