// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding and reading the policy's files, each one trusted. */
/* Finding and reading policy files: like sudoers, a policy file and every
 * directory above it must pass the trust rule (trusted_file.h), or the
 * policy is refused. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy.h"
#include "trusted_file.h"
#include "util.h"
#include "words.h"

#define MAX_POLICY_SIZE (1024 * 1024)

static const char *remember_file(struct policy *policy, const char *path)
{
	char **slot = ARRAY_PUSH(policy->files, policy->nfiles, policy->files_cap);
	*slot = xstrdup(path);
	return *slot;
}

/* A candidate read in place of the installed file at AS (`check --as`,
 * `edit`): the policy as it would be once the candidate is installed. */
struct substitute {
	const char *as;
	const char *candidate;
	bool unreadable; /* set when the candidate itself could not be read */
};

/* The candidate's text under its own name, so that findings point at the
 * file the administrator (or Ansible) has in hand. It is not judged by
 * the trust rule: it is not where cocoon reads, and a tool's temporary
 * copy (root's 0600 file under ~/.ansible/tmp) is not meant to be. The
 * directory it is installed into is (policy_load_candidate). */
static int load_candidate(struct policy *policy, struct substitute *sub,
			  struct cc_error *err)
{
	char *text AUTOFREE = NULL;
	size_t len;
	if (read_regular_file(sub->candidate, MAX_POLICY_SIZE, false, &text, &len, err) < 0) {
		sub->unreadable = true;
		return -1;
	}
	policy_parse_text(policy, remember_file(policy, sub->candidate), text, len);
	return 0;
}

/* Read one policy file. missing_ok: ENOENT returns 1 and does nothing. */
static int load_file(struct policy *policy, const char *path, bool missing_ok,
		     struct substitute *sub, struct cc_error *err)
{
	if (sub && strcmp(path, sub->as) == 0)
		return load_candidate(policy, sub, err);
	struct stat st;
	if (missing_ok && lstat(path, &st) < 0 && errno == ENOENT)
		return 1;
	char *text AUTOFREE = NULL;
	size_t len;
	if (read_trusted_file(path, MAX_POLICY_SIZE, &text, &len, err) < 0)
		return -1;
	policy_parse_text(policy, remember_file(policy, path), text, len);
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_dropin_name(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".conf") == 0;
}

/* PATH's file name when PATH is DIR/NAME, else NULL. */
static const char *path_in_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (strncmp(path, dir, n) != 0 || path[n] != '/' || strchr(path + n + 1, '/'))
		return NULL;
	return path + n + 1;
}

/* The drop-ins (*.conf) in C-locale byte order, with SUB's in its place
 * when it is one of them. Returns how many. */
static int load_dropins(struct policy *policy, const char *dir, struct substitute *sub,
			struct cc_error *err)
{
	struct stat st;
	if (lstat(dir, &st) < 0 && errno == ENOENT)
		return 0;
	/* Judge the directory itself, even when it holds no file yet. */
	if (path_trusted(dir, err) < 0)
		return -1;
	char **names = NULL;
	size_t n = 0, cap = 0;
	{
		DIR *d AUTOCLOSEDIR = opendir(dir);
		if (!d)
			return cc_fail_errno(err, "%s", dir);
		struct dirent *e;
		while ((e = readdir(d)))
			if (is_dropin_name(e->d_name))
				*ARRAY_PUSH(names, n, cap) = xstrdup(e->d_name);
	}
	/* A new drop-in: not there yet, read where it will sort. */
	const char *sub_name = sub ? path_in_dir(sub->as, dir) : NULL;
	bool listed = false;
	for (size_t i = 0; sub_name && i < n; i++)
		listed |= strcmp(names[i], sub_name) == 0;
	if (sub_name && !listed)
		*ARRAY_PUSH(names, n, cap) = xstrdup(sub_name);
	qsort(names, n, sizeof(*names), compare_names);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *path AUTOFREE = xasprintf("%s/%s", dir, names[i]);
		if (load_file(policy, path, false, sub, err) < 0)
			rc = -1;
	}
	words_free(names, n);
	return rc < 0 ? -1 : (int)n;
}

/* The system policy: cocoon.conf then the drop-ins, SUB (or NULL) read in
 * place of the file it replaces. */
static int load_system(struct policy *policy, struct substitute *sub, struct cc_error *err)
{
	int main_rc = load_file(policy, COCOON_POLICY_FILE, true, sub, err);
	if (main_rc < 0)
		return -1;
	int dropins = load_dropins(policy, COCOON_DROPIN_DIR, sub, err);
	if (dropins < 0)
		return -1;
	if (main_rc == 1 && dropins == 0) {
		/* Nothing installed: the embedded default is the whole policy. */
		static const char whole[] = "[default]\nprofile = default\n";
		policy->embedded_only = true;
		policy_parse_text(policy, COCOON_EMBEDDED_NAME, whole, sizeof(whole) - 1);
	}
	return 0;
}

int policy_load(struct policy *policy, const char *config, struct cc_error *err)
{
	policy_parse_text(policy, COCOON_EMBEDDED_NAME, cocoon_default_profile,
			  strlen(cocoon_default_profile));
	if (config)
		return load_file(policy, config, false, NULL, err) < 0 ? -1 : 0;
	return load_system(policy, NULL, err);
}

/* The canonical form of DIR (realpath), or a copy of DIR when it does not
 * resolve, so that comparing two spellings of one place works. */
static char *canonical_dir(const char *dir)
{
	char *real = realpath(dir, NULL);
	return real ? real : xstrdup(dir);
}

int policy_load_candidate(struct policy *policy, const char *candidate, const char *as,
			  struct cc_error *err)
{
	struct substitute sub = { .as = as, .candidate = candidate };
	policy_parse_text(policy, COCOON_EMBEDDED_NAME, cocoon_default_profile,
			  strlen(cocoon_default_profile));
	if (!as)
		return load_candidate(policy, &sub, err) < 0 ? -2 : 0;
	const char *slash = strrchr(as, '/');
	if (as[0] != '/' || !slash[1]) {
		cc_fail(err, "%s: not the absolute path of a file", as);
		return -2;
	}
	char *dir AUTOFREE = xstrndup(as, (size_t)(slash - as));
	const char *base = slash + 1;
	char *real_dir AUTOFREE = canonical_dir(*dir ? dir : "/");
	char *main_dir AUTOFREE = xstrndup(COCOON_POLICY_FILE,
					   strlen(COCOON_POLICY_FILE) - strlen("/cocoon.conf"));
	char *real_main_dir AUTOFREE = canonical_dir(main_dir);
	char *real_dropin_dir AUTOFREE = canonical_dir(COCOON_DROPIN_DIR);
	char *installed AUTOFREE = NULL;
	int rc;
	/* Trust is the installed place's: the directory the file goes into. */
	if (path_trusted(*dir ? dir : "/", err) < 0) {
		cc_prefix(err, "%s cannot be installed as %s", candidate, as);
		return -1;
	}
	if (strcmp(real_dir, real_main_dir) == 0 && strcmp(base, "cocoon.conf") == 0) {
		sub.as = COCOON_POLICY_FILE;
		rc = load_system(policy, &sub, err);
	} else if (strcmp(real_dir, real_dropin_dir) == 0) {
		if (!is_dropin_name(base)) {
			cc_fail(err, "%s: cocoon reads only the files named *.conf (not "
				"starting with a dot) in %s", as, COCOON_DROPIN_DIR);
			return -2;
		}
		sub.as = installed = xasprintf("%s/%s", COCOON_DROPIN_DIR, base);
		rc = load_system(policy, &sub, err);
	} else {
		/* A file of its own, as `--config AS` reads it. */
		rc = load_candidate(policy, &sub, err);
	}
	if (rc < 0 && sub.unreadable)
		rc = -2;
	return rc;
}

/* Fill the new file FD (named TMP) with TEXT and make it durable, owned
 * and moded like the shipped file. */
static int fill_new_file(int fd, const char *tmp, const char *text, size_t len,
			 struct cc_error *err)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return cc_fail_errno(err, "writing %s", tmp);
		done += (size_t)n;
	}
	/* Root's alone, like the shipped file: sessions that bind /etc
	 * would show every user's rules to every confined user. */
	if (fchown(fd, 0, 0) < 0 || fchmod(fd, 0600) < 0 || fsync(fd) < 0)
		return cc_fail_errno(err, "preparing %s", tmp);
	return 0;
}

int policy_install_text(const char *target, const char *text, size_t len,
			struct cc_error *err)
{
	char *dir AUTOFREE = xstrdup(target);
	char *slash = strrchr(dir, '/');
	if (!slash || target[0] != '/')
		return cc_fail(err, "%s: not an absolute path", target);
	*slash = '\0';
	const char *dir_path = *dir ? dir : "/";
	char *tmp AUTOFREE = xasprintf("%s/.%s.new.XXXXXX", dir_path, slash + 1);
	if (path_trusted(dir_path, err) < 0)
		return -1;
	int fd AUTOCLOSE = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "creating %s", tmp);
	/* From here the temporary file is ours: removed on any failure. */
	if (fill_new_file(fd, tmp, text, len, err) < 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, target) < 0) {
		cc_fail_errno(err, "renaming %s to %s", tmp, target);
		unlink(tmp);
		return -1;
	}
	/* The rename itself must reach the disk before we say it did. */
	int dfd AUTOCLOSE = open(dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		fsync(dfd);
	return 0;
}
