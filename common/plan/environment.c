// SPDX-License-Identifier: GPL-2.0-or-later
/* The session's environment: the caller's allow-list, then the plan's. */
#include "environment.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* What a login carries in from the client, the terminal or the PAM
 * stack's root-configured modules; everything else (LD_*, GCONV_PATH,
 * GLIBC_TUNABLES, BASH_ENV, ENV, PATH, IFS, ...) is dropped. An allow-list:
 * a variable that a loader, libc or shell learns to read next year is
 * dropped too. */
static const char *const allowed[] = {
	"TERM", "COLORTERM", "LANG", "LANGUAGE", "TZ", "SSH_CLIENT",
	"SSH_CONNECTION", "SSH_TTY", "SSH_AUTH_SOCK", "SSH_ORIGINAL_COMMAND",
	"KRB5CCNAME", "XDG_SESSION_ID", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS",
	"XDG_SEAT", "XDG_VTNR", NULL,
};

static bool is_locale_name(const char *name, size_t n)
{
	return (n > 3 && strncmp(name, "LC_", 3) == 0) ||
	       (n == 4 && strncmp(name, "LANG", 4) == 0) ||
	       (n == 8 && strncmp(name, "LANGUAGE", 8) == 0);
}

bool environment_name_allowed(const char *name, size_t n)
{
	if (n > 3 && strncmp(name, "LC_", 3) == 0)
		return true;
	for (size_t i = 0; allowed[i]; i++)
		if (strlen(allowed[i]) == n && strncmp(name, allowed[i], n) == 0)
			return true;
	return false;
}

bool environment_entry_allowed(const char *entry)
{
	size_t n = strcspn(entry, "=");
	if (!entry[n] || !environment_name_allowed(entry, n))
		return false;
	/* glibc takes a locale name holding a '/' for the path of locale
	 * data to load, and a TZ beginning with '/' (after an optional ':')
	 * or climbing with ".." for the time zone file to read: files the
	 * user may have written. A zone name (Europe/Vienna) stays. */
	const char *value = entry + n + 1;
	if (is_locale_name(entry, n))
		return !strchr(value, '/');
	if (n == 2 && strncmp(entry, "TZ", 2) == 0)
		return value[value[0] == ':'] != '/' && !strstr(value, "..");
	return true;
}

struct env {
	char **items;
	size_t count, cap;
};

static ssize_t env_find(const struct env *e, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < e->count; i++)
		if (strncmp(e->items[i], name, n) == 0 && e->items[i][n] == '=')
			return (ssize_t)i;
	return -1;
}

static void env_unset(struct env *e, const char *name)
{
	ssize_t i = env_find(e, name);
	if (i < 0)
		return;
	free(e->items[i]);
	memmove(&e->items[i], &e->items[i + 1], (e->count - (size_t)i - 1) * sizeof(char *));
	e->count--;
}

static void env_set(struct env *e, const char *name, const char *value)
{
	env_unset(e, name);
	*ARRAY_PUSH(e->items, e->count, e->cap) = xasprintf("%s=%s", name, value);
}

char **environment_for_session(const struct plan *plan, char *const *caller_env,
			       const char *shell)
{
	struct env e = { 0 };
	if (!plan->clearenv && caller_env)
		for (char *const *p = caller_env; *p; p++)
			if (environment_entry_allowed(*p)) {
				size_t n = strcspn(*p, "=");
				char *name = xstrndup(*p, n);
				env_set(&e, name, *p + n + 1);
				free(name);
			}
	env_set(&e, "HOME", plan->who.home);
	env_set(&e, "USER", plan->who.user);
	env_set(&e, "LOGNAME", plan->who.user);
	env_set(&e, "PATH", COCOON_USER_PATH);
	env_set(&e, "SHELL", shell);
	for (size_t i = 0; i < plan->nenv; i++) {
		if (plan->env[i].value)
			env_set(&e, plan->env[i].name, plan->env[i].value);
		else
			env_unset(&e, plan->env[i].name);
	}
	*ARRAY_PUSH(e.items, e.count, e.cap) = NULL;
	return e.items;
}

void environment_free(char **strv)
{
	if (!strv)
		return;
	for (char **p = strv; *p; p++)
		free(*p);
	free(strv);
}

char **environment_edits(const struct plan *plan, char *const *current, bool clear,
			 const char *session_id)
{
	char **edits = NULL;
	size_t n = 0, cap = 0;
	for (char *const *e = current; e && *e; e++)
		if (clear || !environment_entry_allowed(*e))
			*ARRAY_PUSH(edits, n, cap) = xstrndup(*e, strcspn(*e, "="));
	for (size_t i = 0; plan && i < plan->nenv; i++) {
		const struct env_op *op = &plan->env[i];
		*ARRAY_PUSH(edits, n, cap) = op->value ? xasprintf("%s=%s", op->name, op->value)
						       : xstrdup(op->name);
	}
	if (session_id)
		*ARRAY_PUSH(edits, n, cap) = xasprintf("COCOON_SESSION_ID=%s", session_id);
	*ARRAY_PUSH(edits, n, cap) = NULL;
	return edits;
}
