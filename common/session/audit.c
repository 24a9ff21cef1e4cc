// SPDX-License-Identifier: GPL-2.0-or-later
/* Audit records: their fields, as one syslog line and as journald fields. */
#include "audit.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "plan_values.h"
#include "session_init.h"

void audit_init(struct audit_record *r, const char *event)
{
	memset(r, 0, sizeof(*r));
	r->event = event;
	r->uid = -1;
	r->duration = -1;
	r->status = -1;
}

static bool is_bare(const char *v)
{
	if (!*v)
		return false;
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || strchr("._:/@+,%-", c);
		if (!plain || !c)
			return false;
	}
	return true;
}

static void add_str(struct strbuf *out, const char *s)
{
	sb_addn(out, s, strlen(s));
}

/* Appended a byte or an escape at a time, without printf: two records
 * per login were a fifth of pam_cocoon's own instructions. */
static void add_quoted(struct strbuf *out, const char *value)
{
	if (is_bare(value)) {
		add_str(out, value);
		return;
	}
	add_str(out, "\"");
	for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
		switch (*p) {
		case '"': add_str(out, "\\\""); break;
		case '\\': add_str(out, "\\\\"); break;
		case '\n': add_str(out, "\\n"); break;
		case '\t': add_str(out, "\\t"); break;
		case '\r': add_str(out, "\\r"); break;
		default:
			/* Control bytes and anything beyond ASCII, so a line is
			 * one line of plain text whatever a user name holds. */
			if (*p < 0x20 || *p >= 0x7f) {
				static const char hex[] = "0123456789abcdef";
				char esc[4] = { '\\', 'x', hex[*p >> 4], hex[*p & 15] };
				sb_addn(out, esc, sizeof(esc));
			} else {
				sb_addn(out, (const char *)p, 1);
			}
		}
	}
	add_str(out, "\"");
}

/* One field of a record: KEY (lower case letters) and its value as text. */
typedef void (*field_fn)(void *ctx, const char *key, const char *value);

static void emit_number(field_fn emit, void *ctx, const char *key, long long value)
{
	char text[24];
	if (value < 0)
		return;
	snprintf(text, sizeof(text), "%lld", value);
	emit(ctx, key, text);
}

static void emit_set(field_fn emit, void *ctx, const char *key, const char *value)
{
	if (value)
		emit(ctx, key, value);
}

/* PAM's items: set but empty means not given. */
static const char *given(const char *item)
{
	return item && *item ? item : NULL;
}

/* The plan's facts: rule, profile and, for a sandbox (HASH not NULL),
 * its hash and namespaces. */
static void plan_fields(field_fn emit, void *ctx, const char *rule, const char *profile,
			const char *hash, unsigned namespaces)
{
	emit_set(emit, ctx, "rule", rule);
	emit_set(emit, ctx, "profile", profile);
	if (!hash || !hash[0])
		return;
	char names[128];
	emit(ctx, "plan", hash);
	plan_ns_format(namespaces, names, sizeof(names));
	/* Every sandbox has its own mount namespace. */
	char all[160];
	snprintf(all, sizeof(all), "mnt%s%s", names[0] ? "," : "", names);
	for (char *p = all; *p; p++)
		if (*p == ' ')
			*p = ',';
	emit(ctx, "ns", all);
}

/* Every field that is set, in the record's fixed order: the one list
 * both the line and the journal's fields are made from. */
static void audit_fields(const struct audit_record *r, field_fn emit, void *ctx)
{
	emit_number(emit, ctx, "v", AUDIT_VERSION);
	emit_set(emit, ctx, "event", r->event);
	emit_set(emit, ctx, "user", r->user);
	emit_number(emit, ctx, "uid", r->uid);
	emit_set(emit, ctx, "service", r->service);
	emit_set(emit, ctx, "rhost", given(r->rhost));
	emit_set(emit, ctx, "tty", given(r->tty));
	emit_set(emit, ctx, "ruser", given(r->ruser));
	if (r->plan)
		plan_fields(emit, ctx, r->plan->rule, r->plan->profile,
			    r->plan->sandboxed ? r->plan->hash : NULL, r->plan->namespaces);
	else if (r->live)
		/* Only a sandbox has a run-time record. */
		plan_fields(emit, ctx, r->live->rule, r->live->profile, r->live->hash,
			    r->live->namespaces);
	emit_set(emit, ctx, "session", r->session);
	emit_set(emit, ctx, "mode", r->mode);
	emit_set(emit, ctx, "result", r->result);
	emit_set(emit, ctx, "reason", r->reason);
	emit_number(emit, ctx, "duration", r->duration);
	emit_number(emit, ctx, "status", r->status);
	/* Last: fields are added at the end of a version. */
	emit_set(emit, ctx, "sandbox", r->sandbox);
	emit_set(emit, ctx, "share", r->share);
}

static void line_field(void *ctx, const char *key, const char *value)
{
	struct strbuf *out = ctx;
	if (out->len)
		add_str(out, " ");
	add_str(out, key);
	add_str(out, "=");
	add_quoted(out, value);
}

void audit_format(const struct audit_record *r, struct strbuf *out)
{
	audit_fields(r, line_field, out);
}

/* One field of journald's native protocol: NAME=value and a newline, or,
 * for a value with a newline in it, NAME, a newline, the value's length
 * as 64 bits little-endian, the value and a newline. */
static void journal_field(struct strbuf *out, const char *name, const char *value)
{
	size_t n = strlen(value);
	add_str(out, name);
	if (!memchr(value, '\n', n)) {
		add_str(out, "=");
		sb_addn(out, value, n);
	} else {
		unsigned char size[8];
		for (int i = 0; i < 8; i++)
			size[i] = (unsigned char)((uint64_t)n >> (8 * i));
		add_str(out, "\n");
		sb_addn(out, (const char *)size, sizeof(size));
		sb_addn(out, value, n);
	}
	add_str(out, "\n");
}

/* COCOON_ and the key in capitals: result -> COCOON_RESULT. */
static void journal_record_field(void *ctx, const char *key, const char *value)
{
	char name[32] = "COCOON_";
	size_t n = strlen(name);
	for (const char *k = key; *k && n + 1 < sizeof(name); k++)
		name[n++] = (char)(*k - 'a' + 'A');
	name[n] = '\0';
	journal_field(ctx, name, value);
}

/* The fields after MESSAGE and PRIORITY. */
static void journal_fields_rest(const struct audit_record *r, const char *identifier,
				struct strbuf *out)
{
	char number[16];
	/* authpriv, as the syslog line goes. */
	snprintf(number, sizeof(number), "%d", AUDIT_FACILITY >> 3);
	journal_field(out, "SYSLOG_FACILITY", number);
	journal_field(out, "SYSLOG_IDENTIFIER", identifier);
	audit_fields(r, journal_record_field, out);
}

void audit_journal_fields(const struct audit_record *r, const char *identifier,
			  int priority, const char *message, struct strbuf *out)
{
	char number[16];
	journal_field(out, "MESSAGE", message);
	snprintf(number, sizeof(number), "%d", priority & 7);
	journal_field(out, "PRIORITY", number);
	journal_fields_rest(r, identifier, out);
}

/* TEXT on one line of a template: a newline would end it early. */
static void add_one_line(struct strbuf *out, const char *text)
{
	for (const char *p = text; *p; p++)
		sb_addn(out, *p == '\n' ? "?" : p, 1);
}

int audit_log_end_record(const struct audit_log *log, const struct audit_record *login,
			 struct strbuf *template)
{
	if (!login->plan || !login->plan->share)
		return -1;
	struct audit_record r;
	audit_init(&r, "end");
	r.user = login->user;
	r.uid = login->uid;
	r.service = login->service;
	r.plan = login->plan;
	r.session = login->session;
	bool journal = log->journal >= 0;
	int fd = journal ? fcntl(log->journal, F_DUPFD_CLOEXEC, 3) :
			   socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (!journal) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", _PATH_LOG);
		if (connect(fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0) {
			close(fd);
			return -1;
		}
	}
	/* The layout session_init_record_format reads. */
	sb_addf(template, "%c %d\n", journal ? 'j' : 's', AUDIT_FACILITY);
	if (!journal) {
		add_one_line(template, log->identifier);
		add_str(template, ": ");
	}
	add_one_line(template, log->prefix);
	add_str(template, "\n");
	struct strbuf line = { 0 };
	audit_format(&r, &line);
	add_str(template, line.data);
	sb_free(&line);
	add_str(template, "\n");
	if (journal)
		journal_fields_rest(&r, log->identifier, template);
	/* A value with a newline takes journald's binary form, whose length
	 * has NUL bytes that the template cannot carry. */
	if (template->len >= SESSION_INIT_RECORD_MAX ||
	    memchr(template->data, '\0', template->len)) {
		close(fd);
		return -1;
	}
	return fd;
}

int audit_journal_connect(void)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", COCOON_JOURNAL_SOCKET);
	if (connect(fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int audit_journal_send(int fd, const struct audit_record *r, const char *identifier,
		       int priority, const char *message)
{
	if (fd < 0)
		return -1;
	struct strbuf fields = { 0 };
	audit_journal_fields(r, identifier, priority, message, &fields);
	/* Never blocks a login on a busy journald: the caller logs to syslog
	 * instead. */
	ssize_t n = send(fd, fields.data, fields.len, MSG_DONTWAIT | MSG_NOSIGNAL);
	int rc = n == (ssize_t)fields.len ? 0 : -1;
	sb_free(&fields);
	return rc;
}

void audit_log_write(const struct audit_log *log, int priority, const struct audit_record *r)
{
	struct strbuf line = { 0 };
	audit_format(r, &line);
	char *message = xasprintf("%s%s", log->prefix, line.data);
	if (audit_journal_send(log->journal, r, log->identifier, priority, message) < 0) {
		if (log->to_syslog)
			log->to_syslog(log->data, priority, line.data);
		else
			syslog(priority, "%s", line.data);
	}
	free(message);
	sb_free(&line);
}

void audit_log_refusal(const struct audit_log *log, struct audit_record *r, char id[33],
		       struct strbuf *notice)
{
	struct cc_error err;
	if (!r->session && record_session_id_new(id, &err) == 0)
		r->session = id;
	audit_log_write(log, LOG_ERR, r);
	audit_user_notice(AUDIT_NOTICE_REFUSED, r->session, NULL, notice);
}

void audit_session_begin(struct audit_session *s, const struct plan *plan, const char *id)
{
	plan_init(&s->plan);
	s->plan.sandboxed = true;
	s->plan.namespaces = plan->namespaces;
	s->plan.rule = plan->rule ? xstrdup(plan->rule) : NULL;
	s->plan.profile = plan->profile ? xstrdup(plan->profile) : NULL;
	memcpy(s->plan.hash, plan->hash, sizeof(s->plan.hash));
	snprintf(s->id, sizeof(s->id), "%s", id);
	s->sandbox[0] = '\0'; /* not shared until audit_session_shared */
	s->joined = false;
	clock_gettime(CLOCK_BOOTTIME, &s->started);
}

int audit_end_priority(const struct audit_record *r)
{
	return r->result && strcmp(r->result, "ended") == 0 ? LOG_INFO : LOG_NOTICE;
}

void audit_session_end(const struct audit_session *s, bool expired, struct audit_record *r)
{
	/* Marked, stop found the session alive and killed it: a deadline
	 * passed since (a slow close) is not what ended it. */
	bool stopped = s && record_stopped_take(s->id);
	r->result = stopped ? "stopped" : expired ? "expired" : "ended";
	r->reason = !stopped && expired ? "max-session-time" : NULL;
	if (!s)
		return;
	struct timespec now;
	clock_gettime(CLOCK_BOOTTIME, &now);
	r->plan = &s->plan;
	r->session = s->id;
	r->duration = (long long)(now.tv_sec - s->started.tv_sec);
	if (s->sandbox[0]) {
		r->sandbox = s->sandbox;
		r->share = "left";
	}
}

void audit_session_shared(struct audit_session *s, const char *sandbox, bool joined)
{
	snprintf(s->sandbox, sizeof(s->sandbox), "%s", sandbox ? sandbox : "");
	s->joined = joined;
}

void audit_session_start(const struct audit_session *s, struct audit_record *r)
{
	r->session = s->id;
	if (s->sandbox[0]) {
		r->sandbox = s->sandbox;
		r->share = s->joined ? "joined" : "created";
	}
}

void audit_session_free(struct audit_session *s)
{
	plan_free(&s->plan);
}

void audit_user_notice(enum audit_notice what, const char *id, const char *text,
		       struct strbuf *out)
{
	static const char *const sentence[] = {
		[AUDIT_NOTICE_REFUSED] = "this login was refused by the session policy of this host",
		[AUDIT_NOTICE_EXPIRED] = "session ended: max-session-time reached",
		[AUDIT_NOTICE_STOPPED] = "session ended by the administrator",
	};
	sb_addf(out, "cocoon: %s", sentence[what]);
	if (id && *id)
		sb_addf(out, " (reference %s)", id);
	if (what == AUDIT_NOTICE_STOPPED && text && *text) {
		char clean[AUDIT_NOTICE_TEXT_MAX + 1];
		audit_notice_clean(text, clean);
		sb_addf(out, ": %s", clean);
	} else {
		add_str(out, ".");
	}
	add_str(out, "\n");
}

void audit_notice_clean(const char *text, char out[AUDIT_NOTICE_TEXT_MAX + 1])
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = 0;
	while (*p) {
		unsigned char c = *p;
		size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		size_t have = 1;
		while (have < len && p[have] >= 0x80 && p[have] < 0xc0)
			have++;
		/* C0, DEL, C1 (0xc2 0x80..0x9f in UTF-8), a stray or cut
		 * multibyte sequence: a space. */
		bool control = c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xc0) ||
			       have < len || (c == 0xc2 && p[1] < 0xa0);
		size_t width = control ? 1 : len;
		if (n + width > AUDIT_NOTICE_TEXT_MAX)
			break;
		if (control) {
			out[n++] = ' ';
		} else {
			memcpy(out + n, p, len);
			n += len;
		}
		p += have;
	}
	out[n] = '\0';
}
