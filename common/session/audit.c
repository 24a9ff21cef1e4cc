// SPDX-License-Identifier: GPL-2.0-or-later
#include "audit.h"

#include <stdio.h>
#include <string.h>

#include "plan_values.h"

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
static void add_field(struct strbuf *out, const char *key, const char *value)
{
	if (!value)
		return;
	add_str(out, " ");
	add_str(out, key);
	add_str(out, "=");
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

static void add_number(struct strbuf *out, const char *key, long long value)
{
	if (value >= 0)
		sb_addf(out, " %s=%lld", key, value);
}

void audit_format(const struct audit_record *r, struct strbuf *out)
{
	sb_addf(out, "v=%d", AUDIT_VERSION);
	add_field(out, "event", r->event);
	add_field(out, "user", r->user);
	add_number(out, "uid", r->uid);
	add_field(out, "service", r->service);
	add_field(out, "rhost", r->rhost && *r->rhost ? r->rhost : NULL);
	add_field(out, "tty", r->tty && *r->tty ? r->tty : NULL);
	add_field(out, "ruser", r->ruser && *r->ruser ? r->ruser : NULL);
	if (r->plan) {
		char names[128];
		add_field(out, "rule", r->plan->rule);
		add_field(out, "profile", r->plan->profile);
		if (r->plan->sandboxed && r->plan->hash[0]) {
			add_field(out, "plan", r->plan->hash);
			ns_format(r->plan->namespaces, names, sizeof(names));
			/* Every sandbox has its own mount namespace. */
			char all[160];
			snprintf(all, sizeof(all), "mnt%s%s", names[0] ? "," : "", names);
			for (char *p = all; *p; p++)
				if (*p == ' ')
					*p = ',';
			add_field(out, "ns", all);
		}
	}
	add_field(out, "session", r->session);
	add_field(out, "mode", r->mode);
	add_field(out, "result", r->result);
	add_field(out, "reason", r->reason);
	add_number(out, "duration", r->duration);
	add_number(out, "status", r->status);
}
