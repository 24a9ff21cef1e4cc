/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Live session records: one root-only file per session under
 * COCOON_RUNDIR, written by the engine once the session's pid 1 exists and
 * removed when the session ends, read by `cocoonctl list/stop/enter`
 * (cocoonctl(8), SESSION RECORDS).
 *
 * A record is never trusted by its pid alone: record_attach pins the
 * process with a pidfd and compares its start time and the inodes of its
 * pid and mount namespaces with the record, so a pid reused since (or a
 * record left by a crash) is found stale. */
#ifndef COCOON_RECORDS_H
#define COCOON_RECORDS_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "plan.h"

#ifndef COCOON_RUNDIR
#define COCOON_RUNDIR "/run/cocoon"
#endif
#define RECORD_VERSION 1
/* Ids are lower-case hex; a prefix names a session from this length on. */
#define RECORD_ID_MAX 64
#define RECORD_PREFIX_MIN 8

struct live_record {
	char id[RECORD_ID_MAX + 1];
	char *user;
	uid_t uid;
	gid_t gid;
	char *service;
	long long started;  /* realtime seconds, for display */
	long long boottime; /* CLOCK_BOOTTIME seconds at the start */
	char *rule, *profile; /* profile NULL: none */
	char hash[17];
	unsigned namespaces;  /* enum ns_flag bits; NS_PID unset: pid is the
			       * session process itself */
	pid_t pid;            /* pid 1 of the session (host pid) */
	unsigned long long start_ticks; /* field 22 of /proc/PID/stat */
	unsigned long long pidns, mntns; /* inodes of /proc/PID/ns/{pid,mnt} */
	unsigned ptys;        /* the most its devpts holds (pty_quota.h); a
			       * record written before there was a grant
			       * says none: RECORD_PTYS_BEFORE */
	/* share-sandbox: the id of the shared sandbox, its first login's
	 * ("": not shared). That login's record is the sandbox's: it stays
	 * until the sandbox ends. A login that joined holds no devpts of
	 * its own (its ptys are not counted). */
	char shared[RECORD_ID_MAX + 1];
};
/* What a session's devpts held before ptys were granted. */
#define RECORD_PTYS_BEFORE 1024u

/* 16 random bytes in hex. */
int record_session_id_new(char id[33], struct cc_error *err);

/* The engine's hooks, in two steps, so that the writing is done while
 * the sandbox is built: record_prepare writes the record of PLAN's
 * session ID, whose pid 1 (or session process) is PID, pinned by PIDFD,
 * under a dot name (which `list` skips); record_publish renames it into
 * place once the sandbox is whole. A NULL id prepares nothing, and
 * publishing it does nothing.
 * record_discard lets go of PENDING: a record not published goes with
 * it, a published one stays (pam_cocoon's, removed at the session's
 * close by record_remove).
 * record_end removes PENDING's record, published or not (by ID when none
 * is pending), and with it any stale record of a session that is gone.
 * record_remove: the same by ID alone (pam_cocoon's close). Both best
 * effort, quiet (a missing record is fine). */
struct record_pending {
	int dir; /* -1: nothing pending */
	char id[RECORD_ID_MAX + 1];
	bool published;
};
int record_prepare(const struct plan *plan, const char *id, pid_t pid, int pidfd,
		   unsigned ptys, struct record_pending *pending, struct cc_error *err);
/* The same for a login of a shared sandbox, SHARED its id (ID itself for
 * the login that creates it). */
int record_prepare_shared(const struct plan *plan, const char *id, const char *shared,
			  pid_t pid, int pidfd, unsigned ptys,
			  struct record_pending *pending, struct cc_error *err);
int record_publish(struct record_pending *pending, struct cc_error *err);
void record_discard(struct record_pending *pending);
void record_end(struct record_pending *pending, const char *id);
void record_remove(const char *id);

/* cocoonctl stop's mark on the login ID: a root-only file beside its
 * record, so that the login's own end record (pam_cocoon's, cocoon-shell's)
 * says result=stopped. Only root writes in the directory: the session's
 * user cannot make one. Stop marks before its kill: under a pending name
 * first, renamed to the mark only if the record is still there after; a
 * login takes its mark after removing its record (a shared sandbox's
 * first login never does: it is the sandbox's). So either stop sees the
 * record and the login the mark, or the login ended on its own and takes
 * nothing.
 * record_mark_stopped: 1 marked, 0 the record is gone (nothing marked),
 * -1 failed. record_unmark_stopped undoes it (the kill failed).
 * record_stopped_take: whether ID was marked, the mark removed. One no
 * login took (its service killed) goes after RECORD_MARK_MAX_S. */
#define RECORD_MARK_MAX_S 86400
int record_mark_stopped(int dir, const char *id, struct cc_error *err);
void record_unmark_stopped(int dir, const char *id);
bool record_stopped_take(const char *id);

/* Whether the process PID, pinned by PIDFD, has ended or is in its
 * exit (then waited for): a session whose first process is over needs
 * no record, as nothing of it runs any more. */
bool record_process_over(pid_t pid, int pidfd);

/* The record directory, opened after checking that it is a
 * directory of root's with mode 0700 below a trusted path; CREATE makes
 * it when missing. */
int record_dir_open(bool create, struct cc_error *err);

/* Read the record NAME in DIR: a regular file of root's, mode 0600, in
 * the version this code reads, every field present. */
int record_read(int dir, const char *name, struct live_record *rec,
		struct cc_error *err);
void record_free(struct live_record *rec);

/* The identity check. Returns 1 with *pidfd pinning the live session's
 * pid 1; 0 when the record is stale (why in err); -1 on an error. */
int record_attach(const struct live_record *rec, int *pidfd,
		  struct cc_error *err);

/* record_attach, and REC's record removed from DIR when it is stale: 1
 * live, 0 stale and removed (why in err), -1 unknown (kept). The one
 * way a reader of the records removes one (cocoonctl list). */
int record_remove_if_stale(int dir, const struct live_record *rec, struct cc_error *err);

/* Every record in the directory, sorted by start; files that are not
 * records (or fail record_read) are reported through BAD (may be NULL)
 * and skipped. */
struct record_list {
	struct live_record *items;
	size_t count, cap;
};
int records_load(int dir, struct record_list *list,
		 void (*bad)(const char *name, const struct cc_error *err),
		 struct cc_error *err);
void records_free(struct record_list *list);

/* The ptys the live sessions of UID hold (their records' grants), and
 * how many sessions they are, published or still being written; a stale
 * record counts for nothing, one whose liveness cannot be told counts
 * in full. For pty_quota, under the user's lock. */
int records_ptys_held(int dir, uid_t uid, unsigned long long *ptys, size_t *sessions,
		      struct cc_error *err);

/* The one record whose id starts with PREFIX (at least RECORD_PREFIX_MIN
 * characters, or the whole id); -1 with err when none or several do. */
int records_find(const struct record_list *list, const char *prefix,
		 const struct live_record **out, struct cc_error *err);

#endif
