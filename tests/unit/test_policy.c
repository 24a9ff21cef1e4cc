// SPDX-License-Identifier: GPL-2.0-or-later
/* The policy language: every syntax rule, trap, section rule and check,
 * each asserting the exact file:line of its error. */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "resolve.h"
#include "tap.h"
#include "util.h"

/* Parse TEXT as file "t.conf" after the embedded default, validate, and
 * return every finding as "file:line: level: msg" lines. */
static char *findings(const char *text)
{
	struct policy policy = { 0 };
	policy_parse_text(&policy, COCOON_EMBEDDED_NAME, cocoon_default_profile,
			  strlen(cocoon_default_profile));
	policy_parse_text(&policy, "t.conf", text, strlen(text));
	struct diag_list diags = { 0 };
	for (size_t i = 0; i < policy.diags.count; i++) {
		const struct diag *d = &policy.diags.items[i];
		diag_add(&diags, d->level, d->file, d->line, "%s", d->msg);
	}
	policy_validate(&policy, &diags);
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	for (size_t i = 0; i < diags.count; i++) {
		const struct diag *d = &diags.items[i];
		sb_addf(&out, "%s:%d: %s: %s\n", d->file ? d->file : "-", d->line,
			d->level == DIAG_ERROR ? "error" : "warning", d->msg);
	}
	diag_free(&diags);
	policy_free(&policy);
	return sb_steal(&out);
}

static void expect(const char *text, const char *finding, const char *name)
{
	char *got = findings(text);
	tap_like(got, finding, name);
	free(got);
}

static void expect_clean(const char *text, const char *name)
{
	char *got = findings(text);
	tap_is_str(got, "", name);
	free(got);
}

#define DEFAULT_RULE "[default]\nprofile = default\n"

/* The words of the first directive of the last section. */
static char *first_value(const char *text)
{
	struct policy policy = { 0 };
	policy_parse_text(&policy, "t.conf", text, strlen(text));
	struct strbuf out = { 0 };
	sb_addn(&out, "", 0);
	if (policy.nsections && policy.sections[policy.nsections - 1].ndirs) {
		const struct directive *d = &policy.sections[policy.nsections - 1].dirs[0];
		for (size_t i = 0; i < d->nwords; i++)
			sb_addf(&out, "%s<%s>", i ? " " : "", d->words[i]);
	}
	if (policy.diags.count)
		sb_addf(&out, "ERR %d %s", policy.diags.items[0].line,
			policy.diags.items[0].msg);
	policy_free(&policy);
	return sb_steal(&out);
}

static void expect_words(const char *text, const char *want, const char *name)
{
	char *got = first_value(text);
	tap_is_str(got, want, name);
	free(got);
}

static void test_syntax(void)
{
	expect_clean(DEFAULT_RULE, "the shortest valid policy");
	expect_clean("# comment\n; comment too\n\n" DEFAULT_RULE, "whole-line comments");
	expect_clean("\xef\xbb\xbf" DEFAULT_RULE, "a UTF-8 byte-order mark is skipped");
	expect_clean("[default]\r\nprofile = default\r\n", "CRLF line ends");

	/* inih would cut lines at 200 bytes and start a new key. */
	char longline[400];
	memset(longline, 'a', sizeof(longline));
	snprintf(longline, sizeof(longline), "[profile p]\nsetenv = X %0250d\n", 7);
	char *v = first_value(longline);
	tap_ok(strlen(v) == strlen("<X> <>") + 250 && strstr(v, "7>"),
	       "a 260-byte line keeps its whole value");
	free(v);
	struct strbuf huge = { 0 };
	sb_addf(&huge, DEFAULT_RULE "[profile p]\nsetenv = X ");
	for (int i = 0; i < 4100; i++)
		sb_addn(&huge, "b", 1);
	sb_addf(&huge, "\n");
	expect(huge.data, "t.conf:4: error: line is 4111 bytes long; the limit is 4096",
	       "a line over 4096 bytes is an error at its line");
	sb_free(&huge);

	/* inih would strip "; ..." from values. */
	expect(DEFAULT_RULE "[profile p]\nro-bind = /usr ; system\n",
	       "t.conf:4: error: ';' starts a comment, and comments must be on a line of their own",
	       "an inline ; comment is an error");
	expect(DEFAULT_RULE "[profile p]\nro-bind = /usr # system\n",
	       "t.conf:4: error: '#' starts a comment",
	       "an inline # comment is an error");
	expect_words("[profile p]\nsetenv = X \"a ; b # c\"\n", "<X> <a ; b # c>",
		     "inside double quotes ; and # are plain characters");
	expect_words("[profile p]\nsetenv = X a#b\n", "<X> <a#b>",
		     "# inside a word is a plain character");

	/* inih would join an indented line onto the previous key. */
	expect_words("[profile p]\n    ro-bind = /usr\n", "</usr>",
		     "an indented directive is a directive of its own");
	expect(DEFAULT_RULE "[profile p]\nsetenv = A b\n    c\n",
	       "t.conf:5: error: expected 'key = value', a [section] or a comment",
	       "an indented continuation line is an error");

	/* inih accepts "key: value". */
	expect(DEFAULT_RULE "[profile p]\nro-bind: /usr\n",
	       "t.conf:4: error: expected 'key = value'", "'key: value' is an error");
	expect(DEFAULT_RULE "[profile p]\nRo-Bind = /usr\n",
	       "t.conf:4: error: expected 'key = value'", "keys are lower case");

	/* inih would merge two adjacent sections of the same name. */
	expect(DEFAULT_RULE "[user alice]\nprofile = default\n[user alice]\nhostname = x\n",
	       "t.conf:5: error: duplicate section [user alice] (first at t.conf:3)",
	       "a repeated section is an error naming the first");
	expect(DEFAULT_RULE "[default]\nprofile = default\n",
	       "t.conf:3: error: duplicate section [default] (first at t.conf:1)",
	       "two [default] sections");

	expect(DEFAULT_RULE "[profile p]\nsetenv = X a\x01\n",
	       "t.conf:4: error: control character 0x01 in line", "control characters");
	const char nul[] = "[default]\nprofile = default\nx\0y\n";
	struct policy pol = { 0 };
	policy_parse_text(&pol, "t.conf", nul, sizeof(nul) - 1);
	tap_ok(pol.diags.count == 1 && pol.diags.items[0].line == 3 &&
	       strcmp(pol.diags.items[0].msg, "NUL byte in line") == 0,
	       "a NUL byte is an error at its line");
	policy_free(&pol);

	expect(DEFAULT_RULE "[profile p\n", "t.conf:3: error: section header must end with ']'",
	       "unclosed section header");
	expect(DEFAULT_RULE "[users x]\n", "t.conf:3: error: unknown section '[users x]'",
	       "unknown section kind");
	expect(DEFAULT_RULE "[user]\n", "t.conf:3: error: section '[user]' needs exactly one name",
	       "a user section without a name");
	expect(DEFAULT_RULE "[user a b]\n", "t.conf:3: error: section '[user a b]' needs exactly one name",
	       "a user section with two names");
	expect("[default x]\nprofile = default\n", "t.conf:1: error: [default] takes no name",
	       "[default] with a name");
	expect("ro-bind = /usr\n" DEFAULT_RULE, "t.conf:1: error: 'ro-bind' is outside any section",
	       "a directive before any section");
	expect(DEFAULT_RULE "[profile p]\nro-bnd = /usr\n",
	       "t.conf:4: error: unknown directive 'ro-bnd'", "unknown directive");
	expect(DEFAULT_RULE "[profile p]\nservice = sshd\n",
	       "t.conf:4: error: 'service' is not allowed in [profile p] (only in rules)",
	       "service in a profile");
	expect(DEFAULT_RULE "[profile default]\nro-bind = /usr\n",
	       "t.conf:3: error: profile name 'default' is reserved",
	       "the default profile name is reserved");
}

static void test_words(void)
{
	expect_words("[profile p]\nsetenv = X \"a b\"\n", "<X> <a b>", "double quotes keep spaces");
	expect_words("[profile p]\nsetenv = X \"say \\\"hi\\\"\"\n", "<X> <say \"hi\">",
		     "\\\" inside quotes");
	expect_words("[profile p]\nsetenv = X \"a\\\\b\"\n", "<X> <a\\b>", "\\\\ inside quotes");
	expect_words("[profile p]\nsetenv = X \"\"\n", "<X> <>", "empty quotes are an empty word");
	expect_words("[profile p]\nsetenv = X pre\"mid dle\"post\n", "<X> <premid dlepost>",
		     "quotes join with the letters around them");
	expect_words("[profile p]\nsetenv = X\t \"a\"   \n", "<X> <a>", "tabs separate words");
	expect_words("[profile p]\nsetenv = X \"a\\nb\"\n",
		     "ERR 2 unknown escape '\\n' (only \\\" and \\\\ exist)", "unknown escapes");
	expect_words("[profile p]\nsetenv = X \"open\n", "ERR 2 unterminated double quote",
		     "unterminated quote");
	expect_words("[profile p]\nsetenv = X a\\b\n",
		     "ERR 2 a backslash is only an escape inside double quotes",
		     "a backslash outside quotes");
	expect_words("[profile p]\nsetenv = X 'a b'\n",
		     "ERR 2 single quotes do not quote; use double quotes", "single quotes");
}

static void test_directive_shapes(void)
{
	expect(DEFAULT_RULE "[profile p]\nro-bind = /a /b /c\n",
	       "t.conf:4: error: 'ro-bind' takes SRC [DEST] (got 3 words)", "too many words");
	expect(DEFAULT_RULE "[profile p]\nsymlink = /a\n",
	       "t.conf:4: error: 'symlink' takes TARGET LINK (got 1 word)", "too few words");
	expect(DEFAULT_RULE "[profile p]\nhostname =\n",
	       "t.conf:4: error: 'hostname' takes NAME (got 0 words)", "an empty value");
	expect(DEFAULT_RULE "[profile p]\nbind = /src rel/dest\n",
	       "t.conf:4: error: destination 'rel/dest' is not an absolute path",
	       "a relative destination");
	expect(DEFAULT_RULE "[profile p]\ntmpfs = /a/../etc\n",
	       "t.conf:4: error: destination '/a/../etc' has a '.' or '..' component",
	       "'..' in a path");
	expect(DEFAULT_RULE "[profile p]\nchmod = 0999 /x\n",
	       "t.conf:4: error: '0999' is not an octal mode", "a bad mode");
	expect(DEFAULT_RULE "[profile p]\ndir = /x mode=12345\n",
	       "t.conf:4: error: '12345' is not an octal mode", "a mode too long");
	expect(DEFAULT_RULE "[profile p]\ntmpfs = /x size=12Q\n",
	       "t.conf:4: error: '12Q' is not a size", "a bad size");
	expect(DEFAULT_RULE "[profile p]\ntmpfs = /x size=0\n",
	       "t.conf:4: error: size '0' is out of range", "a zero size");
	expect(DEFAULT_RULE "[profile p]\ntmpfs = /x size=%U\n",
	       "t.conf:4: error: '%U' is not a size", "tokens never reach mount options");
	expect(DEFAULT_RULE "[profile p]\ntmpfs = /x uid=0\n",
	       "t.conf:4: error: unknown option 'uid=0' (size= or mode=)", "unknown tmpfs option");
	expect(DEFAULT_RULE "[profile p]\nbind = /home/%x\n",
	       "t.conf:4: error: unknown token '%x'", "unknown token");
	expect(DEFAULT_RULE "[profile p]\nunshare = pid nett\n",
	       "t.conf:4: error: unknown namespace 'nett'", "unknown namespace");
	expect(DEFAULT_RULE "[profile p]\nno-new-privs = maybe\n",
	       "t.conf:4: error: 'maybe' is not yes or no", "a bad boolean");
	expect(DEFAULT_RULE "[profile p]\nlandlock = maybe\n",
	       "t.conf:4: error: landlock takes best-effort or required", "landlock values");
	expect(DEFAULT_RULE "[profile p]\nlandlock-scope = signal x11\n",
	       "t.conf:4: error: unknown landlock-scope 'x11' (abstract-unix signal, or none alone)",
	       "landlock-scope values");
	expect(DEFAULT_RULE "[profile p]\nlandlock-scope = none signal\n",
	       "t.conf:4: error: unknown landlock-scope 'none'", "none stands alone");
	expect_clean(DEFAULT_RULE "[profile p]\nlandlock-scope = none\n[profile q]\n"
		     "landlock-scope = signal abstract-unix\n", "landlock-scope none, and both");
	expect(DEFAULT_RULE "[profile p]\nbind = /run/user/%U\n",
	       "t.conf:4: warning: bind = /run/user/%U shows the session the sockets of the "
	       "user's systemd manager", "a bind of the user's runtime directory is warned");
	expect(DEFAULT_RULE "[profile p]\nro-bind-try = /run\n",
	       "t.conf:4: warning: ro-bind-try = /run shows the session", "so is one of /run");
	expect(DEFAULT_RULE "[profile p]\nsandbox = off\n",
	       "t.conf:4: error: sandbox takes only 'none'", "sandbox takes only none");
	expect(DEFAULT_RULE "[profile p]\nseccomp = relative.txt\n",
	       "t.conf:4: error: seccomp takes default, none or an absolute file name",
	       "seccomp file must be absolute");
	expect(DEFAULT_RULE "[profile p]\nsetenv = 1X y\n",
	       "t.conf:4: error: '1X' is not an environment variable name", "bad variable name");
	expect(DEFAULT_RULE "[profile p]\nbind = %hx\n",
	       "t.conf:4: error: source '%hx' is not an absolute path (%h may only stand alone or before a '/')",
	       "%h glued to more letters");
	expect(DEFAULT_RULE "[profile p]\nsetenv = X 100%\n",
	       "t.conf:4: error: a lone '%' ends '100%' (write %% for a percent sign)", "a lone %");
	expect(DEFAULT_RULE "[profile p]\nro-bind-tryyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy = /usr\n",
	       "t.conf:4: error: key longer than 64 characters", "an overlong key");
	expect(DEFAULT_RULE "[profile we$ird]\nro-bind = /usr\n",
	       "t.conf:3: error: 'we$ird' is not a valid profile name", "profile names are what profile = accepts");
	expect_clean(DEFAULT_RULE "[user host$]\nprofile = default\n[group staff@example.org]\nprofile = default\n",
		     "user and group names may hold $ and @");
	expect_clean(DEFAULT_RULE "[profile p]\nunshare = all user\ntmpfs = /x size=64M mode=1777\n"
		     "file = /etc/motd \"hello world\" mode=0600\ndir = /d mode=0700\n",
		     "well-formed directives");
}

static void test_structure(void)
{
	expect("[profile p]\nro-bind = /usr\n",
	       "t.conf:0: error: the policy has no [default] section", "a policy needs [default]");
	expect(DEFAULT_RULE "[user bob]\nprofile = nope\n",
	       "t.conf:4: error: unknown profile 'nope'", "unknown profile");
	expect(DEFAULT_RULE "[profile a]\nprofile = b\n[profile b]\nprofile = a\n",
	       "t.conf:6: error: profile cycle: a -> b -> a", "a profile cycle");
	expect(DEFAULT_RULE "[profile a]\nprofile = a\n",
	       "t.conf:4: error: profile cycle: a -> a", "a profile including itself");
	expect(DEFAULT_RULE "[user bob]\nhostname = x\n",
	       "t.conf:3: error: [user bob] names no profile", "a rule without a profile");
	expect_clean(DEFAULT_RULE "[user bob]\nsandbox = none\n",
		     "sandbox = none needs no profile");
	expect(DEFAULT_RULE "[user bob]\nunshare = uts\nprofile = default\n",
	       "t.conf:5: error: 'profile' must come before the other directives of [user bob]",
	       "profile comes first");
	expect(DEFAULT_RULE "[user bob]\nprofile = default\nprofile = default\n",
	       "t.conf:5: error: a rule names one profile", "a rule names one profile");
	expect(DEFAULT_RULE "[user bob]\nprofile = default\nservice = a\nservice = b\n",
	       "t.conf:6: error: 'service' given twice", "service given twice");
	expect(DEFAULT_RULE "[user root]\nprofile = default\n",
	       "t.conf:3: error: rules never apply to root", "a rule naming root");
	expect(DEFAULT_RULE "[profile p]\nhostname = box\n",
	       "t.conf:4: error: 'hostname' needs a uts namespace", "hostname without uts");
	expect(DEFAULT_RULE "[profile p]\nproc = /proc\n",
	       "t.conf:4: error: 'proc' needs a pid namespace", "proc without pid");
	expect(DEFAULT_RULE "[profile p]\nmqueue = /dev/mqueue\n",
	       "t.conf:4: error: 'mqueue' needs an ipc namespace", "mqueue without ipc");
	expect(DEFAULT_RULE "[user bob]\nprofile = default\nunshare = ipc\n",
	       "t.conf:5: error: 'proc' needs a pid namespace (unshare = pid ...): this "
	       "unshare leaves it out, and <embedded default>:13 needs it",
	       "unshare replaces: the rule drops the pid namespace proc needs");
	expect(DEFAULT_RULE "[profile p]\nunshare = uts\nhostname = box\n[user bob]\nprofile = p\nunshare = pid\n",
	       "t.conf:5: error: 'hostname' needs a uts namespace",
	       "the merged rule is checked, not only the profile");
	expect(DEFAULT_RULE "[profile p]\nbind = %h\ndir = %h/made\n",
	       "t.conf:5: error: 'dir %h/made' would create inside '%h', whose source %h a non-root user can write (t.conf:4)",
	       "creating inside a bind of the user's home");
	expect(DEFAULT_RULE "[profile p]\nbind = /tmp /scratch\ntmpfs = /scratch/x\n",
	       "t.conf:5: error: 'tmpfs /scratch/x' would create inside '/scratch'",
	       "mounting inside a bind of world-writable /tmp");
	expect_clean(DEFAULT_RULE "[profile p]\ndir = %h/made\nbind = %h\n",
		     "creating before the user-writable bind is fine");
	expect_clean(DEFAULT_RULE "[profile p]\nro-bind = /usr\ntmpfs = /usr/share/x\n",
		     "creating inside a root-owned bind is fine");
}

static void test_warnings(void)
{
	expect(DEFAULT_RULE "[user bob]\nprofile = default\nseccomp = none\n",
	       "t.conf:3: warning: [user bob] weakens its profile: seccomp = none",
	       "a rule that turns seccomp off");
	expect(DEFAULT_RULE "[user bob]\nprofile = default\nno-new-privs = no\n",
	       "t.conf:3: warning: [user bob] weakens its profile: no-new-privs = no",
	       "a rule that turns no-new-privs off");
	expect(DEFAULT_RULE "[profile p]\nprofile = default\nunshare = pid ipc uts net\n"
	       "[group g]\nprofile = p\nunshare = pid ipc\n",
	       "t.conf:6: warning: [group g] weakens its profile: drops the net uts namespaces",
	       "a rule that drops namespaces");
	expect(DEFAULT_RULE "[profile p]\nprofile = default\nunshare = pid\n",
	       "t.conf:3: warning: [profile p] weakens its profile: drops the ipc uts namespaces",
	       "a profile that weakens the profile it includes");
	expect(DEFAULT_RULE "[user bob]\nprofile = default\nsandbox = none\n",
	       "t.conf:3: warning: [user bob] turns off the sandbox its profile sets up",
	       "a rule that turns the sandbox off");
}

static void test_guest_directives(void)
{
	expect(DEFAULT_RULE "[profile p]\nhome = ramdisk\n",
	       "t.conf:4: error: home takes bind, tmpfs, overlay or none, not 'ramdisk'",
	       "an unknown home mode, at file:line");
	expect(DEFAULT_RULE "[profile p]\nhome = tmpfs overlay\n",
	       "t.conf:4: error: 'home' takes bind|tmpfs|overlay|none (got 2 words)",
	       "home takes one word");
	expect(DEFAULT_RULE "[profile p]\nhome-size = 12Q\n",
	       "t.conf:4: error: '12Q' is not a size", "a bad home-size");
	expect(DEFAULT_RULE "[profile p]\ntmp-size = 0\n",
	       "t.conf:4: error: size '0' is out of range", "a zero tmp-size");
	expect(DEFAULT_RULE "[profile p]\nhome-skel = skel\n",
	       "t.conf:4: error: skeleton 'skel' is not an absolute path", "a relative skeleton");
	expect(DEFAULT_RULE "[profile p]\nhome-skel = %h/skel\n",
	       "t.conf:4: error: home-skel takes no tokens", "a skeleton with tokens");
	expect(DEFAULT_RULE "[profile p]\nprivate-tmp = yes\n",
	       "t.conf:4: error: private-tmp takes no, session or persistent, not 'yes'",
	       "an unknown private-tmp mode");
	expect_clean(DEFAULT_RULE "[profile p]\nhome = overlay\nhome-size = 1G\n"
		     "home-skel = /etc/skel\nprivate-tmp = persistent\ntmp-size = 64M\n",
		     "well-formed guest directives");
	expect(DEFAULT_RULE "[profile p]\nmemory-max = 1M\n",
	       "t.conf:4: error: memory-max 1M is too small to set up a session (at least 32M)",
	       "a memory-max too small for setup");
	expect(DEFAULT_RULE "[profile p]\nroot-size = 0\n",
	       "t.conf:4: error: size '0' is out of range", "a zero root-size");
	expect(DEFAULT_RULE "[profile p]\ntmpfs-size = lots\n",
	       "t.conf:4: error: 'lots' is not a size", "a bad tmpfs-size");
	expect_clean(DEFAULT_RULE "[profile p]\nroot-size = 4M\ntmpfs-size = 1G\n",
		     "well-formed root-size and tmpfs-size");
}

static void test_limits(void)
{
	expect(DEFAULT_RULE "[profile p]\nrlimit-nofile = 200 100\n",
	       "t.conf:4: error: the soft limit 200 is above the hard limit 100",
	       "rlimit: soft above hard");
	expect(DEFAULT_RULE "[profile p]\nrlimit-nproc = lots\n",
	       "t.conf:4: error: 'lots' is not a count", "rlimit: a bad count");
	expect(DEFAULT_RULE "[profile p]\nrlimit-core = 1X\n",
	       "t.conf:4: error: '1X' is not a size", "rlimit: a bad size");
	expect(DEFAULT_RULE "[profile p]\nrlimit-nofile = 1 2 3\n",
	       "t.conf:4: error: 'rlimit-nofile' takes SOFT [HARD]", "rlimit: three words");
	expect(DEFAULT_RULE "[profile p]\nmax-session-time = 5w\n",
	       "t.conf:4: error: '5w' is not a duration", "a bad duration unit");
	expect(DEFAULT_RULE "[profile p]\nmax-session-time = 0\n",
	       "t.conf:4: error: duration '0' is out of range", "a zero duration");
	expect(DEFAULT_RULE "max-session-time = 4m\nsession-time-warnings = 5m 1m\n",
	       "t.conf:4: warning: session-time-warnings 300s is not shorter than "
	       "max-session-time 240s: it is never given", "a warning past at the start");
	expect_clean(DEFAULT_RULE "max-session-time = 4m\nsession-time-warnings = 3m 1m\n",
		     "warnings shorter than max-session-time");
	expect_clean(DEFAULT_RULE "max-session-time = 4m\n",
		     "the default warnings are not judged");
	expect(DEFAULT_RULE "[profile p]\ncpu-max = 50\n",
	       "t.conf:4: error: '50' is not a percentage", "cpu-max needs a %");
	expect(DEFAULT_RULE "[profile p]\npids-max = -1\n",
	       "t.conf:4: error: '-1' is not a count", "pids-max takes a count");
	expect(DEFAULT_RULE "[profile p]\nmemory-max = 0\n",
	       "t.conf:4: error: size '0' is out of range", "memory-max takes a size");
	expect_clean(DEFAULT_RULE "[profile p]\nprofile = default\nrlimit-nofile = 100 unlimited\nrlimit-core = 0\n"
		     "rlimit-as = 1G\nrlimit-cpu = 1h 2h\nmax-session-time = 90m\n"
		     "memory-max = 512M\npids-max = 100\ncpu-max = 150%\n"
		     "[user u]\nprofile = p\nmemory-max = none\nmax-session-time = none\n",
		     "well-formed session limits");
}

/* share-sandbox and linger: bad words, and the checks of the merged
 * plan, each at the line that says it. */
static void test_share(void)
{
	expect(DEFAULT_RULE "[profile p]\nshare-sandbox = on\n",
	       "t.conf:4: error: 'on' is not yes or no", "share-sandbox takes yes or no");
	expect(DEFAULT_RULE "[profile p]\nlinger = forever\n",
	       "t.conf:4: error: linger takes no, yes or a duration (like 30m or 8h), not "
	       "'forever'", "linger: a word that is none of the three");
	expect(DEFAULT_RULE "[profile p]\nlinger = 30x\n",
	       "t.conf:4: error: '30x' is not a duration (a number, then s, m, h or d)",
	       "linger: a bad duration");
	expect(DEFAULT_RULE "share-sandbox = yes\nlinger = 0\n",
	       "t.conf:4: error: duration '0' is out of range", "linger: a zero duration");
	expect_clean(DEFAULT_RULE "share-sandbox = yes\nlinger = 30m\n"
		     "[user u]\nprofile = default\nshare-sandbox = yes\nlinger = yes\n"
		     "[user v]\nprofile = default\nshare-sandbox = no\nlinger = no\n",
		     "well-formed share-sandbox and linger in rules");
	expect_clean(DEFAULT_RULE "[profile p]\nprofile = default\nshare-sandbox = yes\n"
		     "linger = 8h\n[user u]\nprofile = p\n",
		     "and in a profile");
	expect(DEFAULT_RULE "[user u]\nprofile = default\nlinger = 1h\n",
	       "t.conf:5: error: linger needs share-sandbox = yes: only a shared sandbox "
	       "outlives its login", "linger without share-sandbox, at the linger line");
	expect(DEFAULT_RULE "[profile p]\nprofile = default\nshare-sandbox = yes\n"
	       "linger = yes\n[user u]\nprofile = p\nshare-sandbox = no\n",
	       "t.conf:6: error: linger needs share-sandbox = yes",
	       "a rule that turns off its profile's share-sandbox: at the profile's linger");
	expect(DEFAULT_RULE "[user u]\nprofile = default\nunshare = ipc uts\n"
	       "share-sandbox = yes\n",
	       "t.conf:6: error: 'share-sandbox' needs a pid namespace (unshare = pid ...): "
	       "the shared sandbox's pid 1 counts its logins",
	       "share-sandbox without a pid namespace, at the share-sandbox line");
	expect_clean(DEFAULT_RULE "[user u]\nsandbox = none\nshare-sandbox = yes\n"
		     "linger = yes\n[user v]\nsandbox = none\nlinger = 1h\n",
		     "sandbox = none: share-sandbox and linger are not judged (check warns)");
}

static void test_command(void)
{
	expect(DEFAULT_RULE "[profile p]\nunshare = ipc\nmax-session-time = 1h\n",
	       "t.conf:3: error: 'max-session-time' needs a pid namespace",
	       "max-session-time without a pid namespace is an error");
	expect(DEFAULT_RULE "[profile p]\nseccomp-log = maybe\n",
	       "t.conf:4: error: 'maybe' is not yes or no", "seccomp-log takes yes or no");
	expect_clean(DEFAULT_RULE "[profile p]\nseccomp-log = yes\n", "seccomp-log = yes");
	expect(DEFAULT_RULE "[profile p]\ncommand = bin/menu\n",
	       "t.conf:4: error: command 'bin/menu' is not an absolute path",
	       "command: a relative path");
	expect(DEFAULT_RULE "[profile p]\ncommand =\n",
	       "t.conf:4: error: 'command' takes PATH [ARG...] (got 0 words)",
	       "command: empty");
	expect(DEFAULT_RULE "[profile p]\ncommand = /usr/bin/../bin/sh\n",
	       "t.conf:4: error: command '/usr/bin/../bin/sh' has a '.' or '..' component",
	       "command: '..' in the path");
	expect(DEFAULT_RULE "[profile p]\ncommand = /bin/menu %y\n",
	       "t.conf:4: error: unknown token '%y'", "command: unknown token in an argument");
	expect_clean(DEFAULT_RULE "[profile p]\ncommand = /bin/menu --user %u \"a b\"\n"
		     "[user ann]\nprofile = p\ncommand = %h/menu\n",
		     "command: a path with arguments, and %h, in profiles and rules");
}

int main(void)
{
	test_syntax();
	test_words();
	test_directive_shapes();
	test_structure();
	test_warnings();
	test_guest_directives();
	test_limits();
	test_share();
	test_command();
	return tap_done();
}
