// SPDX-License-Identifier: GPL-2.0-or-later
/* Errors as values: the message each cc_fail form writes, and the errno
 * it keeps for callers that branch on the cause. */
#include <errno.h>
#include <string.h>

#include "error.h"
#include "tap.h"

static void test_errnum(void)
{
	struct cc_error err;
	memset(&err, 0x55, sizeof(err));
	cc_fail(&err, "plain %d", 1);
	tap_is_str(err.msg, "plain 1", "cc_fail writes the message");
	tap_ok(err.errnum == 0, "cc_fail keeps no errno");

	errno = ENOENT;
	cc_fail_errno(&err, "open %s", "/x");
	tap_ok(err.errnum == ENOENT, "cc_fail_errno keeps errno (%d)", err.errnum);
	tap_ok(errno == ENOENT, "and leaves errno as it was");
	char want[256];
	snprintf(want, sizeof(want), "open /x: %s", strerror(ENOENT));
	tap_is_str(err.msg, want, "and appends its text");

	cc_prefix(&err, "policy");
	tap_ok(err.errnum == ENOENT, "cc_prefix keeps the errno");

	errno = 0;
	cc_fail_errnum(&err, EACCES, "saved");
	tap_ok(err.errnum == EACCES, "cc_fail_errnum keeps the errno it is given");
	snprintf(want, sizeof(want), "saved: %s", strerror(EACCES));
	tap_is_str(err.msg, want, "and appends its text");
	cc_fail_errnum(&err, 0, "none");
	tap_ok(err.errnum == 0 && strcmp(err.msg, "none") == 0,
	       "cc_fail_errnum with 0 is cc_fail");

	errno = EIO;
	cc_fail_errno(&err, "first");
	cc_fail_cause(&err, CC_NOT_FOUND, "no such user");
	tap_ok(err.errnum == 0 && err.cause == CC_NOT_FOUND,
	       "a later cc_fail_cause resets the errno and sets its cause");
	tap_ok(cc_fail_errno(NULL, "nowhere") == -1, "a NULL error is allowed");
}

int main(void)
{
	test_errnum();
	return tap_done();
}
