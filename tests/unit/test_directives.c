// SPDX-License-Identifier: GPL-2.0-or-later
/* The directive table and the checks of a directive's words: counts,
 * tokens, paths, options, names and every value parser, each error with
 * its exact message. */
#include <stdlib.h>
#include <string.h>

#include "directives.h"
#include "landlock.h"
#include "plan.h"
#include "tap.h"
#include "util.h"
#include "words.h"

/* "ok", or the error of directive NAME with the words of VALUE. */
static char *check(const char *name, const char *value)
{
	const struct directive_spec *spec = directive_lookup(name);
	if (!spec)
		return xasprintf("no directive %s", name);
	char **words;
	size_t count;
	struct cc_error err;
	if (words_split(value, &words, &count, &err) < 0)
		return xasprintf("bad words: %s", err.msg);
	struct directive_value parsed;
	char *out = directive_parse_words(spec, words, count, &parsed, &err) < 0
		? xstrdup(err.msg) : xstrdup("ok");
	words_free(words, count);
	return out;
}

static void expect(const char *name, const char *value, const char *want,
		   const char *what)
{
	char *got = check(name, value);
	tap_is_str(got, want, what);
	free(got);
}

#define NOT_ABSOLUTE "is not an absolute path (%h may only stand alone or before a '/')"

static void test_table(void)
{
	const struct directive_spec *s = directive_lookup("ro-bind-try");
	tap_ok(s && s->id == D_RO_BIND_TRY && s->min_words == 1 && s->max_words == 2 &&
	       s->where == (IN_PROFILE | IN_RULE) && strcmp(s->usage, "SRC [DEST]") == 0,
	       "ro-bind-try: its id, 1 to 2 words, anywhere, its usage");
	s = directive_lookup("service");
	tap_ok(s && s->id == D_SERVICE && s->max_words == 0 && s->where == IN_RULE,
	       "service: any number of words, in rules only");
	tap_ok(directive_lookup("rlimit-nproc") && directive_lookup("tmpfs-size"),
	       "the first and last of the limits are there");
	tap_ok(!directive_lookup("Bind") && !directive_lookup("bind ") &&
	       !directive_lookup("") && !directive_lookup("rlimit-"),
	       "names match exactly");
}

static void test_counts_and_tokens(void)
{
	expect("bind", "", "'bind' takes SRC [DEST] (got 0 words)", "too few words");
	expect("bind", "/a /b /c", "'bind' takes SRC [DEST] (got 3 words)", "too many words");
	expect("symlink", "/t", "'symlink' takes TARGET LINK (got 1 word)", "one word, singular");
	expect("service", "a b c d e f", "ok", "no upper bound where max is 0");
	expect("bind", "/a/%x", "unknown token '%x' (%u %U %g %G %h %% exist)",
	       "an unknown token");
	expect("bind", "/a%", "a lone '%' ends '/a%' (write %% for a percent sign)",
	       "a lone % at the end");
	expect("bind", "/a/%%x/%u%U%g%G %h/b", "ok", "every token, and %% before a letter");
	expect("setenv", "X 100%%", "ok", "tokens are checked in values too (%%)");
	expect("setenv", "X 100%", "a lone '%' ends '100%' (write %% for a percent sign)",
	       "and a lone % in a value is refused");
	expect("cpu-max", "50%", "ok", "cpu-max's % is a percent sign");
}

static void test_paths(void)
{
	expect("bind", "usr", "source 'usr' " NOT_ABSOLUTE, "a relative source");
	expect("bind", "%hx", "source '%hx' " NOT_ABSOLUTE, "%h glued to a name");
	expect("bind", "%h %h/x", "ok", "%h alone and before a '/'");
	expect("ro-bind", "/a a", "destination 'a' " NOT_ABSOLUTE, "a relative destination");
	expect("bind", "/a/../b", "source '/a/../b' has a '.' or '..' component", "a '..'");
	expect("bind", "/a /b/.", "destination '/b/.' has a '.' or '..' component", "a '.'");
	expect("bind", "//a//b/ /..c/.d/", "ok", "repeated slashes and dotted names pass");
	expect("remount-ro", "x", "destination 'x' " NOT_ABSOLUTE, "remount-ro");
	expect("proc", "/proc/..", "destination '/proc/..' has a '.' or '..' component", "proc");
	expect("tmp-overlay", "var", "destination 'var' " NOT_ABSOLUTE, "tmp-overlay");
	expect("chdir", "home", "directory 'home' " NOT_ABSOLUTE, "chdir");
	expect("shell", "bash", "shell 'bash' " NOT_ABSOLUTE, "shell");
	expect("command", "menu --x", "command 'menu' " NOT_ABSOLUTE, "command");
	expect("command", "/opt/menu --for %u \"a b\"", "ok", "a command with arguments");
	expect("symlink", "\"\" /l", "empty symlink target", "an empty symlink target");
	expect("symlink", "../t l", "link 'l' " NOT_ABSOLUTE, "a relative link; any target");
	expect("chmod", "999 /x", "'999' is not an octal mode (0000 to 7777)", "chmod's mode");
	expect("chmod", "0755 x", "path 'x' " NOT_ABSOLUTE, "chmod's path");
	expect("home-skel", "/srv/%u", "home-skel takes no tokens: one skeleton serves "
	       "every user", "home-skel takes no tokens");
	expect("home-skel", "skel", "skeleton 'skel' " NOT_ABSOLUTE, "home-skel's path");
	expect("unavailable", "/usr/bin/su /usr/bin/sudo", "ok", "unavailable: programs");
	expect("unavailable", "/usr/bin/su sudo", "unavailable takes absolute paths: 'sudo'",
	       "unavailable: each path absolute");
	expect("unavailable", "/usr/../bin/su", "program '/usr/../bin/su' has a '.' or '..' "
	       "component", "unavailable: no '..'");
	expect("unavailable", "%h/bin/x", "unavailable takes no tokens: '%h/bin/x'",
	       "unavailable: host programs, no tokens");
	expect("unavailable", "/", "unavailable takes programs, not '/'",
	       "unavailable: not the root");
	expect("unavailable", "", "'unavailable' takes PATH... (got 0 words)",
	       "unavailable: at least one");
}

static void test_options(void)
{
	expect("tmpfs", "/t size=1M mode=0700", "ok", "tmpfs with size and mode");
	expect("tmpfs", "/t size=1M size=2M", "size= given twice", "size twice");
	expect("tmpfs", "/t mode=0700 mode=1777", "mode= given twice", "mode twice");
	expect("tmpfs", "/t uid=0", "unknown option 'uid=0' (size= or mode=)", "unknown option");
	expect("tmpfs", "/t size=0", "size '0' is out of range", "a zero size");
	expect("tmpfs", "/t mode=8", "'8' is not an octal mode (0000 to 7777)", "a bad mode");
	expect("dir", "/d size=1M", "unknown option 'size=1M' (mode=)", "dir has no size");
	expect("file", "/f \"a b\" mode=0600", "ok", "file with content and mode");
	expect("file", "/f text ro", "unknown option 'ro' (mode=)", "file's options");
	expect("file", "f text", "destination 'f' " NOT_ABSOLUTE, "file's destination");
}

static void test_names(void)
{
	expect("profile", "web-1.x_y", "ok", "a profile name of letters, digits, . _ -");
	expect("profile", "a/b", "profile name 'a/b' may only hold letters, digits, '.', "
	       "'_' and '-'", "a profile name with a slash");
	expect("profile", "\"\"", "empty profile name", "an empty profile name");
	expect("service", "sshd bad!", "service name 'bad!' may only hold letters, digits, "
	       "'.', '_' and '-'", "each service name is checked");
	expect("hostname", "box-%u", "ok", "a hostname with tokens is checked after expansion");
	expect("hostname", "a,b", "hostname 'a,b' may only hold letters, digits, '.', '_' "
	       "and '-'", "a hostname with a comma");
	char *long_name = xasprintf("%065d", 0);
	expect("hostname", long_name, "hostname longer than 64 bytes", "a 65-byte hostname");
	long_name[64] = '\0';
	expect("hostname", long_name, "ok", "a 64-byte one");
	free(long_name);
	expect("setenv", "_A1 v", "ok", "an environment name");
	expect("setenv", "1A v", "'1A' is not an environment variable name",
	       "a name starting with a digit");
	expect("unsetenv", "A-B", "'A-B' is not an environment variable name",
	       "a name with a dash");
}

static void test_choices(void)
{
	expect("clearenv", "maybe", "'maybe' is not yes or no", "clearenv");
	expect("seccomp-log", "yes", "ok", "seccomp-log yes");
	expect("unshare", "pid net ipc uts cgroup user all", "ok", "every namespace");
	expect("unshare", "none", "ok", "unshare none");
	expect("unshare", "pid none", "unknown namespace 'none' (pid net ipc uts cgroup "
	       "user all, or none alone)", "none with another namespace");
	expect("unshare", "mnt", "unknown namespace 'mnt' (pid net ipc uts cgroup user all, "
	       "or none alone)", "the mount namespace is not a choice");
	expect("seccomp", "default", "ok", "seccomp default");
	expect("seccomp", "/etc/cocoon/f.bpf", "ok", "a seccomp file");
	expect("seccomp", "strict", "seccomp takes default, none or an absolute file name",
	       "a relative seccomp word");
	expect("seccomp", "/etc/%u.bpf", "a seccomp file name takes no tokens",
	       "a seccomp file with a token");
	expect("seccomp", "/etc/../f", "seccomp file '/etc/../f' has a '.' or '..' "
	       "component", "a seccomp file with '..'");
	expect("landlock", "yes", "landlock takes best-effort or required", "landlock");
	expect("landlock-scope", "signal abstract-unix", "ok", "both scopes");
	expect("landlock-scope", "tcp", "unknown landlock-scope 'tcp' (abstract-unix "
	       "signal, or none alone)", "an unknown scope");
	expect("sandbox", "yes", "sandbox takes only 'none' (to leave matching sessions "
	       "unconfined)", "sandbox");
	expect("home", "nfs", "home takes bind, tmpfs, overlay or none, not 'nfs'", "home");
	expect("private-tmp", "yes", "private-tmp takes no, session or persistent, not 'yes'",
	       "private-tmp");
	expect("name-services", "auto", "ok", "name-services auto");
	expect("name-services", "none", "ok", "name-services none");
	expect("name-services", "nscd", "name-services takes auto or none",
	       "name-services names no daemon");
	expect("name-services", "auto none", "'name-services' takes auto|none (got 2 words)",
	       "name-services takes one word");
	expect("home-size", "big", "'big' is not a size (like 64M)", "home-size");
	expect("tmp-size", "64MB", "'64MB' is not a size (digits, then K, M, G or T)",
	       "a size with two unit letters");
	expect("rlimit-nofile", "10 5", "the soft limit 10 is above the hard limit 5",
	       "an rlimit goes to directive_rlimit_parse");
	expect("max-session-time", "1y", "'1y' is not a duration (a number, then s, m, h "
	       "or d)", "max-session-time");
	expect("session-time-warnings", "5m 1m", "ok", "session-time-warnings 5m 1m");
	expect("session-time-warnings", "none", "ok", "session-time-warnings none");
	expect("session-time-warnings", "5m none", "session-time-warnings takes none alone",
	       "none among durations");
	expect("session-time-warnings", "5m 0", "duration '0' is out of range",
	       "a zero warning");
	expect("session-time-warnings", "1 2 3 4 5 6 7 8 9",
	       "'session-time-warnings' takes DURATION... (at most 8)|none (got 9 words)",
	       "at most 8 warnings");
	expect("session-time-warnings", "5x", "'5x' is not a duration (a number, then s, m, "
	       "h or d)", "a warning that is no duration");
	expect("memory-max", "1M", "memory-max 1M is too small to set up a session (at "
	       "least 32M)", "a memory-max below the floor");
	expect("pids-max", "none", "ok", "pids-max none");
	expect("cpu-max", "50", "'50' is not a percentage (like 50% or 200%)",
	       "cpu-max without %");
}

/* share-sandbox and linger: their words, both ways and every refusal. */
static void test_share(void)
{
	const struct directive_spec *s = directive_lookup("share-sandbox");
	tap_ok(s && s->id == D_SHARE_SANDBOX && s->min_words == 1 && s->max_words == 1 &&
	       s->where == (IN_PROFILE | IN_RULE), "share-sandbox: one word, anywhere");
	s = directive_lookup("linger");
	tap_ok(s && s->id == D_LINGER && s->min_words == 1 && s->max_words == 1 &&
	       s->where == (IN_PROFILE | IN_RULE), "linger: one word, anywhere");
	expect("share-sandbox", "yes", "ok", "share-sandbox yes");
	expect("share-sandbox", "no", "ok", "share-sandbox no");
	expect("share-sandbox", "always", "'always' is not yes or no", "share-sandbox always");
	expect("share-sandbox", "yes no", "'share-sandbox' takes yes|no (got 2 words)",
	       "share-sandbox takes one word");
	expect("linger", "no", "ok", "linger no");
	expect("linger", "yes", "ok", "linger yes");
	expect("linger", "90", "ok", "linger in seconds");
	expect("linger", "8h", "ok", "linger 8h");
	static const char *const not_linger[][2] = {
		{ "maybe", "a word of its own" }, { "none", "none: no is the word" },
		{ "Yes", "Yes: lower-case" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(not_linger); i++) {
		char *want = xasprintf("linger takes no, yes or a duration (like 30m or 8h), "
				       "not '%s'", not_linger[i][0]);
		char *name = xasprintf("linger %s", not_linger[i][1]);
		expect("linger", not_linger[i][0], want, name);
		free(want);
		free(name);
	}
	expect("linger", "5w", "'5w' is not a duration (a number, then s, m, h or d)",
	       "a bad unit has the duration's message");
	expect("linger", "0", "duration '0' is out of range", "linger 0: no is the word");
	expect("linger", "12725830d", "duration '12725830d' is out of range",
	       "linger past 2^40 seconds");
	expect("linger", "", "'linger' takes no|yes|DURATION (got 0 words)", "linger empty");
	expect("linger", "1h 2h", "'linger' takes no|yes|DURATION (got 2 words)",
	       "linger takes one word");

	enum linger_mode mode = LINGER_YES;
	unsigned long long sec = 7;
	struct cc_error err;
	tap_ok(directive_linger_parse("no", &mode, &sec, &err) == 0 && mode == LINGER_NO &&
	       sec == 0, "linger no: LINGER_NO, no seconds");
	tap_ok(directive_linger_parse("yes", &mode, &sec, &err) == 0 && mode == LINGER_YES &&
	       sec == 0, "linger yes: LINGER_YES, no seconds");
	tap_ok(directive_linger_parse("30m", &mode, &sec, &err) == 0 && mode == LINGER_FOR &&
	       sec == 1800, "linger 30m: LINGER_FOR 1800 s");
	mode = LINGER_YES;
	tap_ok(directive_linger_parse("x", &mode, &sec, &err) < 0 && mode == LINGER_YES,
	       "a refused word leaves the mode alone");
}

static void expect_size(const char *word, unsigned long long want, const char *name)
{
	unsigned long long v = 0;
	struct cc_error err;
	int rc = directive_parse_size(word, &v, &err);
	tap_ok(rc == 0 && v == want, "size %s: %s (%llu%s%s)", word, name, v,
	       rc ? ", " : "", rc ? err.msg : "");
}

static void expect_refused(int rc, const struct cc_error *err, const char *want,
			   const char *name)
{
	tap_ok(rc < 0, "%s: refused", name);
	tap_is_str(rc < 0 ? err->msg : "(accepted)", want, name);
}

static void test_numbers(void)
{
	struct cc_error err;
	unsigned long long v = 0;
	unsigned u = 0;
	expect_size("1", 1, "bytes");
	expect_size("1K", 1024, "K");
	expect_size("3m", 3ULL << 20, "a lower-case unit");
	expect_size("2G", 2ULL << 30, "G");
	expect_size("16777215T", 16777215ULL << 40, "the largest in T");
	expect_refused(directive_parse_size("16777216T", &v, &err), &err,
		       "size '16777216T' is out of range", "a size past 2^64");
	expect_refused(directive_parse_size("-1", &v, &err), &err, "'-1' is not a size (like 64M)",
		       "a negative size");

	tap_ok(directive_parse_count("4611686018427387904", &v, &err) == 0 && v == 1ULL << 62,
	       "count 2^62 is the largest");
	expect_refused(directive_parse_count("4611686018427387905", &v, &err), &err,
		       "count '4611686018427387905' is out of range", "a count past 2^62");
	expect_refused(directive_parse_count("0", &v, &err), &err, "count '0' is out of range",
		       "a zero count");
	expect_refused(directive_parse_count("12a", &v, &err), &err, "'12a' is not a count",
		       "a count with a letter");
	expect_refused(directive_parse_count("", &v, &err), &err, "'' is not a count", "an empty count");

	tap_ok(directive_parse_duration("90", &v, &err) == 0 && v == 90, "duration 90: seconds");
	tap_ok(directive_parse_duration("30m", &v, &err) == 0 && v == 1800, "duration 30m");
	tap_ok(directive_parse_duration("8h", &v, &err) == 0 && v == 28800, "duration 8h");
	tap_ok(directive_parse_duration("12725829d", &v, &err) == 0 && v == 12725829ULL * 86400,
	       "the longest duration in days");
	expect_refused(directive_parse_duration("12725830d", &v, &err), &err,
		       "duration '12725830d' is out of range", "a day past 2^40 seconds");
	expect_refused(directive_parse_duration("5ms", &v, &err), &err, "'5ms' is not a duration (a "
		       "number, then s, m, h or d)", "two unit letters");
	expect_refused(directive_parse_duration("h", &v, &err), &err, "'h' is not a duration (like "
		       "90s, 30m, 8h, 1d)", "a unit without a number");
	expect_refused(directive_parse_duration("0s", &v, &err), &err, "duration '0s' is out of range",
		       "a zero duration");

	tap_ok(directive_parse_percent("100000%", &u, &err) == 0 && u == 100000, "percent 100000%%");
	tap_ok(directive_parse_percent("1%", &u, &err) == 0 && u == 1, "percent 1%%");
	expect_refused(directive_parse_percent("100001%", &u, &err), &err, "'100001%' is not a "
		       "percentage from 1% to 100000%", "a percentage past 1000 CPUs");
	expect_refused(directive_parse_percent("0%", &u, &err), &err, "'0%' is not a percentage "
		       "from 1% to 100000%", "zero percent");
	expect_refused(directive_parse_percent("%", &u, &err), &err, "'%' is not a percentage (like "
		       "50% or 200%)", "a bare %");
	expect_refused(directive_parse_percent("1000000%", &u, &err), &err, "'1000000%' is not a "
		       "percentage (like 50% or 200%)", "a percentage of 8 characters");

	tap_ok(directive_parse_mode("7777", &u, &err) == 0 && u == 07777, "mode 7777");
	tap_ok(directive_parse_mode("0", &u, &err) == 0 && u == 0, "mode 0");
	expect_refused(directive_parse_mode("01777", &u, &err), &err, "'01777' is not an octal mode "
		       "(0000 to 7777)", "a mode of five digits");
	expect_refused(directive_parse_mode("", &u, &err), &err, "'' is not an octal mode (0000 to "
		       "7777)", "an empty mode");
	bool b = false;
	tap_ok(directive_parse_bool("yes", &b, &err) == 0 && b &&
	       directive_parse_bool("no", &b, &err) == 0 && !b,
	       "yes and no");
	expect_refused(directive_parse_bool("Yes", &b, &err), &err, "'Yes' is not yes or no",
		       "yes is lower-case");
}

static void test_limits(void)
{
	struct session_limits l = { 0 };
	struct cc_error err;
	unsigned long long v = 1;
	tap_ok(directive_limit_parse(D_MAX_SESSION_TIME, "2h", &v, &err) == 0 && v == 7200,
	       "max-session-time into seconds");
	directive_limit_store(D_MAX_SESSION_TIME, v, &l);
	tap_ok(directive_limit_parse(D_MEMORY_MAX, "32M", &v, &err) == 0 && v == 32ULL << 20,
	       "memory-max at the floor");
	directive_limit_store(D_MEMORY_MAX, v, &l);
	tap_ok(directive_limit_parse(D_PIDS_MAX, "100", &v, &err) == 0 && v == 100, "pids-max");
	directive_limit_store(D_PIDS_MAX, v, &l);
	tap_ok(directive_limit_parse(D_CPU_MAX, "250%", &v, &err) == 0 && v == 250, "cpu-max");
	directive_limit_store(D_CPU_MAX, v, &l);
	tap_ok(l.max_session_time == 7200 && l.memory_max == 32ULL << 20 && l.pids_max == 100 &&
	       l.cpu_max_percent == 250, "each stored in its own field");
	tap_ok(directive_limit_parse(D_PIDS_MAX, "none", &v, &err) == 0 && v == 0,
	       "none is 0, no limit");
	directive_limit_store(D_PIDS_MAX, v, &l);
	tap_ok(l.pids_max == 0 && l.max_session_time == 7200 && l.cpu_max_percent == 250,
	       "and storing it clears that limit only");
	expect_refused(directive_limit_parse(D_PROFILE, "none", &v, &err), &err, "not a session limit",
		       "another directive");
	expect_refused(directive_limit_parse(D_MEMORY_MAX, "32767K", &v, &err), &err,
		       "memory-max 32767K is too small to set up a session (at least 32M)",
		       "a byte under the floor's K");
}

static void test_warnings(void)
{
	const struct directive_spec *spec = directive_lookup("session-time-warnings");
	char *words[] = { (char *)"10m", (char *)"90", (char *)"1m" };
	struct directive_value v;
	struct cc_error err;
	tap_ok(spec && directive_parse_words(spec, words, 3, &v, &err) == 0 &&
	       v.ndurations == 3 && v.durations[0] == 600 && v.durations[1] == 90 &&
	       v.durations[2] == 60, "session-time-warnings: seconds, in the order given");
	struct plan plan;
	plan_init(&plan);
	tap_ok(plan.limits.ntime_warnings == 2 && plan.limits.time_warnings[0] == 300 &&
	       plan.limits.time_warnings[1] == 60, "the default warns 5m and 1m before");
	plan_free(&plan);
}

static void test_ptys(void)
{
	unsigned v = 7;
	struct cc_error err;
	tap_ok(directive_pty_parse(D_PTY_MAX, "64", &v, &err) == 0 && v == 64, "pty-max 64");
	tap_ok(directive_pty_parse(D_PTY_MAX_USER, "none", &v, &err) == 0 && v == 0,
	       "pty-max-user none is 0, no total");
	tap_ok(directive_pty_parse(D_PTY_MAX, "1048576", &v, &err) == 0 && v == 1u << 20,
	       "pty-max up to the kernel's own bound");
	expect("pty-max", "none", "'none' is not a count",
	       "pty-max has no none: devpts takes max=0 as no limit");
	expect("pty-max", "0", "count '0' is out of range", "nor 0");
	expect("pty-max", "1048577", "pty-max 1048577 is above the kernel's 1048576 ptys",
	       "a pty-max the kernel would refuse");
	expect("pty-max-user", "2000000", "pty-max-user 2000000 is above the kernel's "
	       "1048576 ptys", "a pty-max-user above it");
	expect("pty-max-user", "-1", "'-1' is not a count", "a negative total");
	expect("pty-max", "8 9", "'pty-max' takes COUNT (got 2 words)", "one word");
	expect("pty-max-user", "512", "ok", "pty-max-user 512");
	expect_refused(directive_pty_parse(D_PIDS_MAX, "1", &v, &err), &err, "not a pty limit",
		       "another directive");
}

/* The checks of tokens and path words on their own. The flag and mode
 * words are plan_values', in test_plan_values. */
static void test_word_checks(void)
{
	struct cc_error err;
	tap_ok(directive_check_tokens("%%u%%", &err) == 0, "%% does not start a token");
	expect_refused(directive_check_tokens("a%%%x", &err), &err, "unknown token '%x' (%u %U %g "
		       "%G %h %% exist)", "a token after %%");
	expect_refused(directive_check_path_word("%h/..", "home", &err), &err, "home '%h/..' has a "
		       "'.' or '..' component", "directive_check_path_word names what it checks");
}

/* The typed value directive NAME = VALUE parses into (zero on error). */
static struct directive_value parsed(const char *name, const char *value)
{
	struct directive_value v = { 0 };
	char **words;
	size_t count;
	struct cc_error err;
	if (words_split(value, &words, &count, &err) == 0) {
		if (directive_parse_words(directive_lookup(name), words, count, &v, &err) < 0)
			memset(&v, 0, sizeof(v));
		words_free(words, count);
	}
	return v;
}

static void test_values(void)
{
	struct directive_value v = parsed("tmpfs", "/t size=1M mode=0700");
	tap_ok(v.has_mode && v.mode == 0700 && v.size == 1ULL << 20,
	       "tmpfs: size= and mode= parsed with the policy");
	v = parsed("dir", "/d");
	tap_ok(!v.has_mode && v.size == 0, "dir without mode=: none");
	v = parsed("chmod", "0750 /x");
	tap_ok(v.has_mode && v.mode == 0750, "chmod's MODE");
	tap_ok(parsed("clearenv", "yes").flag && !parsed("clearenv", "no").flag, "yes and no");
	tap_ok(parsed("landlock", "required").flag && !parsed("landlock", "best-effort").flag,
	       "landlock = required is the flag");
	tap_ok(parsed("unshare", "net pid").bits == (NS_NET | NS_PID), "unshare: NS_* bits");
	tap_ok(parsed("landlock-scope", "signal").bits == LL_SCOPE_SIGNAL, "landlock-scope bits");
	tap_ok(parsed("seccomp", "none").seccomp == SECCOMP_NONE &&
	       parsed("seccomp", "default").seccomp == SECCOMP_DEFAULT &&
	       parsed("seccomp", "/etc/f.bpf").seccomp == SECCOMP_FILE, "seccomp modes");
	tap_ok(parsed("home", "tmpfs").home == HOME_TMPFS, "home mode");
	tap_ok(parsed("private-tmp", "persistent").private_tmp == PRIVATE_TMP_PERSISTENT,
	       "private-tmp mode");
	tap_ok(parsed("name-services", "auto").flag && !parsed("name-services", "none").flag,
	       "name-services = auto is the flag");
	tap_ok(parsed("home-size", "2G").number == 2ULL << 30, "sizes");
	tap_ok(parsed("cpu-max", "50%").number == 50, "a session limit");
	tap_ok(parsed("share-sandbox", "yes").flag && !parsed("share-sandbox", "no").flag,
	       "share-sandbox = yes is the flag");
	v = parsed("linger", "2h");
	tap_ok(v.linger == LINGER_FOR && v.number == 7200, "linger DURATION: LINGER_FOR, seconds");
	tap_ok(parsed("linger", "yes").linger == LINGER_YES &&
	       parsed("linger", "no").linger == LINGER_NO && parsed("linger", "yes").number == 0,
	       "linger yes and no: no seconds");
	v = parsed("rlimit-nofile", "10 20");
	tap_ok(v.rlimit.set && v.rlimit.soft == 10 && v.rlimit.hard == 20, "an rlimit");
}

int main(void)
{
	test_table();
	test_counts_and_tokens();
	test_paths();
	test_options();
	test_names();
	test_choices();
	test_numbers();
	test_limits();
	test_warnings();
	test_share();
	test_ptys();
	test_values();
	test_word_checks();
	return tap_done();
}
