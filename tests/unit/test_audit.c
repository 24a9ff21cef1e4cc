// SPDX-License-Identifier: GPL-2.0-or-later
/* Audit records: field order, which fields appear, and the quoting that
 * keeps every record one parseable line; the same record as journald's
 * native fields. */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "audit.h"
#include "session_init.h"
#include "tap.h"

static void expect(const struct audit_record *r, const char *want, const char *name)
{
	struct strbuf out = { 0 };
	audit_format(r, &out);
	tap_is_str(out.data, want, name);
	sb_free(&out);
}

static void expect_notice(enum audit_notice what, const char *id, const char *text,
			  const char *want, const char *name)
{
	struct strbuf out = { 0 };
	audit_user_notice(what, id, text, &out);
	tap_is_str(out.data, want, name);
	sb_free(&out);
}

static void expect_clean(const char *text, const char *want, const char *name)
{
	char out[AUDIT_NOTICE_TEXT_MAX + 1];
	audit_notice_clean(text, out);
	tap_is_str(out, want, name);
}

/* The user's line: a fixed sentence and the id, and an administrator's
 * text without anything a terminal acts on. */
static void test_notices(void)
{
	expect_notice(AUDIT_NOTICE_REFUSED, "3f2a", NULL,
		      "cocoon: this login was refused by the session policy of this host "
		      "(reference 3f2a).\n", "notice: a refusal, with its reference");
	expect_notice(AUDIT_NOTICE_REFUSED, NULL, NULL,
		      "cocoon: this login was refused by the session policy of this host.\n",
		      "notice: without an id, no reference");
	expect_notice(AUDIT_NOTICE_EXPIRED, "3f2a", NULL,
		      "cocoon: session ended: max-session-time reached (reference 3f2a).\n",
		      "notice: max-session-time");
	expect_notice(AUDIT_NOTICE_STOPPED, "3f2a", "back at 9\033[2J",
		      "cocoon: session ended by the administrator (reference 3f2a): "
		      "back at 9 [2J\n", "notice: a stop's message, its escape made a space");
	expect_clean("a\tb\r\nc\x7f", "a b  c ", "clean: C0 and DEL");
	expect_clean("caf\xc3\xa9 \xc2\x9b" "2J", "caf\xc3\xa9  2J", "clean: UTF-8 kept, C1 CSI not");
	expect_clean("\x80x\xe2\x82", " x ", "clean: stray and cut sequences");
	char longer[400];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	char out[AUDIT_NOTICE_TEXT_MAX + 1];
	audit_notice_clean(longer, out);
	tap_ok(strlen(out) == AUDIT_NOTICE_TEXT_MAX, "clean: cut at %d bytes",
	       AUDIT_NOTICE_TEXT_MAX);
	memset(longer, 0, sizeof(longer));
	memset(longer, 'a', AUDIT_NOTICE_TEXT_MAX - 1);
	strcat(longer, "\xc3\xa9");
	audit_notice_clean(longer, out);
	tap_ok(strlen(out) == AUDIT_NOTICE_TEXT_MAX - 1, "clean: not inside a character");
}

struct captured {
	int calls, priority;
	char line[512];
};

static void capture(void *data, int priority, const char *line)
{
	struct captured *c = data;
	c->calls++;
	c->priority = priority;
	snprintf(c->line, sizeof(c->line), "%s", line);
}

int main(void)
{
	test_notices();
	struct audit_record r;
	audit_init(&r, "refuse");
	expect(&r, "v=1 event=refuse", "only what is known is written");

	struct plan plan;
	plan_init(&plan);
	plan.sandboxed = true;
	plan.rule = xstrdup("[group guests] at /etc/cocoon/cocoon.conf:12");
	plan.profile = xstrdup("guest");
	plan.namespaces = NS_PID | NS_IPC | NS_NET;
	snprintf(plan.hash, sizeof(plan.hash), "0123456789abcdef");
	audit_init(&r, "start");
	r.user = "alice";
	r.uid = 1000;
	r.service = "sshd";
	r.rhost = "192.0.2.1";
	r.tty = "ssh";
	r.ruser = "";
	r.plan = &plan;
	r.session = "00ff";
	r.result = "sandboxed";
	expect(&r, "v=1 event=start user=alice uid=1000 service=sshd rhost=192.0.2.1 "
		   "tty=ssh rule=\"[group guests] at /etc/cocoon/cocoon.conf:12\" "
		   "profile=guest plan=0123456789abcdef ns=mnt,pid,net,ipc session=00ff "
		   "result=sandboxed",
	       "a start record: fixed order, an empty ruser left out, spaces quoted");

	audit_init(&r, "refuse");
	r.user = "eve\" injected=1\nv=1 event=start";
	r.reason = "a=b \\ c\t\x01\xc3\xa9";
	r.result = "refused";
	expect(&r, "v=1 event=refuse user=\"eve\\\" injected=1\\nv=1 event=start\" "
		   "result=refused reason=\"a=b \\\\ c\\t\\x01\\xc3\\xa9\"",
	       "quotes, backslashes, '=', newlines and bytes beyond ASCII are escaped");

	audit_init(&r, "end");
	r.duration = 0;
	r.status = 130;
	r.result = "ended";
	expect(&r, "v=1 event=end result=ended duration=0 status=130",
	       "end records carry the duration and the status");

	/* share-sandbox: the sandbox's id and what the login did, last. */
	audit_init(&r, "start");
	r.session = "00ff";
	r.result = "sandboxed";
	r.sandbox = "00aa";
	r.share = "joined";
	expect(&r, "v=1 event=start session=00ff result=sandboxed sandbox=00aa share=joined",
	       "a login that joined a shared sandbox names it, at the end of the record");
	struct audit_session kept;
	audit_session_begin(&kept, &plan, "00ff");
	audit_session_shared(&kept, "00aa", true);
	audit_init(&r, "start");
	audit_session_start(&kept, &r);
	tap_ok(strcmp(r.session, "00ff") == 0 && r.sandbox && strcmp(r.sandbox, "00aa") == 0 &&
		       r.share && strcmp(r.share, "joined") == 0,
	       "its start record: session=00ff sandbox=00aa share=joined");
	audit_session_shared(&kept, "00aa", false);
	audit_session_start(&kept, &r);
	tap_ok(r.share && strcmp(r.share, "created") == 0, "or share=created, for its maker");
	audit_init(&r, "end");
	audit_session_end(&kept, false, &r);
	tap_ok(r.sandbox && strcmp(r.sandbox, "00aa") == 0 && r.share &&
		       strcmp(r.share, "left") == 0,
	       "its end record: sandbox=00aa share=left (the sandbox goes on)");
	audit_session_free(&kept);
	audit_session_begin(&kept, &plan, "00ff");
	audit_init(&r, "end");
	audit_session_end(&kept, false, &r);
	tap_ok(!r.sandbox && !r.share, "an unshared session's end record has neither");
	tap_is_str(r.result, "ended", "and says result=ended");
	audit_init(&r, "end");
	audit_session_end(&kept, true, &r);
	tap_ok(strcmp(r.result, "expired") == 0 && r.reason &&
		       strcmp(r.reason, "max-session-time") == 0,
	       "one past its max-session-time: result=expired reason=max-session-time");
	audit_init(&r, "end");
	audit_session_end(NULL, false, &r);
	tap_ok(strcmp(r.result, "ended") == 0 && !r.session && r.duration < 0,
	       "without the session's facts, the result alone");
	audit_session_free(&kept);

	plan.sandboxed = false;
	audit_init(&r, "start");
	r.plan = &plan;
	r.result = "unconfined";
	r.reason = "sandbox = none";
	expect(&r, "v=1 event=start rule=\"[group guests] at /etc/cocoon/cocoon.conf:12\" "
		   "profile=guest result=unconfined reason=\"sandbox = none\"",
	       "an unconfined plan names its rule but no plan hash");

	/* A session stopped from outside: the plan's facts from its run-time
	 * record, the same fields as from the plan it started with. */
	struct live_record live = { .rule = plan.rule, .profile = plan.profile,
				    .namespaces = plan.namespaces };
	memcpy(live.hash, plan.hash, sizeof(live.hash));
	audit_init(&r, "end");
	r.live = &live;
	r.session = "00ff";
	r.result = "stopped";
	expect(&r, "v=1 event=end rule=\"[group guests] at /etc/cocoon/cocoon.conf:12\" "
		   "profile=guest plan=0123456789abcdef ns=mnt,pid,net,ipc session=00ff "
		   "result=stopped",
	       "a stopped session's record has its plan's facts from its run-time record");

	/* The journal's fields: one per key, the values unquoted. */
	plan.sandboxed = true;
	audit_init(&r, "start");
	r.user = "alice";
	r.uid = 1000;
	r.service = "sshd";
	r.tty = "";
	r.plan = &plan;
	r.session = "00ff";
	r.result = "sandboxed";
	struct strbuf out = { 0 };
	audit_journal_fields(&r, "sshd", LOG_INFO, "pam_cocoon(sshd:session): v=1 event=start", &out);
	tap_is_str(out.data,
		   "MESSAGE=pam_cocoon(sshd:session): v=1 event=start\n"
		   "PRIORITY=6\n"
		   "SYSLOG_FACILITY=10\n"
		   "SYSLOG_IDENTIFIER=sshd\n"
		   "COCOON_V=1\n"
		   "COCOON_EVENT=start\n"
		   "COCOON_USER=alice\n"
		   "COCOON_UID=1000\n"
		   "COCOON_SERVICE=sshd\n"
		   "COCOON_RULE=[group guests] at /etc/cocoon/cocoon.conf:12\n"
		   "COCOON_PROFILE=guest\n"
		   "COCOON_PLAN=0123456789abcdef\n"
		   "COCOON_NS=mnt,pid,net,ipc\n"
		   "COCOON_SESSION=00ff\n"
		   "COCOON_RESULT=sandboxed\n",
		   "journal: MESSAGE, PRIORITY, facility 10, the identifier, then COCOON_KEY per field");
	sb_free(&out);

	audit_init(&r, "refuse");
	r.user = "eve\nCOCOON_RESULT=sandboxed";
	r.result = "refused";
	r.reason = "a \"quoted\" = reason";
	r.status = 0;
	audit_journal_fields(&r, "cocoon-shell", LOG_AUTHPRIV | LOG_ERR, "m", &out);
	static const char want[] =
		"MESSAGE=m\nPRIORITY=3\nSYSLOG_FACILITY=10\nSYSLOG_IDENTIFIER=cocoon-shell\n"
		"COCOON_V=1\nCOCOON_EVENT=refuse\n"
		"COCOON_USER\n\x1b\0\0\0\0\0\0\0eve\nCOCOON_RESULT=sandboxed\n"
		"COCOON_RESULT=refused\nCOCOON_REASON=a \"quoted\" = reason\nCOCOON_STATUS=0\n";
	tap_ok(out.len == sizeof(want) - 1 && memcmp(out.data, want, out.len) == 0,
	       "journal: a value with a newline goes with its length (64 bits, little-endian), "
	       "so it cannot add a field; the priority without the facility; others as they are");
	sb_free(&out);

	tap_ok(audit_journal_send(-1, &r, "x", LOG_INFO, "m") < 0,
	       "journal: no socket, not sent (the caller logs to syslog)");
	/* What goes on the socket is one datagram of those fields. */
	int pair[2];
	char got[2048];
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair) < 0)
		return 1;
	audit_journal_fields(&r, "x", LOG_INFO, "m", &out);
	tap_ok(audit_journal_send(pair[0], &r, "x", LOG_INFO, "m") == 0 &&
	       recv(pair[1], got, sizeof(got), 0) == (ssize_t)out.len &&
	       memcmp(got, out.data, out.len) == 0, "journal: sent as one datagram");
	sb_free(&out);
	close(pair[1]);
	tap_ok(audit_journal_send(pair[0], &r, "x", LOG_INFO, "m") < 0,
	       "journal: a socket nobody reads from, not sent");
	close(pair[0]);
	/* An entry point's log: journald when it takes the record, else its
	 * syslog, never both. */
	struct captured captured = { 0 };
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair) < 0)
		return 1;
	struct audit_log sink = { .journal = pair[0], .identifier = "sshd",
				  .prefix = "pam_cocoon(sshd:session): ",
				  .to_syslog = capture, .data = &captured };
	audit_init(&r, "refuse");
	r.result = "refused";
	char id[33];
	audit_log_refusal(&sink, &r, id, &out);
	ssize_t got_len = recv(pair[1], got, sizeof(got) - 1, MSG_DONTWAIT);
	got[got_len > 0 ? got_len : 0] = '\0';
	tap_ok(r.session == id && strlen(id) == 32 && captured.calls == 0 &&
		       strstr(got, "MESSAGE=pam_cocoon(sshd:session): v=1 event=refuse session=") &&
		       strstr(got, "PRIORITY=3\n"),
	       "refusal: a session id of its own, to the journal at LOG_ERR with the prefix");
	tap_ok(strstr(out.data, id) && out.data[out.len - 1] == '\n' &&
		       !strstr(out.data, "refused\n"),
	       "refusal: the user's line carries the id and nothing of the record");
	sb_free(&out);
	close(pair[1]);
	audit_log_write(&sink, LOG_NOTICE, &r);
	tap_ok(captured.calls == 1 && captured.priority == LOG_NOTICE &&
		       strncmp(captured.line, "v=1 event=refuse session=", 25) == 0,
	       "log: no journald, the entry point's syslog gets the line without the prefix");
	close(pair[0]);

	/* share-sandbox: the sandbox's own end record, a template from the
	 * login that made it, completed by pid 1. */
	audit_init(&r, "end");
	r.user = "alice";
	r.uid = 1000;
	r.service = "sshd";
	r.plan = &plan;
	r.session = "00ff";
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair) < 0)
		return 1;
	sink = (struct audit_log){ .journal = pair[0], .identifier = "sshd",
				   .prefix = "pam_cocoon(sshd:session): " };
	tap_ok(audit_log_end_record(&sink, &r, &out) < 0 && out.len == 0,
	       "end record: none for a login whose plan is not shared");
	plan.share = true;
	int log = audit_log_end_record(&sink, &r, &out);
	tap_ok(log >= 0 && log != pair[0], "end record: a copy of the journal's socket to hand on");
	char record[SESSION_INIT_RECORD_MAX + 512];
	long n = session_init_record_format(out.data, "expired", "max-session-time", 42, "00ff",
					    record, sizeof(record));
	static const char head[] =
		"PRIORITY=5\n"
		"MESSAGE=pam_cocoon(sshd:session): v=1 event=end user=alice uid=1000 "
		"service=sshd rule=\"[group guests] at /etc/cocoon/cocoon.conf:12\" "
		"profile=guest plan=0123456789abcdef ns=mnt,pid,net,ipc session=00ff "
		"result=expired reason=max-session-time duration=42 sandbox=00ff share=ended\n"
		"SYSLOG_FACILITY=10\nSYSLOG_IDENTIFIER=sshd\nCOCOON_V=1\nCOCOON_EVENT=end\n";
	static const char tail[] =
		"COCOON_SESSION=00ff\nCOCOON_RESULT=expired\nCOCOON_REASON=max-session-time\n"
		"COCOON_DURATION=42\nCOCOON_SANDBOX=00ff\nCOCOON_SHARE=ended\n";
	size_t len = n > 0 ? (size_t)n : 0, tail_len = sizeof(tail) - 1;
	tap_ok(len > sizeof(head) + tail_len && memcmp(record, head, sizeof(head) - 1) == 0 &&
	       memcmp(record + len - tail_len, tail, tail_len) == 0,
	       "end record, journal: the other records' fields, then result, reason, "
	       "duration, sandbox and share=ended, at the priority of an expiry");
	tap_ok(session_init_record_format(out.data, "expired", NULL, 42, "00ff", record, 200) < 0,
	       "end record: not cut to fit");
	sb_free(&out);
	if (log >= 0)
		close(log);
	close(pair[0]);
	close(pair[1]);
	/* syslog's form, from a template as audit_end_record writes it
	 * without journald. */
	n = session_init_record_format("s 80\nsshd: pam_cocoon(sshd:session): \nv=1 event=end "
				       "session=00ff\n", "ended", "linger", 3, "00ff", record,
				       sizeof(record));
	tap_is_str(n > 0 ? record : "(none)",
		   "<86>sshd: pam_cocoon(sshd:session): v=1 event=end session=00ff result=ended "
		   "reason=linger duration=3 sandbox=00ff share=ended",
		   "end record, syslog: authpriv.info, the tag, the text");
	tap_ok(session_init_record_format("x 80\n\nv=1\n", "ended", NULL, 0, "00ff", record,
					  sizeof(record)) < 0 &&
	       session_init_record_format("s 80\nno head", "ended", NULL, 0, "00ff", record,
					  sizeof(record)) < 0,
	       "end record: a template of another kind, or cut short, makes none");
	plan_free(&plan);
	return tap_done();
}
