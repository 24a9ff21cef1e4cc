// SPDX-License-Identifier: GPL-2.0-or-later
/* The session's system call filter: built, exported and loaded. */
/* The session's system call filter. A deny-list: everything is allowed
 * except what lets a session change its own confinement, reach kernel
 * interfaces a login session has no use for, or type into a terminal it
 * shares. Built with libseccomp in the privileged parent, before the
 * sandbox exists; exported as a BPF program, so loading it later in the
 * session process is a single system call.
 *
 * `seccomp = default` is the same program for every session: it is built
 * once, at build time, by tools/gen-seccomp.c calling
 * seccomp_build_default() below, and embedded (build/gen/default_filter.h).
 * A `seccomp = FILE` is built at run time. tests/unit/test_seccomp.c
 * checks that the embedded program is still what libseccomp builds. */
#include "seccomp_filter.h"

#include <seccomp.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trusted_file.h"
#include "util.h"

/* Compiled without it into tools/gen-seccomp, which writes it. */
#ifndef COCOON_FILTER_GENERATOR
#include "default_filter.h"
#endif

#define MAX_ERRNO_VALUE 4095 /* the kernel's MAX_ERRNO */

struct seccomp_filter {
	struct sock_filter *insns; /* NULL: nothing to load (seccomp = none) */
	unsigned short len;
	bool log; /* seccomp-log: SECCOMP_FILTER_FLAG_LOG */
};

/* A system call refused outright. */
struct refusal {
	int nr;
	int errnum;
};

/* One line of a seccomp FILE. */
struct file_rule {
	int nr;
	int errnum;
	int line;
};

struct file_rules {
	struct file_rule *items;
	size_t count, cap;
};

#ifdef __x86_64__
/* x86_64 system calls newer than libseccomp 2.5.4's tables and Debian 12's
 * kernel headers, so a FILE may name them and the default can refuse
 * open_tree_attr (6.15, the mount API again). */
static const struct {
	const char *name;
	int nr;
} newer_syscalls[] = {
	{ "uretprobe", 335 },         { "uprobe", 336 },
	{ "cachestat", 451 },         { "fchmodat2", 452 },
	{ "map_shadow_stack", 453 },  { "futex_wake", 454 },
	{ "futex_wait", 455 },        { "futex_requeue", 456 },
	{ "statmount", 457 },         { "listmount", 458 },
	{ "lsm_get_self_attr", 459 }, { "lsm_set_self_attr", 460 },
	{ "lsm_list_modules", 461 },  { "mseal", 462 },
	{ "setxattrat", 463 },        { "getxattrat", 464 },
	{ "listxattrat", 465 },       { "removexattrat", 466 },
	{ "open_tree_attr", 467 },    { "file_getattr", 468 },
	{ "file_setattr", 469 },
};
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif
/* Numbers from here up were unassigned when this list was last reviewed
 * (Linux 6.18). They get ENOSYS, as on the kernels this list knows, so a
 * system call added later (the next mount API) is refused until someone
 * looks at it; libc falls back from ENOSYS for every new call it uses.
 * A range is one comparison in BPF but would be one libseccomp rule per
 * number, so it is a short program of its own in front of libseccomp's.
 * It only ever jumps forward to that program's first instruction, which
 * checks the architecture again by itself. */
#define FIRST_UNREVIEWED_NR 470
#define X32_SYSCALL_BIT 0x40000000u
static const struct sock_filter unreviewed_prefix[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 4),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 2, 0),
	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, FIRST_UNREVIEWED_NR, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
};
#define PREFIX_LEN ARRAY_SIZE(unreviewed_prefix)
#else
#define PREFIX_LEN 0
#endif

/* What `seccomp = default` refuses unconditionally. The conditional rules
 * (ioctl, clone, unshare, personality, socket, socketpair) are in
 * add_default_rules. */
static const struct refusal default_refusals[] = {
	/* The mount namespace is the sandbox: no mounting, unmounting or
	 * re-rooting, through either the old calls or the mount API. */
	{ __NR_mount, EPERM },
#ifdef __NR_umount
	{ __NR_umount, EPERM },
#endif
	{ __NR_umount2, EPERM },
	{ __NR_pivot_root, EPERM },
	{ __NR_open_tree, EPERM },
	{ __NR_move_mount, EPERM },
	{ __NR_fsopen, EPERM },
	{ __NR_fsconfig, EPERM },
	{ __NR_fsmount, EPERM },
	{ __NR_fspick, EPERM },
	{ __NR_mount_setattr, EPERM },
#ifdef __NR_open_tree_attr
	{ __NR_open_tree_attr, EPERM },
#endif
	/* Joining another namespace leaves the sandbox. */
	{ __NR_setns, EPERM },
	/* clone3 passes its flags in memory, where a filter cannot look for
	 * CLONE_NEWUSER; ENOSYS makes libc fall back to clone. */
	{ __NR_clone3, ENOSYS },
	/* io_uring runs operations outside the system call path, where this
	 * filter never sees them. */
	{ __NR_io_uring_setup, EPERM },
	{ __NR_io_uring_enter, EPERM },
	{ __NR_io_uring_register, EPERM },
	/* Replacing or extending the kernel. */
	{ __NR_kexec_load, EPERM },
	{ __NR_kexec_file_load, EPERM },
	{ __NR_init_module, EPERM },
	{ __NR_finit_module, EPERM },
	{ __NR_delete_module, EPERM },
#ifdef __NR_create_module
	{ __NR_create_module, EPERM },
#endif
#ifdef __NR_get_kernel_syms
	{ __NR_get_kernel_syms, EPERM },
#endif
#ifdef __NR_query_module
	{ __NR_query_module, EPERM },
#endif
	/* Large kernel attack surfaces a login session does not need. */
	{ __NR_bpf, EPERM },
	{ __NR_perf_event_open, EPERM },
	{ __NR_userfaultfd, EPERM },
	{ __NR_fanotify_init, EPERM },
#ifdef __NR_lookup_dcookie
	{ __NR_lookup_dcookie, EPERM },
#endif
	/* Keyrings are not namespaced (the user keyring is shared with the
	 * same uid outside the sandbox), and keyctl has a history of kernel
	 * bugs. */
	{ __NR_keyctl, EPERM },
	{ __NR_add_key, EPERM },
	{ __NR_request_key, EPERM },
	/* Host-wide state. */
	{ __NR_acct, EPERM },
	{ __NR_swapon, EPERM },
	{ __NR_swapoff, EPERM },
	{ __NR_reboot, EPERM },
	{ __NR_syslog, EPERM },
	{ __NR_vhangup, EPERM },
	{ __NR_quotactl, EPERM },
	{ __NR_quotactl_fd, EPERM },
	/* The clock is shared by the whole host. */
	{ __NR_settimeofday, EPERM },
	{ __NR_clock_settime, EPERM },
	{ __NR_clock_adjtime, EPERM },
	{ __NR_adjtimex, EPERM },
#ifdef __NR_stime
	{ __NR_stime, EPERM },
#endif
	/* Direct hardware access. */
#ifdef __NR_iopl
	{ __NR_iopl, EPERM },
#endif
#ifdef __NR_ioperm
	{ __NR_ioperm, EPERM },
#endif
#ifdef __NR_vm86
	{ __NR_vm86, EPERM },
#endif
#ifdef __NR_vm86old
	{ __NR_vm86old, EPERM },
#endif
#ifdef __NR_pciconfig_read
	{ __NR_pciconfig_read, EPERM },
	{ __NR_pciconfig_write, EPERM },
	{ __NR_pciconfig_iobase, EPERM },
#endif
	/* Opens any file by handle, around the sandbox's view
	 * (the "shocker" container escape). */
	{ __NR_open_by_handle_at, EPERM },
	/* Obsolete calls nothing current uses. */
#ifdef __NR_nfsservctl
	{ __NR_nfsservctl, EPERM },
#endif
#ifdef __NR_uselib
	{ __NR_uselib, EPERM },
#endif
#ifdef __NR_ustat
	{ __NR_ustat, EPERM },
#endif
#ifdef __NR_sysfs
	{ __NR_sysfs, EPERM },
#endif
#ifdef __NR__sysctl
	{ __NR__sysctl, EPERM },
#endif
};

/* Terminal requests that put bytes into another reader's input or change
 * the line discipline (TIOCSTI, CVE-2017-5226; TIOCLINUX's selection
 * paste; TIOCSETD loads line discipline code). */
static const uint32_t refused_ioctls[] = { TIOCSTI, TIOCLINUX, TIOCSETD };

/* personality(2) may set the plain Linux personality (0), the 32-bit one
 * (PER_LINUX32, for setarch i686) or query (0xffffffff). Everything else
 * changes how the kernel lays out or protects memory (ADDR_NO_RANDOMIZE,
 * READ_IMPLIES_EXEC, MMAP_PAGE_ZERO...) or emulates another system. */
#define PER_LINUX32_BIT 3

/* Socket families a login session needs: local, IPv4, IPv6, and netlink
 * (routing and address queries; it is what `ip` and libc's getaddrinfo
 * use). AF_PACKET, AF_ALG, AF_VSOCK, AF_BLUETOOTH and the other families
 * are kernel code that a session has no business reaching. All allowed
 * families are below 2^5; every family from 32 up is refused, including
 * those later kernels add. socketpair works only for AF_UNIX anyway. */
static const uint32_t socket_families[] = { AF_UNIX, AF_INET, AF_INET6,
					    AF_NETLINK };
static const uint32_t socketpair_families[] = { AF_UNIX };
#define FAMILY_BITS 5

static int lib_fail(struct cc_error *err, const char *what, int rc)
{
	return cc_fail_errnum(err, -rc, "seccomp: %s", what);
}

/* Refuse, in system call NR, every value of argument ARG in
 * [lo, lo + size) but the allowed ones. libseccomp cannot negate a
 * comparison, so the refused values are covered by aligned power-of-two
 * blocks, one masked comparison each: [lo, lo + size) is
 * "(arg & ~(size - 1)) == lo". */
static int refuse_blocks(scmp_filter_ctx ctx, int nr, unsigned arg, int errnum,
			 const uint32_t *allowed, size_t nallowed, uint64_t lo,
			 uint64_t size)
{
	bool inside = false;
	for (size_t i = 0; i < nallowed; i++)
		if (allowed[i] >= lo && allowed[i] - lo < size)
			inside = true;
	if (!inside) {
		struct scmp_arg_cmp cmp = {
			.arg = arg,
			.op = SCMP_CMP_MASKED_EQ,
			.datum_a = ~(size - 1),
			.datum_b = lo,
		};
		return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(errnum), nr,
					      1, &cmp);
	}
	if (size == 1)
		return 0; /* an allowed value */
	int rc = refuse_blocks(ctx, nr, arg, errnum, allowed, nallowed, lo,
			       size / 2);
	if (rc == 0)
		rc = refuse_blocks(ctx, nr, arg, errnum, allowed, nallowed,
				   lo + size / 2, size / 2);
	return rc;
}

/* Refuse every value of argument ARG but the allowed ones, all below
 * 2^bits. One rule refuses 2^bits and up, compared on the whole 64-bit
 * register: a value with junk in the high half is refused even where the
 * kernel, which reads an int, would have seen an allowed one. Refusing
 * junk is harmless (libc passes clean values); what must never happen is
 * the reverse, high bits letting a refused value through (CVE-2019-10063). */
static int refuse_all_but(scmp_filter_ctx ctx, int nr, unsigned arg,
			  int errnum, const uint32_t *allowed, size_t nallowed,
			  unsigned bits)
{
	struct scmp_arg_cmp cmp = {
		.arg = arg, .op = SCMP_CMP_GE, .datum_a = UINT64_C(1) << bits,
	};
	int rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(errnum), nr, 1, &cmp);
	if (rc == 0)
		rc = refuse_blocks(ctx, nr, arg, errnum, allowed, nallowed, 0,
				   UINT64_C(1) << bits);
	return rc;
}

/* Refuse every personality but 0, PER_LINUX32 and the query, as the
 * kernel sees it (an unsigned int: the low half of the register).
 * Blocks, as in refuse_blocks, would take 60 rules; this takes 32. Leave
 * out the PER_LINUX32 bit and look at the other 31 bits as a ring: unless
 * they are all 0 (0 or PER_LINUX32: allowed) or all 1, somewhere a 1 is
 * followed by a 0, and one masked comparison per neighbouring pair finds
 * it. All 1 is the query, allowed, or 0xfffffff7, refused by its own rule. */
static int refuse_personalities(scmp_filter_ctx ctx)
{
	int ring[31], n = 0;
	for (int bit = 0; bit < 32; bit++)
		if (bit != PER_LINUX32_BIT)
			ring[n++] = bit;
	int rc = 0;
	for (int i = 0; rc == 0 && i <= n; i++) {
		struct scmp_arg_cmp cmp = { .arg = 0, .op = SCMP_CMP_MASKED_EQ };
		if (i < n) {
			uint32_t one = UINT32_C(1) << ring[i];
			uint32_t zero = UINT32_C(1) << ring[(i + 1) % n];
			cmp.datum_a = one | zero;
			cmp.datum_b = one;
		} else {
			cmp.datum_a = 0xffffffffu;
			cmp.datum_b = 0xffffffffu & ~(UINT32_C(1) << PER_LINUX32_BIT);
		}
		rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM),
					    __NR_personality, 1, &cmp);
	}
	return rc;
}

static bool file_refuses(const struct file_rules *file, int nr)
{
	for (size_t i = 0; i < file->count; i++)
		if (file->items[i].nr == nr)
			return true;
	return false;
}

/* Refuse a call unless the FILE already refuses all of it, in which case
 * the FILE's errno wins; either way the call stays refused. */
static int refuse(scmp_filter_ctx ctx, const struct file_rules *file, int nr,
		  int errnum)
{
	if (file_refuses(file, nr))
		return 0;
	return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(errnum), nr, 0, NULL);
}

static int refuse_flag(scmp_filter_ctx ctx, const struct file_rules *file,
		       int nr, uint64_t flag)
{
	if (file_refuses(file, nr))
		return 0;
	struct scmp_arg_cmp cmp = {
		.arg = 0, .op = SCMP_CMP_MASKED_EQ, .datum_a = flag, .datum_b = flag,
	};
	return seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1, &cmp);
}

static int add_default_rules(scmp_filter_ctx ctx, const struct file_rules *file)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(default_refusals); i++)
		rc = refuse(ctx, file, default_refusals[i].nr,
			    default_refusals[i].errnum);

	/* ioctl's request is an unsigned int: compare the low 32 bits only,
	 * or a request with high bits set would slip past (CVE-2019-10063). */
	if (!file_refuses(file, __NR_ioctl)) {
		for (size_t i = 0; rc == 0 && i < ARRAY_SIZE(refused_ioctls); i++) {
			struct scmp_arg_cmp cmp = {
				.arg = 1,
				.op = SCMP_CMP_MASKED_EQ,
				.datum_a = 0xffffffffu,
				.datum_b = refused_ioctls[i],
			};
			rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM),
						    __NR_ioctl, 1, &cmp);
		}
	}

	/* A new user namespace gives back every capability inside it, and
	 * with them the kernel code that only root used to reach. Other
	 * namespace kinds need CAP_SYS_ADMIN, which the session lacks. */
	if (rc == 0)
		rc = refuse_flag(ctx, file, __NR_clone, CLONE_NEWUSER);
	if (rc == 0)
		rc = refuse_flag(ctx, file, __NR_unshare, CLONE_NEWUSER);

	if (rc == 0 && !file_refuses(file, __NR_personality))
		rc = refuse_personalities(ctx);

	if (rc == 0 && !file_refuses(file, __NR_socket))
		rc = refuse_all_but(ctx, __NR_socket, 0, EAFNOSUPPORT, socket_families,
				    ARRAY_SIZE(socket_families),
				    FAMILY_BITS);
	if (rc == 0 && !file_refuses(file, __NR_socketpair))
		rc = refuse_all_but(ctx, __NR_socketpair, 0, EAFNOSUPPORT,
				    socketpair_families,
				    ARRAY_SIZE(socketpair_families),
				    FAMILY_BITS);
	return rc;
}

/* The BPF program libseccomp generated, copied into memory. libseccomp
 * 2.5 exports only to a file descriptor. */
static int export_program(scmp_filter_ctx ctx, struct seccomp_filter *filter,
			  struct cc_error *err)
{
	int fd AUTOCLOSE = memfd_create("cocoon-seccomp", MFD_CLOEXEC);
	if (fd < 0)
		return cc_fail_errno(err, "seccomp: memfd_create");
	int rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0)
		return lib_fail(err, "exporting the filter", rc);
	struct stat st;
	if (fstat(fd, &st) < 0)
		return cc_fail_errno(err, "seccomp: exported filter");
	size_t size = (size_t)st.st_size;
	size_t len = size / sizeof(struct sock_filter);
	if (size == 0 || size % sizeof(struct sock_filter) != 0 ||
	    len + PREFIX_LEN > BPF_MAXINSNS)
		return cc_fail(err, "seccomp: exported filter has an unexpected size (%zu bytes)",
			       size);
	filter->insns = xcalloc(len + PREFIX_LEN, sizeof(struct sock_filter));
#ifdef FIRST_UNREVIEWED_NR
	memcpy(filter->insns, unreviewed_prefix, sizeof(unreviewed_prefix));
#endif
	char *dest = (char *)(filter->insns + PREFIX_LEN);
	size_t got = 0;
	while (got < size) {
		ssize_t n = pread(fd, dest + got, size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return cc_fail_errno(err, "seccomp: reading the exported filter");
		}
		got += (size_t)n;
	}
	filter->len = (unsigned short)(len + PREFIX_LEN);
	return 0;
}

/* FILE's rules and the default ones into CTX, exported into FILTER. */
static int build_in(scmp_filter_ctx ctx, const struct file_rules *file,
		    struct seccomp_filter *filter, struct cc_error *err)
{
	/* Only the native architecture is in the filter. Any other (i386
	 * through int 0x80, x32 numbers on x86_64) is the "bad arch" case,
	 * whose calls this filter cannot read correctly: kill the process. */
	int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
				  SCMP_ACT_KILL_PROCESS);
	if (rc < 0)
		return lib_fail(err, "the kill-process action is not available", rc);
	/* A binary tree of syscall numbers: every allowed call passes in a
	 * few comparisons instead of walking the whole list. */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (rc < 0)
		return lib_fail(err, "optimize attribute", rc);
	for (size_t i = 0; i < file->count; i++) {
		rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(file->items[i].errnum),
					    file->items[i].nr, 0, NULL);
		if (rc < 0)
			return lib_fail(err, "adding a rule from the filter file", rc);
	}
	rc = add_default_rules(ctx, file);
	if (rc < 0)
		return lib_fail(err, "adding the default rules", rc);
	return export_program(ctx, filter, err);
}

static int build(const struct file_rules *file, struct seccomp_filter *filter,
		 struct cc_error *err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return cc_fail(err, "seccomp: cannot create a libseccomp context");
	int rc = build_in(ctx, file, filter, err);
	seccomp_release(ctx);
	return rc < 0 ? -1 : 0;
}

/* The native number of a system call name; INT_MIN when unknown, a
 * negative number when it exists only on other architectures. */
static int resolve_syscall(const char *name)
{
#ifdef __x86_64__
	for (size_t i = 0; i < ARRAY_SIZE(newer_syscalls); i++)
		if (strcmp(newer_syscalls[i].name, name) == 0)
			return newer_syscalls[i].nr;
#endif
	int nr = seccomp_syscall_resolve_name(name);
	return nr == __NR_SCMP_ERROR ? INT_MIN : nr;
}

/* An errno by name (EPERM) or number (1 to 4095); 0 when invalid.
 * Zero is refused: a call "failing" with 0 would report success without
 * having run, and a setuid() that pretends is a privilege bug. */
static int parse_errno(const char *word)
{
	if (isdigit((unsigned char)word[0])) {
		char *end;
		errno = 0;
		long v = strtol(word, &end, 10);
		if (errno || *end || v < 1 || v > MAX_ERRNO_VALUE)
			return 0;
		return (int)v;
	}
	static const struct {
		const char *name;
		int value;
	} aliases[] = {
		{ "EWOULDBLOCK", EWOULDBLOCK },
		{ "EDEADLOCK", EDEADLOCK },
		{ "ENOTSUP", ENOTSUP },
	};
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (strcmp(aliases[i].name, word) == 0)
			return aliases[i].value;
	for (int e = 1; e < 256; e++) {
		const char *name = strerrorname_np(e);
		if (name && strcmp(name, word) == 0)
			return e;
	}
	return 0;
}

/* One line: "name [errno]", with # comments. */
static int parse_line(char *line, const char *path, int lineno,
		      struct file_rules *rules, struct cc_error *err)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	char *words[3];
	size_t nwords = 0;
	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		if (nwords == 3)
			break;
		words[nwords++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (nwords == 0)
		return 0;
	if (nwords > 2)
		return cc_fail(err, "%s:%d: expected a system call name and an "
			       "optional errno, found '%s' after them",
			       path, lineno, words[2]);
	int nr = resolve_syscall(words[0]);
	if (nr == INT_MIN)
		return cc_fail(err, "%s:%d: unknown system call '%s'", path,
			       lineno, words[0]);
	int errnum = EPERM;
	if (nwords == 2) {
		errnum = parse_errno(words[1]);
		if (!errnum)
			return cc_fail(err, "%s:%d: unknown errno '%s' (a name "
				       "like EPERM or a number from 1 to %d)",
				       path, lineno, words[1], MAX_ERRNO_VALUE);
	}
	if (nr < 0)
		return 0; /* not on this architecture; foreign calls are killed */
	for (size_t i = 0; i < rules->count; i++)
		if (rules->items[i].nr == nr)
			return cc_fail(err, "%s:%d: '%s' is already listed at line %d",
				       path, lineno, words[0], rules->items[i].line);
	struct file_rule *r = ARRAY_PUSH(rules->items, rules->count, rules->cap);
	r->nr = nr;
	r->errnum = errnum;
	r->line = lineno;
	return 0;
}

static int parse_text(char *text, size_t len, const char *path,
		      struct file_rules *rules, struct cc_error *err)
{
	int lineno = 0;
	for (char *line = text; line < text + len;) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		char *end = nl ? nl : text + len;
		lineno++;
		if (memchr(line, '\0', (size_t)(end - line)))
			return cc_fail(err, "%s:%d: NUL byte in a text file", path,
				       lineno);
		*end = '\0';
		if (parse_line(line, path, lineno, rules, err) < 0)
			return -1;
		line = end + 1;
	}
	return 0;
}

/* Read a FILE under the same trust rule as the policy: root-owned and
 * writable by nobody else, down the whole path, never through a symlink
 * at the end, and checked again on the opened file. */
static int load_file(const char *path, struct file_rules *rules,
		     struct cc_error *err)
{
	if (path[0] != '/')
		return cc_fail(err, "seccomp file %s: not an absolute path", path);
	char *text AUTOFREE = NULL;
	size_t len;
	if (read_trusted_file(path, SECCOMP_FILE_MAX, &text, &len, err) < 0)
		return cc_prefix(err, "seccomp file");
	return parse_text(text, len, path, rules, err);
}

/* The file's text the plan was made with (parse_text cuts its copy). */
static int parse_copy(const struct plan *plan, struct file_rules *rules,
		      struct cc_error *err)
{
	char *text AUTOFREE = xmalloc(plan->seccomp_text_len + 1);
	memcpy(text, plan->seccomp_text, plan->seccomp_text_len);
	text[plan->seccomp_text_len] = '\0';
	return parse_text(text, plan->seccomp_text_len, plan->seccomp_file, rules, err);
}

/* The program generated at build time for `seccomp = default`; false
 * when there is none, or it was made for another architecture (a cross
 * build), and it must be built here. */
static bool take_embedded_default(struct seccomp_filter *filter)
{
#ifdef COCOON_FILTER_GENERATOR
	(void)filter;
	return false;
#else
	if (DEFAULT_FILTER_ARCH != seccomp_arch_native())
		return false;
	filter->insns = xmalloc(sizeof(default_filter));
	memcpy(filter->insns, default_filter, sizeof(default_filter));
	filter->len = ARRAY_SIZE(default_filter);
	return true;
#endif
}

struct seccomp_filter *seccomp_build_default(struct cc_error *err)
{
	struct seccomp_filter *filter = xcalloc(1, sizeof(*filter));
	struct file_rules none = { 0 };
	if (build(&none, filter, err) < 0) {
		seccomp_filter_free(filter);
		return NULL;
	}
	return filter;
}

struct seccomp_filter *seccomp_prepare(const struct plan *plan,
				       struct cc_error *err)
{
	struct seccomp_filter *filter = xcalloc(1, sizeof(*filter));
	struct file_rules rules = { 0 };
	int rc = 0;
	filter->log = plan->seccomp_log;
	if (plan->seccomp == SECCOMP_NONE)
		return filter;
	if (plan->seccomp == SECCOMP_FILE) {
		/* The FILE adds to the default rules, never replaces them. */
		if (!plan->seccomp_file)
			rc = cc_fail(err, "seccomp: the plan names no filter file");
		else if (plan->seccomp_text)
			rc = parse_copy(plan, &rules, err);
		else
			rc = load_file(plan->seccomp_file, &rules, err);
	} else if (plan->seccomp != SECCOMP_DEFAULT) {
		rc = cc_fail(err, "seccomp: unknown mode %d", (int)plan->seccomp);
	} else if (take_embedded_default(filter)) {
		return filter;
	}
	if (rc == 0)
		rc = build(&rules, filter, err);
	free(rules.items);
	if (rc < 0) {
		seccomp_filter_free(filter);
		return NULL;
	}
	return filter;
}

int seccomp_load_filter(struct seccomp_filter *filter, struct cc_error *err)
{
	if (!filter) /* never "no filter" by mistake */
		return cc_fail(err, "seccomp: no filter was prepared");
	if (!filter->insns)
		return 0;
	struct sock_fprog prog = { .len = filter->len, .filter = filter->insns };
	/* No TSYNC (one thread), and the kernel's default for speculative
	 * store bypass. LOG sends every refusal (the errno and kill actions)
	 * to the audit log. No no_new_privs either: see seccomp_filter.h. */
	unsigned flags = filter->log ? SECCOMP_FILTER_FLAG_LOG : 0;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog) == 0)
		return 0;
	if (errno == EACCES)
		return cc_fail(err, "seccomp: loading the filter needs "
			       "no_new_privs or CAP_SYS_ADMIN; load it before "
			       "the switch to the user");
	return cc_fail_errno(err, "seccomp: loading the filter");
}

void seccomp_filter_free(struct seccomp_filter *filter)
{
	if (!filter)
		return;
	free(filter->insns);
	free(filter);
}

int seccomp_filter_program(const struct seccomp_filter *filter, const void **data,
			   size_t *len)
{
	if (!filter)
		return -1;
	*data = filter->insns;
	*len = filter->insns ? (size_t)filter->len * sizeof(struct sock_filter) : 0;
	return 0;
}
