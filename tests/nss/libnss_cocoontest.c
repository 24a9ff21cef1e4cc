// SPDX-License-Identifier: GPL-2.0-or-later
/* A test NSS source whose answers a file controls, for the outage tests
 * (never installed). Built as libnss_SOURCE.so.2; it reads STATE_DIR/
 * SOURCE.state at every call, lines of:
 *   user NAME UID GID HOME SHELL
 *   group NAME GID MEMBER,MEMBER...   (members may be empty: "-")
 *   down [ERRNO]   every call answers UNAVAIL with ERRNO (a number;
 *                  ECONNREFUSED when absent), as a client whose daemon
 *                  is stopped
 *   busy           every call answers TRYAGAIN with EAGAIN
 * No file: UNAVAIL with ENOENT. Built with NO_INITGROUPS, it has no
 * initgroups_dyn, so that callers walk its groups instead. */
#include <errno.h>
#include <grp.h>
#include <nss.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(name) CAT(CAT(_nss_, SOURCE), CAT(_, name))
#define STR2(x) #x
#define STR(x) STR2(x)

struct entry {
	char kind[8], name[64], home[128], shell[128], members[512];
	unsigned long id, gid;
};

static size_t enum_at;

/* The state's Nth entry of KIND; the status to answer otherwise. */
static enum nss_status nth_entry(const char *kind, size_t n, struct entry *e, int *errnop)
{
	FILE *f = fopen(STATE_DIR "/" STR(SOURCE) ".state", "re");
	if (!f) {
		*errnop = ENOENT;
		return NSS_STATUS_UNAVAIL;
	}
	char line[1024];
	enum nss_status status = NSS_STATUS_NOTFOUND;
	/* An outage answers everything, wherever its line is. */
	while (status == NSS_STATUS_NOTFOUND && fgets(line, sizeof(line), f)) {
		int code = 0;
		if (strncmp(line, "down", 4) == 0) {
			sscanf(line, "down %d", &code);
			*errnop = code ? code : ECONNREFUSED;
			status = NSS_STATUS_UNAVAIL;
		} else if (strncmp(line, "busy", 4) == 0) {
			*errnop = EAGAIN;
			status = NSS_STATUS_TRYAGAIN;
		}
	}
	rewind(f);
	while (status == NSS_STATUS_NOTFOUND && fgets(line, sizeof(line), f)) {
		memset(e, 0, sizeof(*e));
		int got = sscanf(line, "%7s %63s %lu %lu %127s %127s", e->kind, e->name, &e->id,
				 &e->gid, e->home, e->shell);
		if (strcmp(e->kind, "group") == 0)
			got = sscanf(line, "%7s %63s %lu %511s", e->kind, e->name, &e->id,
				     e->members) == 4 ? 6 : 0;
		if (got == 6 && strcmp(e->kind, kind) == 0 && n-- == 0)
			status = NSS_STATUS_SUCCESS;
	}
	fclose(f);
	return status;
}

/* S into the caller's buffer. */
static char *put(char **buf, size_t *left, const char *s)
{
	size_t len = strlen(s) + 1;
	if (len > *left)
		return NULL;
	char *at = memcpy(*buf, s, len);
	*buf += len;
	*left -= len;
	return at;
}

static enum nss_status fill_passwd(const struct entry *e, struct passwd *pw, char *buf,
				   size_t len, int *errnop)
{
	pw->pw_uid = (uid_t)e->id;
	pw->pw_gid = (gid_t)e->gid;
	if (!(pw->pw_name = put(&buf, &len, e->name)) || !(pw->pw_passwd = put(&buf, &len, "x")) ||
	    !(pw->pw_gecos = put(&buf, &len, "")) || !(pw->pw_dir = put(&buf, &len, e->home)) ||
	    !(pw->pw_shell = put(&buf, &len, e->shell))) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	return NSS_STATUS_SUCCESS;
}

static enum nss_status fill_group(const struct entry *e, struct group *gr, char *buf,
				  size_t len, int *errnop)
{
	char members[512];
	snprintf(members, sizeof(members), "%s", strcmp(e->members, "-") ? e->members : "");
	size_t count = 1;
	for (char *c = members; *c; c++)
		count += *c == ',';
	size_t need = (count + 1) * sizeof(char *);
	if (len < need + 8) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	char **mem = (char **)(void *)buf;
	buf += need;
	len -= need;
	size_t i = 0;
	gr->gr_gid = (gid_t)e->id;
	if (!(gr->gr_name = put(&buf, &len, e->name)) || !(gr->gr_passwd = put(&buf, &len, "x"))) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	for (char *save = NULL, *m = strtok_r(members, ",", &save); m;
	     m = strtok_r(NULL, ",", &save))
		if (!(mem[i++] = put(&buf, &len, m))) {
			*errnop = ERANGE;
			return NSS_STATUS_TRYAGAIN;
		}
	mem[i] = NULL;
	gr->gr_mem = mem;
	return NSS_STATUS_SUCCESS;
}

/* The entry of KIND named NAME, or with id ID when NAME is NULL. */
static enum nss_status find(const char *kind, const char *name, unsigned long id,
			    struct entry *e, int *errnop)
{
	enum nss_status st;
	for (size_t n = 0; (st = nth_entry(kind, n, e, errnop)) == NSS_STATUS_SUCCESS; n++)
		if (name ? strcmp(e->name, name) == 0 : e->id == id)
			break;
	return st;
}

enum nss_status FN(getpwnam_r)(const char *name, struct passwd *pw, char *buf, size_t len,
			       int *errnop)
{
	struct entry e;
	enum nss_status st = find("user", name, 0, &e, errnop);
	return st == NSS_STATUS_SUCCESS ? fill_passwd(&e, pw, buf, len, errnop) : st;
}

enum nss_status FN(getpwuid_r)(uid_t uid, struct passwd *pw, char *buf, size_t len,
			       int *errnop)
{
	struct entry e;
	enum nss_status st = find("user", NULL, uid, &e, errnop);
	return st == NSS_STATUS_SUCCESS ? fill_passwd(&e, pw, buf, len, errnop) : st;
}

enum nss_status FN(getgrnam_r)(const char *name, struct group *gr, char *buf, size_t len,
			       int *errnop)
{
	struct entry e;
	enum nss_status st = find("group", name, 0, &e, errnop);
	return st == NSS_STATUS_SUCCESS ? fill_group(&e, gr, buf, len, errnop) : st;
}

enum nss_status FN(getgrgid_r)(gid_t gid, struct group *gr, char *buf, size_t len,
			       int *errnop)
{
	struct entry e;
	enum nss_status st = find("group", NULL, gid, &e, errnop);
	return st == NSS_STATUS_SUCCESS ? fill_group(&e, gr, buf, len, errnop) : st;
}

enum nss_status FN(setgrent)(int stayopen)
{
	(void)stayopen;
	enum_at = 0;
	return NSS_STATUS_SUCCESS;
}

enum nss_status FN(endgrent)(void)
{
	return NSS_STATUS_SUCCESS;
}

enum nss_status FN(getgrent_r)(struct group *gr, char *buf, size_t len, int *errnop)
{
	struct entry e;
	enum nss_status st = nth_entry("group", enum_at, &e, errnop);
	if (st == NSS_STATUS_SUCCESS && (st = fill_group(&e, gr, buf, len, errnop)) ==
					    NSS_STATUS_SUCCESS)
		enum_at++;
	return st;
}

#ifndef NO_INITGROUPS
static int has_member(const char *members, const char *user)
{
	char copy[512];
	snprintf(copy, sizeof(copy), "%s", members);
	for (char *save = NULL, *m = strtok_r(copy, ",", &save); m;
	     m = strtok_r(NULL, ",", &save))
		if (strcmp(m, user) == 0)
			return 1;
	return 0;
}

enum nss_status FN(initgroups_dyn)(const char *user, gid_t skip, long *start, long *size,
				   gid_t **groupsp, long limit, int *errnop)
{
	struct entry e;
	enum nss_status st;
	int any = 0;
	for (size_t n = 0; (st = nth_entry("group", n, &e, errnop)) == NSS_STATUS_SUCCESS; n++) {
		if (e.id == skip || !has_member(e.members, user))
			continue;
		if (*start == *size) {
			if (limit > 0 && *size >= limit)
				break;
			gid_t *bigger = realloc(*groupsp, (size_t)*size * 2 * sizeof(gid_t));
			if (!bigger) {
				*errnop = ENOMEM;
				return NSS_STATUS_TRYAGAIN;
			}
			*groupsp = bigger;
			*size *= 2;
		}
		(*groupsp)[(*start)++] = (gid_t)e.id;
		any = 1;
	}
	if (st != NSS_STATUS_NOTFOUND)
		return st;
	return any ? NSS_STATUS_SUCCESS : NSS_STATUS_NOTFOUND;
}
#endif
