// SPDX-License-Identifier: GPL-2.0-or-later
/* Who a session is for, through name_service; login shells and login.defs. */
#include "identity.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "line_reader.h"
#include "name_service.h"
#include "util.h"

/* GID's name, or the gid as text when no source names it. */
static int group_name(gid_t gid, char **name, struct cc_error *err)
{
	switch (name_service_group_name(gid, name, err)) {
	case NAME_FOUND:
		return 0;
	case NAME_NOT_FOUND:
		*name = xasprintf("%u", (unsigned)gid);
		return 0;
	default:
		return cc_prefix(err, "looking up group %u", (unsigned)gid);
	}
}

/* The supplementary groups (primary included) and their names: all of
 * them or an error, never the part that the reachable sources gave. */
static int list_groups(struct identity *who, struct cc_error *err)
{
	gid_t *groups;
	size_t n;
	if (name_service_group_list(who->user, who->gid, &groups, &n, err) != NAME_FOUND)
		return cc_prefix(err, "the groups of %s", who->user);
	char **names = xcalloc(n, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		if (group_name(groups[i], &names[i], err) < 0) {
			while (i--)
				free(names[i]);
			free(names);
			free(groups);
			return -1;
		}
	who->groups = groups;
	who->group_names = names;
	who->ngroups = n;
	who->groups_later = false;
	return 0;
}

int identity_complete(struct identity *who, struct cc_error *err)
{
	return who->groups_later ? list_groups(who, err) : 0;
}

static int fill_from_passwd(const struct passwd *pw, enum identity_groups when,
			    struct identity *who, struct cc_error *err)
{
	memset(who, 0, sizeof(*who));
	/* The primary group's name (%g) comes from the entry that files
	 * hold for it: no other module is loaded for it. */
	char *group;
	if (group_name(pw->pw_gid, &group, err) < 0)
		return -1;
	who->group = group;
	who->user = xstrdup(pw->pw_name);
	who->uid = pw->pw_uid;
	who->gid = pw->pw_gid;
	who->home = xstrdup(pw->pw_dir ? pw->pw_dir : "");
	who->login_shell = xstrdup(pw->pw_shell ? pw->pw_shell : "");
	who->groups_later = true;
	if (when == GROUPS_NOW && list_groups(who, err) < 0) {
		identity_free(who);
		return -1;
	}
	return 0;
}

/* An answer of name_service as identity's result: the entry, or an
 * error whose cause says "no such account" (CC_NOT_FOUND) apart from
 * "the account database could not be asked" (CC_UNREACHABLE). */
static int from_answer(enum name_answer answer, struct name_passwd *entry,
		       enum identity_groups when, struct identity *who, const char *what,
		       struct cc_error *err)
{
	if (answer != NAME_FOUND)
		return cc_prefix(err, "looking up %s", what);
	int rc = fill_from_passwd(&entry->pw, when, who, err);
	name_service_passwd_free(entry);
	return rc;
}

/* USER by name; with UID_FALLBACK, a numeric USER that no account has as
 * its name is taken as a uid. */
static int lookup_name(const char *user, bool uid_fallback, enum identity_groups when,
		       struct identity *who, struct cc_error *err)
{
	struct name_passwd entry;
	enum name_answer answer = name_service_user_by_name(user, &entry, err);
	if (answer == NAME_NOT_FOUND && uid_fallback && user[0] &&
	    strspn(user, "0123456789") == strlen(user) && strlen(user) < 11) {
		unsigned long uid = strtoul(user, NULL, 10);
		if (uid <= 0xfffffffeUL)
			return identity_lookup_uid((uid_t)uid, when, who, err);
	}
	if (answer == NAME_NOT_FOUND)
		return cc_fail_cause(err, CC_NOT_FOUND, "unknown user '%s'", user);
	char what[300];
	snprintf(what, sizeof(what), "user '%s'", user);
	return from_answer(answer, &entry, when, who, what, err);
}

int identity_lookup(const char *user, enum identity_groups when,
		    struct identity *who, struct cc_error *err)
{
	return lookup_name(user, false, when, who, err);
}

int identity_lookup_name_or_uid(const char *arg, enum identity_groups when,
				struct identity *who, struct cc_error *err)
{
	return lookup_name(arg, true, when, who, err);
}

int identity_lookup_uid(uid_t uid, enum identity_groups when,
			struct identity *who, struct cc_error *err)
{
	struct name_passwd entry;
	enum name_answer answer = name_service_user_by_uid(uid, &entry, err);
	if (answer == NAME_NOT_FOUND)
		return cc_fail_cause(err, CC_NOT_FOUND, "uid %u has no passwd entry",
				     (unsigned)uid);
	char what[32];
	snprintf(what, sizeof(what), "uid %u", (unsigned)uid);
	return from_answer(answer, &entry, when, who, what, err);
}

bool identity_in_group(const struct identity *who, const char *group)
{
	for (size_t i = 0; i < who->ngroups; i++)
		if (strcmp(who->group_names[i], group) == 0)
			return true;
	return false;
}

void identity_copy(struct identity *dst, const struct identity *src)
{
	dst->user = xstrdup(src->user);
	dst->uid = src->uid;
	dst->gid = src->gid;
	dst->group = xstrdup(src->group);
	dst->home = xstrdup(src->home);
	dst->login_shell = xstrdup(src->login_shell);
	dst->groups_later = src->groups_later;
	dst->ngroups = src->ngroups;
	dst->groups = xcalloc(src->ngroups, sizeof(gid_t));
	dst->group_names = xcalloc(src->ngroups, sizeof(char *));
	for (size_t i = 0; i < src->ngroups; i++) {
		dst->groups[i] = src->groups[i];
		dst->group_names[i] = xstrdup(src->group_names[i]);
	}
}

void identity_free(struct identity *who)
{
	free(who->user);
	free(who->group);
	free(who->home);
	free(who->login_shell);
	for (size_t i = 0; i < who->ngroups; i++)
		if (who->group_names)
			free(who->group_names[i]);
	free(who->group_names);
	free(who->groups);
	memset(who, 0, sizeof(*who));
}

/* The value of a "KEY N" line (0: not one). */
static unsigned long uid_line(const char *line, const char *key)
{
	size_t klen = strlen(key);
	const char *p = line + strspn(line, " \t");
	if (strncmp(p, key, klen) != 0 || (p[klen] != ' ' && p[klen] != '\t'))
		return 0;
	p += klen + strspn(p + klen, " \t");
	char *end;
	errno = 0;
	unsigned long value = strtoul(p, &end, 10);
	if (end == p || errno || (*end != '\0' && !isspace((unsigned char)*end)) ||
	    value >= 0x7fffffff)
		return 0;
	return value;
}

/* KEY's value in the login.defs at PATH, FALLBACK when it has none. */
static uid_t login_defs_uid(const char *path, const char *key, uid_t fallback)
{
	uid_t uid_min = fallback;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return uid_min;
	/* Read whole and searched for the key: stdio and a parse of each of
	 * the file's ~300 lines were a tenth of a login's own work. Every
	 * line counts, however long the file (the last UID_MIN wins). */
	size_t cap = 16384, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		/* 16 MiB: no login.defs, but a device put in its place. */
		if (len == cap - 1 && cap >= (16u << 20))
			break;
		if (len == cap - 1)
			buf = xreallocarray(buf, cap *= 2, 1);
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	for (char *line = buf, *end = buf + len; line < end;) {
		char *eol = memchr(line, '\n', (size_t)(end - line));
		if (eol)
			*eol = '\0';
		unsigned long value = uid_line(line, key);
		if (value)
			uid_min = (uid_t)value;
		line = eol ? eol + 1 : end;
	}
	free(buf);
	return uid_min;
}

uid_t identity_uid_min(const char *path)
{
	return login_defs_uid(path, "UID_MIN", 1000);
}

uid_t identity_uid_max(const char *path)
{
	return login_defs_uid(path, "UID_MAX", 60000);
}

bool identity_is_cocoon_shell(const char *shell, const char *installed)
{
	const char *base = strrchr(shell, '/');
	if (strcmp(shell, installed) == 0 ||
	    strcmp(base ? base + 1 : shell, "cocoon-shell") == 0)
		return true;
	/* The same file by another name: a link, a copy's hard link. */
	struct stat a, b;
	return shell[0] == '/' && stat(shell, &a) == 0 && stat(installed, &b) == 0 &&
	       stat_same_file(&a, &b);
}

/* As glibc's getusershell, which su and chsh consult, reads the file: on
 * each line the word from the first '/' to a space or '#' (a line with
 * '#' before any '/' holds none); and with no readable file, or one
 * listing no shell, /bin/sh and /bin/csh (glibc 2.36 takes an empty
 * file as empty, later ones fall back: either way, listed counts). */
bool shells_lists(const char *path, const char *wanted)
{
	bool fallback = strcmp(wanted, "/bin/sh") == 0 || strcmp(wanted, "/bin/csh") == 0;
	struct line_reader r;
	if (line_reader_open(&r, path, NULL) < 0)
		return fallback;
	bool found = false, any = false;
	while (!found && line_reader_next(&r, NULL) > 0) {
		char *shell = r.line + strcspn(r.line, "#/");
		if (*shell != '/' || shell[1] == '\0')
			continue;
		size_t len = 0;
		while (shell[len] && shell[len] != '#' && !isspace((unsigned char)shell[len]))
			len++;
		any = true;
		found = strlen(wanted) == len && strncmp(shell, wanted, len) == 0;
	}
	line_reader_close(&r);
	return found || (!any && fallback);
}
