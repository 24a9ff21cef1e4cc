/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Audit records: one syslog line per session event, as stable key=value
 * fields a log pipeline can parse (cocoon.conf(5), AUDIT RECORDS), or,
 * where journald runs, one journal entry with a field per key
 * (COCOON_RESULT=refused). The entry points fill a record; this file
 * formats it and hands it to journald. */
#ifndef COCOON_AUDIT_H
#define COCOON_AUDIT_H

#include "plan.h"
#include "records.h"
#include "util.h"

#include <syslog.h>
#include <time.h>

#define AUDIT_VERSION 1
#define AUDIT_FACILITY LOG_AUTHPRIV
#ifndef COCOON_JOURNAL_SOCKET
#define COCOON_JOURNAL_SOCKET "/run/systemd/journal/socket"
#endif

struct audit_record {
	const char *event;    /* start, refuse, end */
	const char *user;
	long long uid;        /* -1: unknown */
	const char *service;  /* the PAM service, or "shell" */
	const char *rhost, *tty, *ruser; /* PAM items; NULL: not set */
	const struct plan *plan; /* rule, profile, plan hash, namespaces */
	/* Or, for a session ended from outside (cocoonctl stop), the same
	 * facts from its run-time record; used when plan is NULL. */
	const struct live_record *live;
	const char *session;  /* the session id */
	const char *result;   /* sandboxed, unconfined, exempt, refused, ... */
	const char *reason;   /* why, on a refusal (or what ended it) */
	const char *mode;     /* "audit" under pam_cocoon mode=audit */
	long long duration;   /* seconds, on end records; -1: none */
	long long status;     /* the session's exit status, on end; -1: none */
	/* share-sandbox: the shared sandbox's id (its first login's) and
	 * what this login did to it: created, joined, left (end records);
	 * NULL: not shared. */
	const char *sandbox, *share;
};

/* What a session's end record needs, kept from its start: its id, the
 * plan's names (rule, profile, hash, namespaces) and when it started. */
struct audit_session {
	struct plan plan;
	char id[33];
	struct timespec started;
	char sandbox[RECORD_ID_MAX + 1]; /* share-sandbox: its id; "": none */
	bool joined;                      /* and this login joined it */
};

/* Keep PLAN's names and ID, and start the clock. */
void audit_session_begin(struct audit_session *s, const struct plan *plan, const char *id);
/* The session is a login of the shared sandbox SANDBOX (NULL: not
 * shared), which it made or JOINED. */
void audit_session_shared(struct audit_session *s, const char *sandbox, bool joined);
/* R, a start record, gets the session's id and, for a login of a shared
 * sandbox, the sandbox's id and share=created or joined. */
void audit_session_start(const struct audit_session *s, struct audit_record *r);
/* R, an end record, gets the session's id, plan and duration, and, for
 * a login of a shared sandbox, the sandbox's id and share=left: the
 * login left, the sandbox goes on (or lingers) without it. And its
 * result: stopped when cocoonctl stop ended it (its mark, records.h,
 * taken here: call this once the session's record is gone), else
 * expired (reason max-session-time) when EXPIRED, else ended. S NULL:
 * the result alone. */
void audit_session_end(const struct audit_session *s, bool expired, struct audit_record *r);
/* The priority of an end record R: LOG_INFO when it ended, LOG_NOTICE
 * when its deadline or cocoonctl stop ended it. */
int audit_end_priority(const struct audit_record *r);
void audit_session_free(struct audit_session *s);

/* A record with every optional field unset. */
void audit_init(struct audit_record *r, const char *event);

/* The record as one line, without a newline: v=1 event=... user=...
 * Fields that are unset are left out; values with anything but letters,
 * digits and ._:/@+,%- are quoted, with \\ \" \n \t \r and \xHH escapes. */
void audit_format(const struct audit_record *r, struct strbuf *out);

/* What a user is told when the session policy refuses or ends a login:
 * one fixed sentence and the session id ID (NULL: none), which the
 * administrator finds in the audit record. Nothing of the policy (rule,
 * profile, paths, the reason) is in it. For AUDIT_NOTICE_STOPPED, TEXT
 * (NULL: none) is cocoonctl stop's --message, cleaned with
 * audit_notice_clean. One line ending in a newline. */
enum audit_notice { AUDIT_NOTICE_REFUSED, AUDIT_NOTICE_EXPIRED, AUDIT_NOTICE_STOPPED };
void audit_user_notice(enum audit_notice what, const char *id, const char *text,
		       struct strbuf *out);

/* The most of an administrator's message a terminal gets. */
#define AUDIT_NOTICE_TEXT_MAX 200
/* TEXT cut to AUDIT_NOTICE_TEXT_MAX bytes (not in the middle of a UTF-8
 * character), every control character (C0, DEL, C1 as UTF-8) made a
 * space: terminals act on escapes, and root typing one must not reach
 * the users' terminals as a command. */
void audit_notice_clean(const char *text, char out[AUDIT_NOTICE_TEXT_MAX + 1]);

/* journald's native socket, connected now, close-on-exec; -1 where there
 * is no journald. Connect on the host, before the process enters a
 * session: a connected socket still reaches the host's journal from
 * inside the session's mount namespace, whose private /run has no
 * journald socket (so that the session cannot write records itself). */
int audit_journal_connect(void);

/* The record as journald's native protocol has it: MESSAGE (the syslog
 * text), PRIORITY, SYSLOG_FACILITY (authpriv), SYSLOG_IDENTIFIER, then
 * COCOON_KEY=value for each field that is set, in audit_format's order
 * (COCOON_V, COCOON_EVENT, COCOON_USER ... COCOON_STATUS), the values as
 * they are, not quoted. */
void audit_journal_fields(const struct audit_record *r, const char *identifier,
			  int priority, const char *message, struct strbuf *out);

/* Send the record through FD (audit_journal_connect). -1 when journald
 * did not take it (FD -1, a full queue): the caller then logs MESSAGE to
 * syslog. Never both: on a systemd host journald reads /dev/log too, and
 * the record would be in the journal twice. */
int audit_journal_send(int fd, const struct audit_record *r, const char *identifier,
		       int priority, const char *message);

/* Where an entry point writes its records: to journald through JOURNAL
 * (audit_journal_connect; -1: none) under IDENTIFIER, with PREFIX before
 * the record's line in MESSAGE; else to syslog, through TO_SYSLOG
 * (pam_syslog, which writes its own prefix), or syslog(3) as openlog set
 * it when that is NULL. Never both: on a systemd host journald reads
 * /dev/log too, and the record would be in the journal twice. */
struct audit_log {
	int journal;
	const char *identifier;
	const char *prefix;
	void (*to_syslog)(void *data, int priority, const char *line);
	void *data;
};

void audit_log_write(const struct audit_log *log, int priority, const struct audit_record *r);

/* A refusal: R (event refuse) gets a session id of its own in ID unless
 * it has one, is written at LOG_ERR, and NOTICE gets the one line the
 * user is told (audit_user_notice). */
void audit_log_refusal(const struct audit_log *log, struct audit_record *r, char id[33],
		       struct strbuf *notice);

/* share-sandbox: the record of a shared sandbox's own end, which its
 * pid 1 writes (session_init.h, SHARE_RECORD), should the login LOGIN
 * (its record) create it: event=end with LOGIN's user, uid, service,
 * plan and session id (the sandbox's), as the template pid 1 completes
 * with result, reason, duration, sandbox and share=ended, into TEMPLATE,
 * in LOG's form (journald's fields, or syslog's line under its
 * identifier and prefix). Returns the log socket to hand pid 1 with it
 * (a copy of LOG's journal, or one connected to syslog's), close-on-exec
 * and the caller's to close, or -1 when the plan is not shared, there
 * is no log or the record is too long. */
int audit_log_end_record(const struct audit_log *log, const struct audit_record *login,
			 struct strbuf *template);

#endif
