// SPDX-License-Identifier: GPL-2.0-or-later
/* Audit records: field order, which fields appear, and the quoting that
 * keeps every record one parseable line. */
#include "audit.h"
#include "tap.h"

static void expect(const struct audit_record *r, const char *want, const char *name)
{
	struct strbuf out = { 0 };
	audit_format(r, &out);
	tap_is_str(out.data, want, name);
	sb_free(&out);
}

int main(void)
{
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

	plan.sandboxed = false;
	audit_init(&r, "start");
	r.plan = &plan;
	r.result = "unconfined";
	r.reason = "sandbox = none";
	expect(&r, "v=1 event=start rule=\"[group guests] at /etc/cocoon/cocoon.conf:12\" "
		   "profile=guest result=unconfined reason=\"sandbox = none\"",
	       "an unconfined plan names its rule but no plan hash");
	plan_free(&plan);
	return tap_done();
}
