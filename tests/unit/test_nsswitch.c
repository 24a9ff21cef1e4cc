// SPDX-License-Identifier: GPL-2.0-or-later
/* nsswitch.conf as glibc 2.36 reads it: the sources of passwd, group and
 * initgroups, their [STATUS=ACTION] criteria, and the defaults. */
#include <stdlib.h>
#include <unistd.h>

#include "nsswitch.h"
#include "tap.h"
#include "util.h"

static char path[] = "/tmp/cocoon-nsswitch-unit.XXXXXX";

/* "name:ACTIONS ..." where ACTIONS gives T U N S as c, r or m. */
static char *describe(const char *text, enum nsswitch_db db)
{
	tap_write_file(path, text);
	struct nsswitch_sources s;
	struct cc_error err;
	if (nsswitch_read(path, db, &s, &err) < 0)
		return xasprintf("ERR %s", strstr(err.msg, ": ") ? strstr(err.msg, ": ") + 2
								 : err.msg);
	struct strbuf out = { 0 };
	sb_addf(&out, "%s", s.initgroups_line ? "(initgroups)" : "");
	for (size_t i = 0; i < s.count; i++) {
		sb_addf(&out, "%s%s:", i || s.initgroups_line ? " " : "", s.items[i].name);
		for (size_t a = 0; a < 4; a++)
			sb_addf(&out, "%c", "crm"[s.items[i].action[a]]);
	}
	nsswitch_free(&s);
	return out.data ? sb_steal(&out) : xstrdup("");
}

static void expect(const char *text, enum nsswitch_db db, const char *want, const char *name)
{
	char *got = describe(text, db);
	tap_is_str(got, want, name);
	free(got);
}

/* Status order in the actions: TRYAGAIN UNAVAIL NOTFOUND SUCCESS. */
static const struct {
	const char *text;
	enum nsswitch_db db;
	const char *want, *name;
} cases[] = {
	{ "passwd: files systemd\ngroup: files\n", NSSWITCH_PASSWD,
	  "files:cccr systemd:cccr",
	  "sources in order, SUCCESS returns by default" },
	{ "passwd:files sss\n", NSSWITCH_PASSWD,
	  "files:cccr sss:cccr",
	  "no space after the colon" },
	{ "passwd: files\npasswd: sss\n", NSSWITCH_PASSWD,
	  "sss:cccr",
	  "the last line of a database wins" },
	{ "# comment\nhosts: dns\n", NSSWITCH_PASSWD,
	  "files:cccr",
	  "no passwd line: files" },
	{ "group: files\n", NSSWITCH_PASSWD,
	  "files:cccr",
	  "nor from group's" },
	{ "group: files ldap\n", NSSWITCH_INITGROUPS,
	  "files:cccr ldap:cccr",
	  "no initgroups line: group's sources" },
	{ "", NSSWITCH_INITGROUPS,
	  "files:cccr",
	  "nor group: files" },
	{ "group: files\ninitgroups: sss [NOTFOUND=return] files\n", NSSWITCH_INITGROUPS,
	  "(initgroups) sss:ccrr files:cccr",
	  "an initgroups line of its own" },
	{ "passwd: sss [NOTFOUND=return UNAVAIL=continue] files\n", NSSWITCH_PASSWD,
	  "sss:ccrr files:cccr",
	  "two criteria" },
	{ "passwd: sss [!UNAVAIL=return] files\n", NSSWITCH_PASSWD,
	  "sss:rcrr files:cccr",
	  "! sets every other status" },
	{ "passwd: sss [ notfound = Return ] files\n", NSSWITCH_PASSWD,
	  "sss:ccrr files:cccr",
	  "case and spaces inside the brackets" },
	{ "passwd: files [SUCCESS=merge] sss\n", NSSWITCH_PASSWD,
	  "files:cccm sss:cccr",
	  "merge" },
	{ "passwd: files[NOTFOUND=return]\n", NSSWITCH_PASSWD,
	  "files:ccrr",
	  "criteria right after the name" },
	{ "passwd: files # sss\n", NSSWITCH_PASSWD,
	  "files:cccr #:cccr sss:cccr",
	  "'#' after sources is no comment to glibc: it names a module" },
	{ "#passwd: sss\n", NSSWITCH_PASSWD,
	  "files:cccr",
	  "a commented-out line" },
	{ "  passwd  :: files\n", NSSWITCH_PASSWD,
	  "files:cccr",
	  "spaces before, colons and spaces after the name" },
	{ "passwd:\n", NSSWITCH_PASSWD,
	  "",
	  "an empty line: no source, no default" },
	{ "passwd: [NOTFOUND=return] files\n", NSSWITCH_PASSWD,
	  "",
	  "criteria before any source end the list" },
	{ "passwd files\n", NSSWITCH_PASSWD,
	  "files:cccr",
	  "no colon: not a line" },
	{ "passwd: files [FOUND=return]\n", NSSWITCH_PASSWD,
	  "ERR a criterion glibc does not know",
	  "an unknown status" },
	{ "passwd: files [NOTFOUND=stop]\n", NSSWITCH_PASSWD,
	  "ERR a criterion glibc does not know",
	  "an unknown action" },
	{ "passwd: files [NOTFOUND=return\n", NSSWITCH_PASSWD,
	  "ERR a criterion glibc does not know",
	  "an unclosed bracket" },
};

int main(void)
{
	int fd = mkstemp(path);
	if (!tap_ok(fd >= 0, "a temporary file"))
		return tap_done();
	close(fd);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect(cases[i].text, cases[i].db, cases[i].want, cases[i].name);
	unlink(path);
	struct nsswitch_sources s;
	struct cc_error err;
	tap_ok(nsswitch_read(path, NSSWITCH_GROUP, &s, &err) == 0 && s.count == 1 &&
	       strcmp(s.items[0].name, "files") == 0, "no file: files");
	nsswitch_free(&s);
	tap_ok(nsswitch_status_index(NSS_STATUS_RETURN) == 3, "RETURN counts as SUCCESS");
	return tap_done();
}
