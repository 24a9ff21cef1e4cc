/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parsed policy: sections of directives, each remembering its
 * file:line. Parsing only checks syntax and the shape of each directive;
 * rule_match.c and rule_merge.c turn a rule into a plan. */
#ifndef COCOON_POLICY_H
#define COCOON_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "directives.h"
#include "error.h"

enum section_kind { SECTION_PROFILE, SECTION_USER, SECTION_GROUP, SECTION_DEFAULT };

struct directive {
	const struct directive_spec *spec;
	char **words;
	size_t nwords;
	struct directive_value value; /* the words parsed, once */
	const char *file; /* owned by struct policy */
	int line;
};

struct section {
	enum section_kind kind;
	char *name; /* NULL for [default] */
	const char *file;
	int line;
	bool embedded; /* comes from the compiled-in default */
	struct directive *dirs;
	size_t ndirs, dirs_cap;
};

struct policy {
	struct section *sections;
	size_t nsections, sections_cap;
	char **files;
	size_t nfiles, files_cap;
	bool embedded_only; /* no policy file exists: the embedded default */
	struct diag_list diags;
};

/* Where the system policy lives; fixed at build time. */
#ifndef COCOON_SYSCONFDIR
#define COCOON_SYSCONFDIR "/etc"
#endif
#define COCOON_POLICY_FILE COCOON_SYSCONFDIR "/cocoon/cocoon.conf"
#define COCOON_DROPIN_DIR COCOON_SYSCONFDIR "/cocoon/cocoon.d"

/* Parse text that came from NAME and append its sections. Syntax errors
 * go to policy->diags; returns the number of errors added. */
size_t policy_parse_text(struct policy *policy, const char *name,
			 const char *text, size_t len);

/* Read the system policy (config == NULL: cocoon.conf then the drop-ins)
 * or one file, with the ownership checks, and add the embedded default
 * profile. Returns -1 with err set when a file cannot be trusted or read;
 * syntax errors are in policy->diags. */
int policy_load(struct policy *policy, const char *config,
		struct cc_error *err);

/* The policy as it would be with the file CANDIDATE installed at AS (a
 * tool's validation before it installs; `cocoonctl check --as`, `edit`):
 * AS the main file or a drop-in, the other installed files are read as
 * they are and CANDIDATE in AS's place; AS elsewhere, or NULL: CANDIDATE
 * alone, as a file given with --config. The trust rule applies to the
 * installed files and to AS's directory, not to CANDIDATE, which is
 * reported under its own name. Returns -2 with err set when CANDIDATE
 * cannot be read or AS is no place cocoon reads a policy from (the
 * caller's mistake), -1 when the installed side cannot be trusted or read. */
int policy_load_candidate(struct policy *policy, const char *candidate, const char *as,
			  struct cc_error *err);

/* Replace TARGET with TEXT atomically: a new root-owned 0644 file in the
 * same (trusted) directory, synced, renamed over TARGET. */
int policy_install_text(const char *target, const char *text, size_t len,
			struct cc_error *err);

/* The section's display name, "[user alice]", into buf. */
const char *policy_section_title(const struct section *s, char *buf, size_t size);
/* The section's first (or last) directive ID, or NULL. */
const struct directive *policy_section_find(const struct section *s, enum directive_id id);
const struct directive *policy_section_find_last(const struct section *s, enum directive_id id);
/* Whether the section's `service` list (none: every service) names SERVICE. */
bool policy_section_allows_service(const struct section *s, const char *service);
const struct section *policy_find_profile(const struct policy *policy,
					  const char *name);
void policy_free(struct policy *policy);

/* The compiled-in `default` profile (generated from conf/default.profile). */
extern const char cocoon_default_profile[];
#define COCOON_EMBEDDED_NAME "<embedded default>"

#endif
