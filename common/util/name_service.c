// SPDX-License-Identifier: GPL-2.0-or-later
/* NSS sources asked directly, as glibc would, their answers classified. */
/* Each NSS source of nsswitch.conf asked directly (libnss_SOURCE.so.2),
 * its status actions honoured, its answer classified. */
#include "name_service.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/lib-names.h>
#include <grp.h>
#include <nss.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsswitch.h"
#include "util.h"

#ifdef COCOON_NAME_SERVICE_TESTS
/* Only in the unit tests' copy of this file (the Makefile's
 * NSS_TEST_OBJ): the shipped library reads nothing but the host's. */
static const char *nsswitch_path = NSSWITCH_PATH;
static const char *test_module_dir;

void name_service_configure(const char *nsswitch, const char *module_dir)
{
	nsswitch_path = nsswitch ? nsswitch : NSSWITCH_PATH;
	test_module_dir = module_dir;
}
#else
static const char *const nsswitch_path = NSSWITCH_PATH;
static const char *const test_module_dir = NULL;
#endif

/* Why the last module that exists could not be loaded (dlerror's text). */
static char load_failure[256];

/* Whether dlerror's WHY says that FILE itself is not there: "FILE: ...:
 * " and ENOENT's text, in the locale both come in (errno is not kept by
 * dlopen). A library the module needs that is missing is named instead
 * of FILE, and counts as a failure. */
static bool module_missing(const char *file, const char *why)
{
	const char *enoent = strerror(ENOENT);
	size_t f = strlen(file), w = strlen(why), t = strlen(enoent);
	return strncmp(why, file, f) == 0 && why[f] == ':' && w >= f + t + 2 &&
	       strcmp(why + w - t, enoent) == 0 && strncmp(why + w - t - 2, ": ", 2) == 0;
}

/* libnss_SOURCE.so.2 by FILE, or NULL: *FAILED says whether it is there
 * but could not be loaded. Only a file that is not there is a missing
 * module; any other failure (a descriptor or memory limit the caller
 * set, a broken file) must not pass for a source without entries, which
 * would drop that source's groups from a list. */
static void *module_open(const char *file, bool *failed)
{
	void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	const char *why = handle ? NULL : dlerror();
	*failed = !handle && !(why && module_missing(file, why));
	if (*failed)
		snprintf(load_failure, sizeof(load_failure), "%s", why ? why : file);
	return handle;
}

/* The C library, where glibc 2.34 and later keep the "files" source
 * itself (libnss_files.so.2 is an empty library that needs it), as
 * glibc's own lookups use it; NULL on a C library without it. Not
 * loading that library saves a dlopen at every login: 0.3 ms of the
 * decision on a slow host (tests/bench/steps-notes.md). */
static void *builtin_files(void)
{
	void *libc = dlopen(LIBC_SO, RTLD_NOW | RTLD_NOLOAD);
	if (libc && !dlsym(libc, "_nss_files_getpwnam_r")) {
		dlclose(libc);
		libc = NULL;
	}
	return libc;
}

/* _nss_SOURCE_FUNCTION of libnss_SOURCE.so.2, loaded as glibc loads it
 * (by name, from the library path: a set-user-ID program's loader
 * ignores LD_LIBRARY_PATH), and never unloaded, as glibc never unloads
 * one. NULL: no such module or function, or, with *FAILED, a module
 * that is there but could not be loaded (load_failure says why). */
static void *module_function(const char *source, const char *function, bool *failed)
{
	/* The handles of the modules loaded so far: a lookup asks the same
	 * few modules several times (a dlopen of a loaded one still walks
	 * the loader's lists under its lock). */
	static struct {
		char name[65];
		void *handle;
	} loaded[8];
	*failed = false;
	/* nsswitch.conf is root's, but a name goes into a file name. */
	if (!source[0] || strlen(source) > 64 || strchr(source, '/'))
		return NULL;
	char file[128], symbol[160];
	void *handle = NULL;
	size_t slot = 0;
	while (slot < 8 && loaded[slot].handle && strcmp(loaded[slot].name, source) != 0)
		slot++;
	if (slot < 8 && loaded[slot].handle)
		handle = loaded[slot].handle;
	if (!handle && test_module_dir) {
		snprintf(file, sizeof(file), "%s/libnss_%s.so.2", test_module_dir, source);
		handle = module_open(file, failed);
		if (*failed)
			return NULL;
	}
	if (!handle && strcmp(source, "files") == 0)
		handle = builtin_files();
	snprintf(file, sizeof(file), "libnss_%s.so.2", source);
	if (!handle)
		handle = module_open(file, failed);
	if (!handle)
		return NULL;
	if (slot < 8 && !loaded[slot].handle) {
		snprintf(loaded[slot].name, sizeof(loaded[slot].name), "%s", source);
		loaded[slot].handle = handle;
	}
	snprintf(symbol, sizeof(symbol), "_nss_%s_%s", source, function);
	return dlsym(handle, symbol);
}

/* What a source's status means. libnss_systemd answers UNAVAIL with
 * ESRCH when no userdb service listens (systemd-userdbd not running) and
 * ENOENT without /run/systemd/userdb: it then has nothing but the root
 * and nobody it makes up itself, which it answers without a daemon. */
static enum name_answer classify(const char *source, enum nss_status status, int errnum)
{
	switch (status) {
	case NSS_STATUS_SUCCESS:
		return NAME_FOUND;
	case NSS_STATUS_NOTFOUND:
		return NAME_NOT_FOUND;
	case NSS_STATUS_UNAVAIL:
	case NSS_STATUS_TRYAGAIN:
		if (strcmp(source, "systemd") == 0 && (errnum == ESRCH || errnum == ENOENT))
			return NAME_NOT_FOUND;
		return NAME_UNREACHABLE;
	default:
		return NAME_ERROR;
	}
}

static enum name_answer unreachable(const char *what, const char *source, int errnum,
				    struct cc_error *err)
{
	cc_fail_cause(err, CC_UNREACHABLE, "%s could not be asked (%s: %s)", what, source,
		      errnum ? strerror(errnum) : "unavailable");
	return NAME_UNREACHABLE;
}

static enum name_answer unloadable(const char *what, const char *source,
				   struct cc_error *err)
{
	cc_fail_cause(err, CC_UNREACHABLE, "%s could not be asked (%s: %s)", what, source,
		      load_failure);
	return NAME_UNREACHABLE;
}

static enum name_answer odd_status(const char *source, enum nss_status status,
				   struct cc_error *err)
{
	cc_fail(err, "NSS source %s answered status %d", source, (int)status);
	return NAME_ERROR;
}

/* One entry lookup: CALL asks a module's FN into RESULT with BUF. */
typedef enum nss_status (*entry_call)(void *fn, const void *key, void *result, char *buf,
				      size_t len, int *errnop);

/* The first source that has the entry answers; one that cannot be
 * reached before it is an error; a [STATUS=return] stops the walk. */
static enum name_answer entry_walk(enum nsswitch_db db, const char *function,
				   entry_call call, const void *key, void *result,
				   char **bufp, const char *what, struct cc_error *err)
{
	struct nsswitch_sources sources;
	if (nsswitch_read(nsswitch_path, db, &sources, err) < 0)
		return NAME_ERROR;
	enum name_answer answer = NAME_NOT_FOUND;
	size_t len = 1024;
	char *buf = xmalloc(len);
	for (size_t i = 0; i < sources.count; i++) {
		const struct nsswitch_source *src = &sources.items[i];
		bool failed;
		void *fn = module_function(src->name, function, &failed);
		if (failed) {
			answer = unloadable(what, src->name, err);
			break;
		}
		enum nss_status status = NSS_STATUS_UNAVAIL;
		int errnum = 0;
		/* No module, no function: as glibc, UNAVAIL that never had
		 * an entry to give, so not an outage. */
		while (fn) {
			errnum = 0;
			status = call(fn, key, result, buf, len, &errnum);
			if (status != NSS_STATUS_TRYAGAIN || errnum != ERANGE || len >= (1u << 24))
				break;
			buf = xreallocarray(buf, len *= 2, 1);
		}
		enum name_answer a = fn ? classify(src->name, status, errnum) : NAME_NOT_FOUND;
		if (a == NAME_UNREACHABLE)
			answer = unreachable(what, src->name, errnum, err);
		else if (a == NAME_ERROR)
			answer = odd_status(src->name, status, err);
		else if (a == NAME_FOUND)
			answer = NAME_FOUND;
		if (a != NAME_NOT_FOUND ||
		    nsswitch_action_after(src, status) == NSSWITCH_RETURN)
			break;
	}
	nsswitch_free(&sources);
	if (answer == NAME_FOUND)
		*bufp = buf;
	else
		free(buf);
	return answer;
}

typedef enum nss_status (*getpwnam_fn)(const char *, struct passwd *, char *, size_t, int *);
typedef enum nss_status (*getpwuid_fn)(uid_t, struct passwd *, char *, size_t, int *);
typedef enum nss_status (*getgrgid_fn)(gid_t, struct group *, char *, size_t, int *);
typedef enum nss_status (*getgrnam_fn)(const char *, struct group *, char *, size_t, int *);

static enum nss_status call_getpwnam(void *fn, const void *key, void *result, char *buf,
				     size_t len, int *errnop)
{
	return ((getpwnam_fn)fn)(key, result, buf, len, errnop);
}

static enum nss_status call_getpwuid(void *fn, const void *key, void *result, char *buf,
				     size_t len, int *errnop)
{
	return ((getpwuid_fn)fn)(*(const uid_t *)key, result, buf, len, errnop);
}

static enum nss_status call_getgrgid(void *fn, const void *key, void *result, char *buf,
				     size_t len, int *errnop)
{
	return ((getgrgid_fn)fn)(*(const gid_t *)key, result, buf, len, errnop);
}

static enum nss_status call_getgrnam(void *fn, const void *key, void *result, char *buf,
				     size_t len, int *errnop)
{
	return ((getgrnam_fn)fn)(key, result, buf, len, errnop);
}

static enum name_answer user_answer(enum name_answer a, const char *what,
				    struct name_passwd *out, struct cc_error *err)
{
	if (a == NAME_NOT_FOUND)
		cc_fail_cause(err, CC_NOT_FOUND, "%s has no passwd entry", what);
	if (a != NAME_FOUND)
		memset(out, 0, sizeof(*out));
	return a;
}

enum name_answer name_service_user_by_name(const char *name, struct name_passwd *out,
					   struct cc_error *err)
{
	char what[300];
	snprintf(what, sizeof(what), "user '%s'", name);
	return user_answer(entry_walk(NSSWITCH_PASSWD, "getpwnam_r", call_getpwnam, name,
				      &out->pw, &out->buf, "the account database", err),
			   what, out, err);
}

enum name_answer name_service_user_by_uid(uid_t uid, struct name_passwd *out,
					  struct cc_error *err)
{
	char what[32];
	snprintf(what, sizeof(what), "uid %u", (unsigned)uid);
	return user_answer(entry_walk(NSSWITCH_PASSWD, "getpwuid_r", call_getpwuid, &uid,
				      &out->pw, &out->buf, "the account database", err),
			   what, out, err);
}

void name_service_passwd_free(struct name_passwd *entry)
{
	free(entry->buf);
	memset(entry, 0, sizeof(*entry));
}

enum name_answer name_service_group_name(gid_t gid, char **name, struct cc_error *err)
{
	struct group gr;
	char *buf = NULL;
	enum name_answer a = entry_walk(NSSWITCH_GROUP, "getgrgid_r", call_getgrgid, &gid,
					&gr, &buf, "the group database", err);
	if (a == NAME_FOUND)
		*name = xstrdup(gr.gr_name);
	else if (a == NAME_NOT_FOUND)
		cc_fail_cause(err, CC_NOT_FOUND, "gid %u has no group entry", (unsigned)gid);
	free(buf);
	return a;
}

enum name_answer name_service_group_by_name(const char *name, struct cc_error *err)
{
	struct group gr;
	char *buf = NULL;
	enum name_answer a = entry_walk(NSSWITCH_GROUP, "getgrnam_r", call_getgrnam, name,
					&gr, &buf, "the group database", err);
	if (a == NAME_NOT_FOUND)
		cc_fail_cause(err, CC_NOT_FOUND, "group '%s' has no entry", name);
	free(buf);
	return a;
}

typedef enum nss_status (*initgroups_fn)(const char *, gid_t, long *, long *, gid_t **,
					 long, int *);
typedef enum nss_status (*setgrent_fn)(int);
typedef enum nss_status (*getgrent_fn)(struct group *, char *, size_t, int *);
typedef enum nss_status (*endgrent_fn)(void);

/* The list being built: glibc's initgroups_dyn arguments. */
struct gid_list {
	gid_t *groups;
	long start, size;
};

static void gid_list_add(struct gid_list *l, gid_t gid)
{
	for (long i = 0; i < l->start; i++)
		if (l->groups[i] == gid)
			return;
	if (l->start == l->size)
		l->groups = xreallocarray(l->groups, (size_t)(l->size *= 2), sizeof(gid_t));
	l->groups[l->start++] = gid;
}

static bool lists_member(char **members, const char *user)
{
	for (char **m = members; m && *m; m++)
		if (strcmp(*m, user) == 0)
			return true;
	return false;
}

/* A module without initgroups_dyn: every group of it, as glibc's
 * compat-initgroups walks them. */
static enum nss_status walk_groups(const char *source, const char *user, gid_t primary,
				   struct gid_list *l, int *errnop)
{
	/* The module is loaded by now (name_service_group_list). */
	bool failed;
	setgrent_fn set = (setgrent_fn)module_function(source, "setgrent", &failed);
	getgrent_fn get = (getgrent_fn)module_function(source, "getgrent_r", &failed);
	endgrent_fn end = (endgrent_fn)module_function(source, "endgrent", &failed);
	if (!get)
		return NSS_STATUS_UNAVAIL;
	errno = 0;
	enum nss_status status = set ? set(1) : NSS_STATUS_SUCCESS;
	*errnop = errno;
	size_t len = 1024;
	char *buf = xmalloc(len);
	bool any = false;
	while (status == NSS_STATUS_SUCCESS) {
		struct group gr;
		*errnop = 0;
		status = get(&gr, buf, len, errnop);
		if (status == NSS_STATUS_TRYAGAIN && *errnop == ERANGE && len < (1u << 24)) {
			buf = xreallocarray(buf, len *= 2, 1);
			status = NSS_STATUS_SUCCESS;
		} else if (status == NSS_STATUS_SUCCESS && gr.gr_gid != primary &&
			   lists_member(gr.gr_mem, user)) {
			gid_list_add(l, gr.gr_gid);
			any = true;
		}
	}
	if (end)
		end();
	free(buf);
	/* NOTFOUND ends the walk: the source answered in full. */
	if (status == NSS_STATUS_NOTFOUND)
		return any ? NSS_STATUS_SUCCESS : NSS_STATUS_NOTFOUND;
	return status;
}

/* One source's groups of USER into L; its status. */
static enum nss_status source_groups(const char *source, const char *user, gid_t primary,
				     struct gid_list *l, int *errnop)
{
	bool failed;
	initgroups_fn fn = (initgroups_fn)module_function(source, "initgroups_dyn", &failed);
	*errnop = 0;
	if (!fn)
		return walk_groups(source, user, primary, l, errnop);
	/* The module may grow the array (realloc) without limit (-1). */
	long before = l->start;
	enum nss_status status = fn(user, primary, &l->start, &l->size, &l->groups, -1, errnop);
	if (l->start < before || l->start > l->size)
		return NSS_STATUS_RETURN; /* not a list: classified as an error */
	return status;
}

enum name_answer name_service_group_list(const char *user, gid_t primary, gid_t **groups,
					 size_t *count, struct cc_error *err)
{
	struct nsswitch_sources sources;
	if (nsswitch_read(nsswitch_path, NSSWITCH_INITGROUPS, &sources, err) < 0)
		return NAME_ERROR;
	struct gid_list l = { xcalloc(16, sizeof(gid_t)), 1, 16 };
	l.groups[0] = primary;
	enum name_answer answer = NAME_FOUND;
	for (size_t i = 0; i < sources.count && answer == NAME_FOUND; i++) {
		const struct nsswitch_source *src = &sources.items[i];
		int errnum = 0;
		/* A missing module: UNAVAIL, nothing to give (as entry_walk);
		 * one there but not loaded: its groups are not known. */
		bool failed;
		bool loaded = module_function(src->name, "initgroups_dyn", &failed) ||
			      (!failed && module_function(src->name, "getgrent_r", &failed));
		if (failed) {
			answer = unloadable("the group database", src->name, err);
			break;
		}
		enum nss_status status = loaded ? source_groups(src->name, user, primary, &l,
								&errnum)
						: NSS_STATUS_UNAVAIL;
		enum name_answer a = loaded ? classify(src->name, status, errnum)
					    : NAME_NOT_FOUND;
		if (a == NAME_UNREACHABLE)
			answer = unreachable("the group database", src->name, errnum, err);
		else if (a == NAME_ERROR)
			answer = odd_status(src->name, status, err);
		/* As glibc: SUCCESS=return counts on an initgroups line only. */
		else if (nsswitch_action_after(src, status) == NSSWITCH_RETURN &&
			 (sources.initgroups_line || status != NSS_STATUS_SUCCESS))
			break;
	}
	nsswitch_free(&sources);
	if (answer != NAME_FOUND) {
		free(l.groups);
		return answer;
	}
	/* Each once: a module may repeat one another gave. */
	size_t n = 0;
	for (long i = 0; i < l.start; i++) {
		size_t j = 0;
		while (j < n && l.groups[j] != l.groups[i])
			j++;
		if (j == n)
			l.groups[n++] = l.groups[i];
	}
	*groups = l.groups;
	*count = n;
	return NAME_FOUND;
}
