// SPDX-License-Identifier: GPL-2.0-or-later
/* The allow-list of what a login carries in (cocoon-shell, cocoonctl run,
 * pam_cocoon's cut), and check --pam's reading of sshd's AcceptEnv and
 * PermitUserEnvironment patterns against it. */
#include <stdlib.h>
#include <string.h>

#include "environment.h"
#include "plan_build.h"
#include "sshd_config.h"
#include "tap.h"

static void pattern(const char *list, const char *want, const char *name)
{
	char *got = sshd_unsafe_env_pattern(list);
	tap_is_str(got ? got : "(none)", want, name);
	free(got);
}

static char *joined(char **strv)
{
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	for (char **e = strv; *e; e++)
		sb_addf(&out, "%s%s", e == strv ? "" : " ", *e);
	environment_free(strv);
	return sb_steal(&out);
}

/* pam_cocoon's edits of the PAM environment. */
static void test_edits(void)
{
	char *current[] = { "TERM=xterm", "LD_PRELOAD=/home/u/x.so", "LANG=C.UTF-8", NULL };
	struct plan plan;
	plan_init(&plan);
	plan_add_env(&plan, "EDITOR", "vi");
	plan_add_env(&plan, "LANG", NULL);
	char *got = joined(environment_edits(NULL, current, false, NULL));
	tap_is_str(got, "LD_PRELOAD", "edits: the cut removes what the allow-list refuses");
	free(got);
	got = joined(environment_edits(&plan, current, false, "abc"));
	tap_is_str(got, "LD_PRELOAD EDITOR=vi LANG COCOON_SESSION_ID=abc",
		   "edits: then the plan's setenv and unsetenv, then the session id");
	free(got);
	got = joined(environment_edits(&plan, current, true, "abc"));
	tap_is_str(got, "TERM LD_PRELOAD LANG EDITOR=vi LANG COCOON_SESSION_ID=abc",
		   "edits: clearenv removes everything first");
	free(got);
	plan_free(&plan);
}

int main(void)
{
	test_edits();
	tap_ok(environment_entry_allowed("TERM=xterm"), "TERM passes");
	tap_ok(environment_entry_allowed("LC_TIME=de_DE.UTF-8"), "a locale variable passes");
	tap_ok(environment_entry_allowed("LANG=C.UTF-8"), "LANG passes");
	tap_ok(!environment_entry_allowed("LD_PRELOAD=/home/u/x.so"), "LD_PRELOAD does not");
	tap_ok(!environment_entry_allowed("GCONV_PATH=/home/u"), "GCONV_PATH does not");
	tap_ok(!environment_entry_allowed("GLIBC_TUNABLES=glibc.malloc.check=3"),
	       "GLIBC_TUNABLES does not");
	tap_ok(!environment_entry_allowed("BASH_ENV=/home/u/x"), "BASH_ENV does not");
	tap_ok(!environment_entry_allowed("PATH=/home/u/bin"),
	       "PATH does not (the session sets its own)");
	tap_ok(!environment_entry_allowed("TERMINFO=/home/u/ti"),
	       "a longer name beginning with an allowed one does not");
	tap_ok(!environment_entry_allowed("LC_ALL=/home/u/locale"),
	       "a locale given as a path does not");
	tap_ok(!environment_entry_allowed("LANG=../../home/u/l"), "nor a relative one");
	tap_ok(!environment_entry_allowed("TERM"), "an entry without '=' does not");
	tap_ok(environment_entry_allowed("TZ=Europe/Vienna") &&
	       environment_entry_allowed("TZ=:Europe/Vienna") &&
	       environment_entry_allowed("TZ=CET-1CEST"), "a zone name or a POSIX TZ passes");
	tap_ok(!environment_entry_allowed("TZ=/home/u/tz") &&
	       !environment_entry_allowed("TZ=:/home/u/tz"),
	       "a TZ naming a file does not");
	tap_ok(!environment_entry_allowed("TZ=../../../home/u/tz"),
	       "nor one climbing out of the zone directory");
	tap_ok(environment_name_allowed("SSH_ORIGINAL_COMMAND", strlen("SSH_ORIGINAL_COMMAND")),
	       "SSH_ORIGINAL_COMMAND is a name that passes");

	pattern("LANG,LC_*", "(none)", "Debian's AcceptEnv LANG LC_* stays within the list");
	pattern("LANG,LC_?,TZ", "(none)", "wildcards after LC_ only admit locale variables");
	pattern("LANG,LD_PRELOAD", "LD_PRELOAD", "a literal name outside the list is named");
	pattern("*", "*", "a bare wildcard admits anything");
	pattern("L*", "L*", "so does one before LC_ is spelled out");
	pattern("!LD_*,LANG", "(none)", "a negated pattern only takes away");
	pattern("GIT_*", "GIT_*", "a prefix the list does not have");
	pattern("", "(none)", "an empty list admits nothing");
	return tap_done();
}
