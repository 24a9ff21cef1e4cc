// SPDX-License-Identifier: GPL-2.0-or-later
/* cocoonctl stop: end a live session, or a shared sandbox, whole. */
/* Every process of the session ends, and the end is logged as
 * pam_cocoon would log it. Named by its own id or by one of its logins',
 * a shared sandbox (share-sandbox) ends whole: its pid 1, so every
 * process of every login, and the records of all its logins. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "commands.h"
#include "sandbox_share.h"
#include "session_stderr.h"
#include "session_terminals.h"
#include "sessions.h"
#include "shells.h"
#include "syscalls.h"

#define STOP_NOTICE_MS 300

/* The audit line of a stopped session (cocoon.conf(5), AUDIT RECORDS). */
static void audit_stopped(const struct live_record *r, const char *message)
{
	struct audit_record ar;
	audit_init(&ar, "end");
	ar.user = r->user;
	ar.uid = r->uid;
	ar.service = r->service;
	ar.live = r;
	ar.session = r->id;
	ar.sandbox = r->shared[0] ? r->shared : NULL;
	ar.result = "stopped";
	/* The administrator's words, as the users were shown them. */
	char clean[AUDIT_NOTICE_TEXT_MAX + 1];
	char reason[sizeof(clean) + 32];
	if (message) {
		audit_notice_clean(message, clean);
		snprintf(reason, sizeof(reason), "cocoonctl stop: %s", clean);
	}
	ar.reason = message ? reason : "cocoonctl stop";
	struct timespec now;
	clock_gettime(CLOCK_BOOTTIME, &now);
	ar.duration = (long long)now.tv_sec - r->boottime;
	struct audit_log log = {
		.journal = audit_journal_connect(), .identifier = "cocoonctl", .prefix = ""
	};
	openlog("cocoonctl", LOG_PID, LOG_AUTHPRIV);
	audit_log_write(&log, LOG_NOTICE, &ar);
	closelog();
	if (log.journal >= 0)
		close(log.journal);
}

/* The record of the shared sandbox that R is a login of: the sandbox's
 * own (shared=its id); R itself when that one is not listed. */
static const struct live_record *sandbox_record(const struct record_list *list,
						const struct live_record *r)
{
	for (size_t i = 0; r->shared[0] && i < list->count; i++)
		if (strcmp(list->items[i].id, r->shared) == 0)
			return &list->items[i];
	return r;
}

/* The records of every login of the shared sandbox ID, its pid 1 gone:
 * as stale, so that the sandbox's record takes its cgroup with it
 * (records.h). The number of logins' records removed. */
static size_t remove_shared(const struct session_ctx *s, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < s->list.count; i++) {
		const struct live_record *o = &s->list.items[i];
		struct cc_error why;
		if (strcmp(o->shared, id) != 0)
			continue;
		if (record_remove_if_stale(s->dir, o, &why) != 0)
			fprintf(stderr, "cocoonctl stop: the record %s stays: %s\n", o->id,
				why.msg);
		else if (strcmp(o->id, id) != 0)
			n++;
	}
	return n;
}

/* Whether the first login of the shared sandbox R (whose record is the
 * sandbox's) may still be attached: its pid 1 counts more logins than
 * have records of their own (a joined login's goes as it leaves). */
static bool first_login_attached(const struct session_ctx *s, const struct live_record *r)
{
	size_t logins, joined = 0;
	long long linger;
	struct cc_error err;
	for (size_t i = 0; i < s->list.count; i++)
		joined += strcmp(s->list.items[i].shared, r->id) == 0 &&
			  strcmp(s->list.items[i].id, r->id) != 0;
	/* One that does not answer: marked, and the mark goes in time. */
	return share_status(r->uid, r->hash, &logins, &linger, &err) != 1 || logins > joined;
}

/* Whether O is a login that the kill of R's pid 1 ends: R itself, or a
 * login of R's shared sandbox. */
static bool ended_with(const struct live_record *r, const struct live_record *o)
{
	return o == r || (r->shared[0] && strcmp(o->shared, r->shared) == 0);
}

/* Mark the logins that the kill of R's pid 1 ends, so that their own end
 * records say result=stopped (records.h). */
static void mark_logins(const struct session_ctx *s, const struct live_record *r)
{
	for (size_t i = 0; i < s->list.count; i++) {
		const struct live_record *o = &s->list.items[i];
		bool first = o->shared[0] && strcmp(o->id, o->shared) == 0;
		struct cc_error err;
		if (!ended_with(r, o) || (first && !first_login_attached(s, o)))
			continue;
		if (record_mark_stopped(s->dir, o->id, &err) < 0)
			fprintf(stderr, "cocoonctl stop: %s (its end record says ended)\n", err.msg);
	}
}

/* The kill failed: nothing was stopped. */
static void unmark_logins(const struct session_ctx *s, const struct live_record *r)
{
	for (size_t i = 0; i < s->list.count; i++)
		if (ended_with(r, &s->list.items[i]))
			record_unmark_stopped(s->dir, s->list.items[i].id);
}

static int stop_session(const struct session_ctx *s)
{
	/* A login of a shared sandbox stands for the whole sandbox: the same
	 * pid 1 (its record names it, record_attach pinned it). */
	const struct live_record *r = sandbox_record(&s->list, s->record);
	int pidfd = s->pidfd;
	/* Its users are told first, on their terminals and on their logins'
	 * stderr pipes and sockets (ssh with a command), with the session's
	 * id and the administrator's --message. cocoon-shell, outside its
	 * unshared session's namespace, is pid 1's parent: its stderr is the
	 * login's. Written as the session's user, never as root. */
	struct strbuf notice = { 0 };
	audit_user_notice(AUDIT_NOTICE_STOPPED, r->id, s->args.message, &notice);
	notice.data[notice.len - 1] = '\0';
	/* A moment for whoever holds a pty's master or a pipe's reading end
	 * (sshd) to read the line before the session's end makes it close
	 * the channel: without it sshd lost the line one stop in two. */
	bool shell = !r->shared[0] && strcmp(r->service, SHELL_SERVICE) == 0;
	int told = session_terminals_write(r->pid, pidfd, notice.data);
	told += session_stderr_write(r->pid, pidfd, shell, r->uid, r->gid, notice.data);
	if (told > 0)
		nanosleep(&(struct timespec){ 0, STOP_NOTICE_MS * 1000000L }, NULL);
	sb_free(&notice);
	mark_logins(s, r);
	/* SIGKILL to pid 1 ends its whole pid namespace. */
	if (sys_pidfd_send_signal(pidfd, SIGKILL) < 0) {
		fprintf(stderr, "cocoonctl stop: %s: %s\n", r->id, strerror(errno));
		unmark_logins(s, r);
		return 1;
	}
	struct pollfd pfd = { pidfd, POLLIN, 0 };
	int n;
	while ((n = poll(&pfd, 1, 10000)) < 0 && errno == EINTR)
		;
	if (n <= 0) {
		/* The record stays: the session may still run. */
		fprintf(stderr, "cocoonctl stop: pid %d had not ended after 10 s\n",
			(int)r->pid);
		return 1;
	}
	if (!r->shared[0]) {
		record_remove(r->id);
		audit_stopped(r, s->args.message);
		printf("stopped session %s (user %s, service %s, pid %d)\n", r->id, r->user,
		       r->service, (int)r->pid);
		return 0;
	}
	size_t logins = remove_shared(s, r->shared);
	audit_stopped(r, s->args.message);
	printf("stopped shared sandbox %s (user %s, pid %d) and its %zu joined login%s\n",
	       r->shared, r->user, (int)r->pid, logins, logins == 1 ? "" : "s");
	return 0;
}

int cmd_stop(int argc, char **argv)
{
	return run_session_command(argc, argv, stop_session);
}
