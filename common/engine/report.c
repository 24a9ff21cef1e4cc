// SPDX-License-Identifier: GPL-2.0-or-later
/* The setup's reports to its parent: sent and received. */
/* Sending and receiving the setup's reports (report.h). System calls
 * only: the senders are children of the setup, some still running in
 * the service's memory. */
#include "report.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

void report_error(int sock, const struct cc_error *err)
{
	char buf[1 + sizeof(err->msg)];
	size_t n = strnlen(err->msg, sizeof(err->msg) - 1);
	buf[0] = REPORT_ERROR;
	memcpy(buf + 1, err->msg, n);
	if (send(sock, buf, n + 1, MSG_NOSIGNAL) < 0) {
		/* Nobody is listening any more: nothing to tell. */
	}
}

int report_send(int sock, enum report_msg msg)
{
	char byte = (char)msg;
	return send(sock, &byte, 1, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int report_send_fd(int sock, enum report_msg msg, int fd)
{
	char byte = (char)msg;
	struct iovec iov = { &byte, 1 };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	memset(&ctl, 0, sizeof(ctl));
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

/* More than one descriptor is never sent; room for a few, so that those
 * beyond the first are closed here rather than by the kernel. */
#define REPORT_FDS_MAX 4

ssize_t report_recv(int sock, int flags, char *buf, size_t size, int *fd)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(REPORT_FDS_MAX * sizeof(int))];
	} ctl;
	struct iovec iov = { buf, size - 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	*fd = -1;
	ssize_t n = recvmsg(sock, &mh, flags | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return n;
	buf[n] = '\0';
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < count; i++) {
			int got;
			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*fd < 0)
				*fd = got;
			else
				close(got);
		}
	}
	return n;
}

ssize_t report_read_byte(int fd, char *c)
{
	ssize_t n;
	do
		n = read(fd, c, 1);
	while (n < 0 && errno == EINTR);
	return n;
}
