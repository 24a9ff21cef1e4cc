/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who a session is for: resolved through NSS once, before any sandbox is
 * built, so nothing privileged looks users up afterwards. */
#ifndef COCOON_IDENTITY_H
#define COCOON_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"

struct identity {
	char *user;
	uid_t uid;
	gid_t gid;
	char *group; /* primary group name (the gid as text when unnamed) */
	char *home;
	char *login_shell; /* the passwd entry's shell */
	gid_t *groups;     /* supplementary groups, primary included */
	char **group_names;
	size_t ngroups;
	/* The supplementary groups are not looked up yet (GROUPS_LATER):
	 * identity_complete does it. */
	bool groups_later;
};

/* When the supplementary groups are looked up. The lookup loads the
 * group database's NSS modules (libnss_systemd and the libm it needs
 * here: 480 KiB, and half a millisecond); loaded by a process that waits
 * out a whole session (cocoonctl run, cocoon-shell), they stay mapped
 * for it. GROUPS_LATER leaves the lookup to whoever needs the groups:
 * the policy's [group] rules, pam_cocoon's exempt=@GROUP, or the
 * session process, which execs (pam_cocoon's builds and exits). Either
 * way the list is complete or an error (name_service.h). */
enum identity_groups { GROUPS_NOW, GROUPS_LATER };

/* Look the account named USER up with NSS. A name only: a service may
 * open sessions for names NSS does not know (virtual FTP users), and
 * "0" must not become root. An error's cause tells "no such account"
 * (CC_NOT_FOUND) from "the account database could not be asked"
 * (CC_UNREACHABLE). */
int identity_lookup(const char *user, enum identity_groups when,
		    struct identity *who, struct cc_error *err);
/* The same, or, when no account has that name, a numeric ARG as a uid:
 * for an administrator's command line (cocoonctl explain 1001). */
int identity_lookup_name_or_uid(const char *arg, enum identity_groups when,
				struct identity *who, struct cc_error *err);
/* Same for a uid (cocoon-shell's real uid). */
int identity_lookup_uid(uid_t uid, enum identity_groups when,
			struct identity *who, struct cc_error *err);
/* Look up the supplementary groups left for later (nothing to do when
 * they are known). */
int identity_complete(struct identity *who, struct cc_error *err);
bool identity_in_group(const struct identity *who, const char *group);
void identity_copy(struct identity *dst, const struct identity *src);
void identity_free(struct identity *who);

#ifndef COCOON_BINDIR
#define COCOON_BINDIR "/usr/local/bin"
#endif
#define COCOON_SHELL_PATH COCOON_BINDIR "/cocoon-shell"
/* Whether the login shell SHELL is cocoon-shell: INSTALLED (this build's,
 * COCOON_SHELL_PATH, or an image's), any file of that name, or the file
 * INSTALLED is under another name (a symbolic or hard link). */
bool identity_is_cocoon_shell(const char *shell, const char *installed);

/* UID_MIN from login.defs (1000 when absent). */
uid_t identity_uid_min(const char *login_defs_path);
/* UID_MAX from login.defs (60000 when absent): above it, no person's
 * account (nobody is 65534). */
uid_t identity_uid_max(const char *login_defs_path);

#define COCOON_SHELLS_FILE "/etc/shells"
/* Whether the shells file PATH (/etc/shells) lists SHELL: su lets a
 * caller choose another shell (-s) only for a target whose login shell is
 * listed, and chsh changes only a listed shell. */
bool shells_lists(const char *path, const char *shell);

#endif
