/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accounts and groups asked of each NSS source of nsswitch.conf, so that
 * a source that cannot be reached is told apart from one that has no
 * such entry, and a group list is complete or an error. */
#ifndef COCOON_NAME_SERVICE_H
#define COCOON_NAME_SERVICE_H

#include <pwd.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"

/* What an answer says. NAME_NOT_FOUND: every source consulted answered
 * that it has no such entry. NAME_UNREACHABLE: a source could not be
 * asked (err names it and its errno: "sss: Connection refused");
 * NAME_ERROR: anything else (err says what). err->cause follows. */
enum name_answer { NAME_FOUND, NAME_NOT_FOUND, NAME_UNREACHABLE, NAME_ERROR };

/* A passwd entry and the buffer its strings live in. */
struct name_passwd {
	struct passwd pw;
	char *buf;
};

enum name_answer name_service_user_by_name(const char *name, struct name_passwd *out,
					   struct cc_error *err);
enum name_answer name_service_user_by_uid(uid_t uid, struct name_passwd *out,
					  struct cc_error *err);
void name_service_passwd_free(struct name_passwd *entry);
/* The name of group GID (*name allocated when found). */
enum name_answer name_service_group_name(gid_t gid, char **name, struct cc_error *err);
/* Whether a group is named NAME. */
enum name_answer name_service_group_by_name(const char *name, struct cc_error *err);
/* USER's groups, PRIMARY first, each once: every source of initgroups
 * (or group) asked through its initgroups_dyn function, or by walking
 * its groups where it has none, as getgrouplist asks them; but where
 * getgrouplist skips a source that cannot be reached, this fails. */
enum name_answer name_service_group_list(const char *user, gid_t primary, gid_t **groups,
					 size_t *count, struct cc_error *err);

/* For the unit tests only (built with COCOON_NAME_SERVICE_TESTS, never
 * shipped): read NSSWITCH (NULL: /etc/nsswitch.conf) and look for
 * libnss_SOURCE.so.2 in MODULE_DIR before the library path (NULL: only
 * there). */
void name_service_configure(const char *nsswitch, const char *module_dir);

#endif
