/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Audit records: one syslog line per session event, as stable key=value
 * fields a log pipeline can parse (cocoon.conf(5), AUDIT RECORDS). The
 * entry points fill a record; this file only formats it. */
#ifndef COCOON_AUDIT_H
#define COCOON_AUDIT_H

#include "plan.h"
#include "util.h"

#define AUDIT_VERSION 1

struct audit_record {
	const char *event;    /* start, refuse, end */
	const char *user;
	long long uid;        /* -1: unknown */
	const char *service;  /* the PAM service, or "shell" */
	const char *rhost, *tty, *ruser; /* PAM items; NULL: not set */
	const struct plan *plan; /* rule, profile, plan hash, namespaces */
	const char *session;  /* the session id */
	const char *result;   /* sandboxed, unconfined, exempt, refused, ... */
	const char *reason;   /* why, on a refusal (or what ended it) */
	const char *mode;     /* "audit" under pam_cocoon mode=audit */
	long long duration;   /* seconds, on end records; -1: none */
	long long status;     /* the session's exit status, on end; -1: none */
};

/* A record with every optional field unset. */
void audit_init(struct audit_record *r, const char *event);

/* The record as one line, without a newline: v=1 event=... user=...
 * Fields that are unset are left out; values with anything but letters,
 * digits and ._:/@+,%- are quoted, with \\ \" \n \t \r and \xHH escapes. */
void audit_format(const struct audit_record *r, struct strbuf *out);

#endif
