// SPDX-License-Identifier: GPL-2.0-or-later
/* The session's seccomp filter, tried for real. Run as root:
 *
 *   seccomp-probe              load `seccomp = default` and try each refused
 *                              operation: each must be refused (EPERM, or
 *                              the errno or kill the filter promises);
 *                              also the FILE format and the loading order
 *   seccomp-probe --no-filter  the same operations without the filter: each
 *                              must succeed or fail differently, which shows
 *                              the first run's refusals came from the filter
 *   seccomp-probe --bench [N]  time seccomp_prepare and seccomp_load_filter
 *
 * Every operation runs in a child of its own, so one that succeeds (or
 * kills its process) changes nothing for the next. Operations that would
 * touch the host when they succeed are given arguments that make the
 * kernel fail them harmlessly after its permission check (a missing path,
 * a bad descriptor, an invalid flag), and mounts happen in a private
 * mount namespace. Output is TAP. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../unit/tap.h"
#include "plan.h"
#include "policy.h"
#include "seccomp_filter.h"
#include "trusted_file.h"

#define NR_open_tree_attr 467 /* x86_64, Linux 6.15 */
#define NOWHERE "/nonexistent-cocoon-probe"

static int pty_slave = -1;
static char dir[64]; /* a root-owned scratch directory */
static bool dir_trusted;
static bool have_i386; /* int 0x80 works here (IA32 emulation is on) */

/* What a child did: returned (value = 0 or an errno) or was killed. */
struct outcome {
	bool killed;
	int value; /* errno, or the signal when killed */
};

static long result(long rc)
{
	return rc < 0 ? -errno : 0;
}

/* seccomp_prepare, then seccomp_load_filter: what the session does,
 * without the session around it. */
static int seccomp_apply(const struct plan *plan, struct cc_error *err)
{
	struct seccomp_filter *filter = seccomp_prepare(plan, err);
	if (!filter)
		return -1;
	int rc = seccomp_load_filter(filter, err);
	seccomp_filter_free(filter);
	return rc;
}

/* Run fn in a child, under the filter the plan asks for when plan is
 * not NULL (on top of whatever this process has). */
static struct outcome run_case(long (*fn)(void), const struct plan *plan)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		if (plan) {
			struct cc_error err;
			if (seccomp_apply(plan, &err) < 0) {
				printf("# seccomp_apply: %s\n", err.msg);
				fflush(stdout);
				_exit(255);
			}
		}
		long r = fn();
		_exit(r < 0 ? (int)-r : 0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("waitpid");
			exit(2);
		}
	if (WIFSIGNALED(status))
		return (struct outcome){ true, WTERMSIG(status) };
	return (struct outcome){ false, WEXITSTATUS(status) };
}

static const char *describe(struct outcome o, char *buf, size_t size)
{
	if (o.killed)
		snprintf(buf, size, "killed by SIG%s", sigabbrev_np(o.value) ?
			 sigabbrev_np(o.value) : "?");
	else if (o.value == 0)
		snprintf(buf, size, "succeeded");
	else if (o.value == 255)
		snprintf(buf, size, "could not load the filter");
	else
		snprintf(buf, size, "%s", strerrorname_np(o.value) ?
			 strerrorname_np(o.value) : "unknown errno");
	return buf;
}

static bool same(struct outcome a, struct outcome b)
{
	return a.killed == b.killed && a.value == b.value;
}

#define REFUSED(e) ((struct outcome){ false, (e) })
#define KILLED ((struct outcome){ true, SIGSYS })
#define WORKS ((struct outcome){ false, 0 })

/* ---- what the default filter refuses ---- */

static long tiocsti(void)
{
	char c = 'x';
	return result(ioctl(pty_slave, TIOCSTI, &c));
}

/* The request is an unsigned int in the kernel: the high half of the
 * register is dropped after the filter has looked at it. */
static long tiocsti_high_bits(void)
{
	char c = 'x';
	return result(syscall(SYS_ioctl, pty_slave, 0x100005412UL, &c));
}

static long tioclinux(void)
{
	char subcode = 6; /* TIOCL_GETSHIFTSTATE */
	return result(ioctl(pty_slave, TIOCLINUX, &subcode));
}

static long tiocsetd(void)
{
	int ldisc = 0; /* N_TTY, the one it already has */
	return result(ioctl(pty_slave, TIOCSETD, &ldisc));
}

static long unshare_user(void)
{
	return result(unshare(CLONE_NEWUSER));
}

/* A raw clone, fork-like (no new stack): the child leaves at once. */
static long raw_clone(unsigned long flags)
{
	long pid = syscall(SYS_clone, flags | SIGCHLD, 0L, 0L, 0L, 0L);
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return -errno;
	waitpid((pid_t)pid, NULL, 0);
	return 0;
}

static long clone_user(void)
{
	return raw_clone(CLONE_NEWUSER);
}

static long clone3_plain(void)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	long pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return -errno;
	waitpid((pid_t)pid, NULL, 0);
	return 0;
}

static long do_mount(void)
{
	if (mount("cocoon-probe", dir, "tmpfs", 0, "size=16k") < 0)
		return -errno;
	umount2(dir, MNT_DETACH);
	return 0;
}

static long do_umount2(void) { return result(umount2(NOWHERE, 0)); }
static long do_pivot_root(void) { return result(syscall(SYS_pivot_root, NOWHERE, NOWHERE)); }
static long do_open_tree(void) { return result(syscall(SYS_open_tree, AT_FDCWD, NOWHERE, 0)); }
static long do_move_mount(void) { return result(syscall(SYS_move_mount, -1, "", -1, "", 0)); }
static long do_fsopen(void) { return result(syscall(SYS_fsopen, "cocoon-nofs", 0)); }
static long do_fsconfig(void) { return result(syscall(SYS_fsconfig, -1, 6, NULL, NULL, 0)); }
static long do_fsmount(void) { return result(syscall(SYS_fsmount, -1, 0, 0)); }
static long do_fspick(void) { return result(syscall(SYS_fspick, AT_FDCWD, NOWHERE, 0)); }
static long do_mount_setattr(void) { return result(syscall(SYS_mount_setattr, -1, "", 0, NULL, 0)); }
static long do_open_tree_attr(void) { return result(syscall(NR_open_tree_attr, AT_FDCWD, NOWHERE, 0, NULL, 0)); }
static long do_setns(void) { return result(setns(-1, 0)); }
static long do_io_uring_setup(void) { return result(syscall(SYS_io_uring_setup, 1, NULL)); }
static long do_io_uring_enter(void) { return result(syscall(SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0)); }
static long do_io_uring_register(void) { return result(syscall(SYS_io_uring_register, -1, 0, NULL, 0)); }
static long do_kexec_load(void) { return result(syscall(SYS_kexec_load, 0, 0, NULL, 0)); }
static long do_kexec_file_load(void) { return result(syscall(SYS_kexec_file_load, -1, -1, 0, "", 0)); }
static long do_init_module(void) { return result(syscall(SYS_init_module, NULL, 0, "")); }
static long do_finit_module(void) { return result(syscall(SYS_finit_module, -1, "", 0)); }
static long do_delete_module(void) { return result(syscall(SYS_delete_module, "cocoon_none", 0)); }
static long do_bpf(void) { return result(syscall(SYS_bpf, -1, NULL, 0)); }
static long do_perf_event_open(void) { return result(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0)); }
static long do_userfaultfd(void) { return result(syscall(SYS_userfaultfd, ~0)); }
static long do_fanotify_init(void) { return result(syscall(SYS_fanotify_init, 0, O_RDONLY)); }
static long do_lookup_dcookie(void) { return result(syscall(SYS_lookup_dcookie, 0, NULL, 0)); }
static long do_keyctl(void) { return result(syscall(SYS_keyctl, -1, 0, 0, 0, 0)); }
static long do_add_key(void) { return result(syscall(SYS_add_key, NULL, NULL, NULL, 0, 0)); }
static long do_request_key(void) { return result(syscall(SYS_request_key, NULL, NULL, NULL, 0)); }
static long do_acct(void) { return result(syscall(SYS_acct, NOWHERE)); }
static long do_swapon(void) { return result(syscall(SYS_swapon, NOWHERE, 0)); }
static long do_swapoff(void) { return result(syscall(SYS_swapoff, NOWHERE)); }
static long do_reboot(void) { return result(syscall(SYS_reboot, 0, 0, 0, NULL)); } /* bad magic */
static long do_syslog(void) { return result(syscall(SYS_syslog, 10 /* SIZE_BUFFER */, NULL, 0)); }
static long do_quotactl(void) { return result(syscall(SYS_quotactl, 0, NULL, 0, NULL)); }
static long do_quotactl_fd(void) { return result(syscall(SYS_quotactl_fd, -1, 0, 0, NULL)); }
static long do_settimeofday(void) { return result(syscall(SYS_settimeofday, NULL, NULL)); } /* no-op */
static long do_iopl(void) { return result(syscall(SYS_iopl, 4)); }
static long do_ioperm(void) { return result(syscall(SYS_ioperm, 0, 0, 0)); }
static long do_open_by_handle_at(void) { return result(syscall(SYS_open_by_handle_at, -1, NULL, 0)); }
static long do_nfsservctl(void) { return result(syscall(SYS_nfsservctl, 0, NULL, NULL)); }
static long do_uselib(void) { return result(syscall(SYS_uselib, NOWHERE)); }
static long do_ustat(void) { return result(syscall(SYS_ustat, 0, NULL)); }
static long do_sysfs(void) { return result(syscall(SYS_sysfs, 3)); }
static long do_sysctl(void) { return result(syscall(SYS__sysctl, NULL)); }
static long do_create_module(void) { return result(syscall(SYS_create_module, NULL, 0)); }
static long do_get_kernel_syms(void) { return result(syscall(SYS_get_kernel_syms, NULL)); }
static long do_query_module(void) { return result(syscall(SYS_query_module, NULL, 0, NULL, 0, NULL)); }

static long do_vhangup(void)
{
	setsid(); /* no controlling terminal: nothing to hang up */
	return result(syscall(SYS_vhangup));
}

static long do_clock_settime(void)
{
	struct timespec ts = { 0 };
	return result(syscall(SYS_clock_settime, CLOCK_MONOTONIC, &ts));
}

static long do_clock_adjtime(void)
{
	struct timex tx = { 0 }; /* modes 0: read only */
	return result(syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx));
}

static long do_adjtimex(void)
{
	struct timex tx = { 0 };
	return result(syscall(SYS_adjtimex, &tx));
}

static long personality_no_aslr(void)
{
	return result(syscall(SYS_personality, (unsigned long)ADDR_NO_RANDOMIZE));
}

static long personality_no_aslr_high_bits(void)
{
	return result(syscall(SYS_personality,
			      0xffffffff00000000UL | ADDR_NO_RANDOMIZE));
}

static long personality_read_implies_exec(void)
{
	return result(syscall(SYS_personality, (unsigned long)READ_IMPLIES_EXEC));
}

static long socket_packet(void) { return result(socket(AF_PACKET, SOCK_DGRAM, 0)); }

static long socket_packet_high_bits(void)
{
	return result(syscall(SYS_socket, (1UL << 32) | AF_PACKET, SOCK_DGRAM, 0));
}

static long socketpair_packet(void)
{
	int sv[2];
	return result(socketpair(AF_PACKET, SOCK_DGRAM, 0, sv));
}

/* getpid through the i386 table (number 20 there). */
static long int80(void)
{
#ifdef __x86_64__
	long ret = 20;
	__asm__ volatile("int $0x80"
			 : "+a"(ret)
			 :
			 : "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10",
			   "r11", "memory", "cc");
	return ret < 0 && ret > -4096 ? ret : 0;
#else
	return 0;
#endif
}

static long x32_getpid(void)
{
	return result(syscall(0x40000000L | SYS_getpid));
}

/* ---- what it must leave alone ---- */

static void *thread_main(void *arg)
{
	return arg;
}

static long fork_works(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return -errno;
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

static long thread_works(void)
{
	pthread_t t;
	int rc = pthread_create(&t, NULL, thread_main, NULL);
	if (rc)
		return -rc;
	return -pthread_join(t, NULL);
}

static long clone_plain(void) { return raw_clone(0); }
static long unshare_mount_ns(void) { return result(unshare(CLONE_NEWNS)); }
static long personality_query(void) { return result(personality(0xffffffff)); }
static long personality_linux32(void) { return result(personality(PER_LINUX32)); }

static long personality_query_64(void)
{
	return result(syscall(SYS_personality, ~0UL));
}

static long ptrace_traceme(void) { return result(ptrace(PTRACE_TRACEME, 0, NULL, NULL)); }

static long tiocgwinsz(void)
{
	struct winsize ws;
	return result(ioctl(pty_slave, TIOCGWINSZ, &ws));
}

static long socket_unix(void) { return result(socket(AF_UNIX, SOCK_STREAM, 0)); }
static long socket_inet(void) { return result(socket(AF_INET, SOCK_DGRAM, 0)); }
static long socket_inet6(void) { return result(socket(AF_INET6, SOCK_DGRAM, 0)); }
static long socket_netlink(void) { return result(socket(AF_NETLINK, SOCK_RAW, 0)); }

static long socketpair_unix(void)
{
	int sv[2];
	return result(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
}

/* Every personality the kernel would see as 0, PER_LINUX32 or the query
 * passes; every other one is refused, whatever the high half holds. */
static long personality_sweep(void)
{
	uint32_t values[200];
	size_t n = 0;
	for (int bit = 0; bit < 32; bit++) {
		values[n++] = UINT32_C(1) << bit;
		values[n++] = ~(UINT32_C(1) << bit);
	}
	values[n++] = 0;
	values[n++] = 0xffffffff;
	uint32_t x = 2463534242u; /* xorshift32: the same values every run */
	while (n < sizeof(values) / sizeof(values[0])) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		values[n++] = x;
	}
	static const uint64_t highs[] = { 0, UINT64_C(1) << 32, 0xffffffff00000000u };
	long bad = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t h = 0; h < 3; h++) {
			uint32_t v = values[i];
			bool ok = v == 0 || v == PER_LINUX32 || v == 0xffffffff;
			long r = syscall(SYS_personality, highs[h] | v);
			bool refused = r < 0 && errno == EPERM;
			if (refused == ok) {
				printf("# personality %#llx: %s\n",
				       (unsigned long long)(highs[h] | v),
				       refused ? "refused" : "allowed");
				bad++;
			}
			if (!refused)
				personality(PER_LINUX);
		}
	fflush(stdout);
	return bad ? -EINVAL : 0;
}

/* socket and socketpair: the allowed families work, every other family
 * (0 to 299, negative, or with high bits set) gets EAFNOSUPPORT. */
static long family_sweep(void)
{
	long bad = 0;
	for (long f = -1; f < 300; f++)
		for (int high = 0; high < 2; high++) {
			unsigned long arg = (unsigned long)f | (high ? 1UL << 32 : 0);
			bool sock_ok = !high && (f == AF_UNIX || f == AF_INET ||
						 f == AF_INET6 || f == AF_NETLINK);
			bool pair_ok = !high && f == AF_UNIX;
			int sv[2];
			long r = syscall(SYS_socket, arg, SOCK_DGRAM, 0);
			if (r >= 0)
				close((int)r);
			if (sock_ok ? r < 0 : !(r < 0 && errno == EAFNOSUPPORT)) {
				printf("# socket(%#lx): %s\n", arg, r < 0 ?
				       strerrorname_np(errno) : "succeeded");
				bad++;
			}
			r = syscall(SYS_socketpair, arg, SOCK_DGRAM, 0, sv);
			if (r == 0) {
				close(sv[0]);
				close(sv[1]);
			}
			if (pair_ok ? r < 0 : !(r < 0 && errno == EAFNOSUPPORT)) {
				printf("# socketpair(%#lx): %s\n", arg, r < 0 ?
				       strerrorname_np(errno) : "succeeded");
				bad++;
			}
		}
	fflush(stdout);
	return bad ? -EINVAL : 0;
}

/* The first number after the reviewed list, and the last one before it. */
static long unassigned_470(void) { return result(syscall(470, 0, 0, 0, 0, 0)); }
static long unassigned_high(void) { return result(syscall(0x3fffffffL)); }
static long file_setattr_469(void) { return result(syscall(469, -1, "", NULL, 0, 0)); }

struct probe {
	const char *name;
	long (*fn)(void);
	struct outcome want; /* under the filter */
};

static const struct probe refused[] = {
	{ "ioctl TIOCSTI", tiocsti, REFUSED(EPERM) },
	{ "ioctl TIOCSTI as 0x100005412", tiocsti_high_bits, REFUSED(EPERM) },
	{ "ioctl TIOCLINUX", tioclinux, REFUSED(EPERM) },
	{ "ioctl TIOCSETD", tiocsetd, REFUSED(EPERM) },
	{ "unshare CLONE_NEWUSER", unshare_user, REFUSED(EPERM) },
	{ "clone CLONE_NEWUSER", clone_user, REFUSED(EPERM) },
	{ "clone3", clone3_plain, REFUSED(ENOSYS) },
	{ "mount", do_mount, REFUSED(EPERM) },
	{ "umount2", do_umount2, REFUSED(EPERM) },
	{ "pivot_root", do_pivot_root, REFUSED(EPERM) },
	{ "open_tree", do_open_tree, REFUSED(EPERM) },
	{ "move_mount", do_move_mount, REFUSED(EPERM) },
	{ "fsopen", do_fsopen, REFUSED(EPERM) },
	{ "fsconfig", do_fsconfig, REFUSED(EPERM) },
	{ "fsmount", do_fsmount, REFUSED(EPERM) },
	{ "fspick", do_fspick, REFUSED(EPERM) },
	{ "mount_setattr", do_mount_setattr, REFUSED(EPERM) },
	{ "open_tree_attr", do_open_tree_attr, REFUSED(EPERM) },
	{ "setns", do_setns, REFUSED(EPERM) },
	{ "io_uring_setup", do_io_uring_setup, REFUSED(EPERM) },
	{ "io_uring_enter", do_io_uring_enter, REFUSED(EPERM) },
	{ "io_uring_register", do_io_uring_register, REFUSED(EPERM) },
	{ "kexec_load", do_kexec_load, REFUSED(EPERM) },
	{ "kexec_file_load", do_kexec_file_load, REFUSED(EPERM) },
	{ "init_module", do_init_module, REFUSED(EPERM) },
	{ "finit_module", do_finit_module, REFUSED(EPERM) },
	{ "delete_module", do_delete_module, REFUSED(EPERM) },
	{ "create_module", do_create_module, REFUSED(EPERM) },
	{ "get_kernel_syms", do_get_kernel_syms, REFUSED(EPERM) },
	{ "query_module", do_query_module, REFUSED(EPERM) },
	{ "bpf", do_bpf, REFUSED(EPERM) },
	{ "perf_event_open", do_perf_event_open, REFUSED(EPERM) },
	{ "userfaultfd", do_userfaultfd, REFUSED(EPERM) },
	{ "fanotify_init", do_fanotify_init, REFUSED(EPERM) },
	{ "lookup_dcookie", do_lookup_dcookie, REFUSED(EPERM) },
	{ "keyctl", do_keyctl, REFUSED(EPERM) },
	{ "add_key", do_add_key, REFUSED(EPERM) },
	{ "request_key", do_request_key, REFUSED(EPERM) },
	{ "acct", do_acct, REFUSED(EPERM) },
	{ "swapon", do_swapon, REFUSED(EPERM) },
	{ "swapoff", do_swapoff, REFUSED(EPERM) },
	{ "reboot", do_reboot, REFUSED(EPERM) },
	{ "syslog", do_syslog, REFUSED(EPERM) },
	{ "vhangup", do_vhangup, REFUSED(EPERM) },
	{ "quotactl", do_quotactl, REFUSED(EPERM) },
	{ "quotactl_fd", do_quotactl_fd, REFUSED(EPERM) },
	{ "settimeofday", do_settimeofday, REFUSED(EPERM) },
	{ "clock_settime", do_clock_settime, REFUSED(EPERM) },
	{ "clock_adjtime", do_clock_adjtime, REFUSED(EPERM) },
	{ "adjtimex", do_adjtimex, REFUSED(EPERM) },
	{ "iopl", do_iopl, REFUSED(EPERM) },
	{ "ioperm", do_ioperm, REFUSED(EPERM) },
	{ "open_by_handle_at", do_open_by_handle_at, REFUSED(EPERM) },
	{ "nfsservctl", do_nfsservctl, REFUSED(EPERM) },
	{ "uselib", do_uselib, REFUSED(EPERM) },
	{ "ustat", do_ustat, REFUSED(EPERM) },
	{ "sysfs", do_sysfs, REFUSED(EPERM) },
	{ "_sysctl", do_sysctl, REFUSED(EPERM) },
	{ "personality ADDR_NO_RANDOMIZE", personality_no_aslr, REFUSED(EPERM) },
	{ "personality ADDR_NO_RANDOMIZE with high bits set",
	  personality_no_aslr_high_bits, REFUSED(EPERM) },
	{ "personality READ_IMPLIES_EXEC", personality_read_implies_exec,
	  REFUSED(EPERM) },
	{ "socket AF_PACKET", socket_packet, REFUSED(EAFNOSUPPORT) },
	{ "socket AF_PACKET with high bits set", socket_packet_high_bits,
	  REFUSED(EAFNOSUPPORT) },
	{ "socketpair AF_PACKET", socketpair_packet, REFUSED(EAFNOSUPPORT) },
	{ "int 0x80 (the i386 table)", int80, KILLED },
	{ "x32 system call number", x32_getpid, KILLED },
};

static const struct probe allowed[] = {
	{ "fork", fork_works, WORKS },
	{ "pthread_create (clone3 falls back to clone)", thread_works, WORKS },
	{ "clone without CLONE_NEWUSER", clone_plain, WORKS },
	{ "unshare CLONE_NEWNS (needs a capability, not refused)",
	  unshare_mount_ns, WORKS },
	{ "personality query", personality_query, WORKS },
	{ "personality query as a 64-bit -1", personality_query_64, WORKS },
	{ "personality PER_LINUX32", personality_linux32, WORKS },
	{ "ptrace TRACEME", ptrace_traceme, WORKS },
	{ "ioctl TIOCGWINSZ", tiocgwinsz, WORKS },
	{ "socket AF_UNIX", socket_unix, WORKS },
	{ "socket AF_INET", socket_inet, WORKS },
	{ "socket AF_INET6", socket_inet6, WORKS },
	{ "socket AF_NETLINK", socket_netlink, WORKS },
	{ "socketpair AF_UNIX", socketpair_unix, WORKS },
};

/* Only meaningful with the filter: without it they would either change
 * the probe's own process in ways the sweep cannot undo, or give the
 * same answer (ENOSYS) with and without. */
static const struct probe filtered_only[] = {
	{ "personality: exactly 0, PER_LINUX32 and the query pass (600 values)",
	  personality_sweep, WORKS },
	{ "socket/socketpair: exactly the allowed families pass (602 values)",
	  family_sweep, WORKS },
	{ "system call 470, not yet reviewed", unassigned_470, REFUSED(ENOSYS) },
	{ "system call 0x3fffffff", unassigned_high, REFUSED(ENOSYS) },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void run_probes(bool filtered)
{
	char got[64], want[64];
	for (size_t i = 0; i < COUNT(refused); i++) {
		const struct probe *p = &refused[i];
		if (p->fn == int80 && !have_i386) {
			tap_ok(true, "%s # SKIP the kernel has no i386 emulation",
			       p->name);
			continue;
		}
		struct outcome o = run_case(p->fn, NULL);
		describe(o, got, sizeof(got));
		if (filtered)
			tap_ok(same(o, p->want), "%s: %s (want %s)", p->name, got,
			       describe(p->want, want, sizeof(want)));
		else
			tap_ok(!same(o, p->want) && !o.killed,
			       "%s without the filter: %s (not %s)", p->name, got,
			       describe(p->want, want, sizeof(want)));
	}
	for (size_t i = 0; filtered && i < COUNT(filtered_only); i++) {
		const struct probe *p = &filtered_only[i];
		struct outcome o = run_case(p->fn, NULL);
		tap_ok(same(o, p->want), "%s: %s", p->name, describe(o, got, sizeof(got)));
	}
	for (size_t i = 0; i < COUNT(allowed); i++) {
		const struct probe *p = &allowed[i];
		struct outcome o = run_case(p->fn, NULL);
		tap_ok(same(o, p->want), "%s%s: %s", p->name,
		       filtered ? "" : " without the filter",
		       describe(o, got, sizeof(got)));
	}
}

/* ---- seccomp = FILE ---- */

static char file_path[128];

static void write_file(const char *name, const char *text, mode_t mode)
{
	snprintf(file_path, sizeof(file_path), "%s/%s", dir, name);
	unlink(file_path);
	int fd = open(file_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    fchmod(fd, mode) < 0) {
		perror(file_path);
		exit(2);
	}
	close(fd);
}

static void file_plan(struct plan *p, const char *path)
{
	memset(p, 0, sizeof(*p));
	p->seccomp = SECCOMP_FILE;
	p->seccomp_file = (char *)path;
}

static long do_getppid(void) { return result(syscall(SYS_getppid)); }
static long do_getpgrp(void) { return result(syscall(SYS_getpgrp)); }
static long do_getsid(void) { return result(syscall(SYS_getsid, 0)); }
static long do_getuid(void) { return result(syscall(SYS_getuid)); }
static long do_getgid(void) { return result(syscall(SYS_getgid)); }

/* prepare must fail with a message containing want. */
static void expect_error(const char *path, const char *want, const char *name)
{
	struct plan p;
	struct cc_error err = { "" };
	file_plan(&p, path);
	struct seccomp_filter *f = seccomp_prepare(&p, &err);
	char what[200];
	tap_ok(f == NULL, "%s: refused", name);
	snprintf(what, sizeof(what), "%s: the message says so", name);
	tap_like(err.msg, want, what);
	seccomp_filter_free(f);
}

static void file_tests(void)
{
	if (!dir_trusted) {
		printf("# %s is not trusted (root-owned down the path), skipping FILE tests\n",
		       dir);
		return;
	}
	struct plan p;
	char want[256], got[64];

	write_file("good", "# extra refusals for the probe\n"
			   "\n"
			   "getppid\n"
			   "  getpgrp   ENOENT   # by name\n"
			   "getsid 38\t# by number\n"
			   "mount EIO # the default refuses it too\n"
			   "vm86 # i386 only: nothing to do here\n",
		   0644);
	file_plan(&p, file_path);
	static const struct probe with_file[] = {
		{ "FILE: getppid refused with the default EPERM", do_getppid,
		  REFUSED(EPERM) },
		{ "FILE: getpgrp refused with ENOENT", do_getpgrp, REFUSED(ENOENT) },
		{ "FILE: getsid refused with errno 38", do_getsid, REFUSED(38) },
		{ "FILE: mount refused with the FILE's EIO", do_mount, REFUSED(EIO) },
		{ "FILE: the default stays (unshare CLONE_NEWUSER)", unshare_user,
		  REFUSED(EPERM) },
		{ "FILE: the default stays (TIOCSTI)", tiocsti, REFUSED(EPERM) },
		{ "FILE: the default stays (socket AF_PACKET)", socket_packet,
		  REFUSED(EAFNOSUPPORT) },
		{ "FILE: other calls still work (getuid)", do_getuid, WORKS },
		{ "FILE: other calls still work (getgid)", do_getgid, WORKS },
	};
	for (size_t i = 0; i < COUNT(with_file); i++) {
		struct outcome o = run_case(with_file[i].fn, &p);
		tap_ok(same(o, with_file[i].want), "%s: %s", with_file[i].name,
		       describe(o, got, sizeof(got)));
	}

	/* A FILE that names ioctl refuses all of it: more, never less. */
	write_file("ioctl", "ioctl ENOTTY\n", 0644);
	file_plan(&p, file_path);
	struct outcome o = run_case(tiocgwinsz, &p);
	tap_ok(same(o, REFUSED(ENOTTY)), "FILE: ioctl refused as a whole: %s",
	       describe(o, got, sizeof(got)));
	o = run_case(tiocsti, &p);
	tap_ok(same(o, REFUSED(ENOTTY)), "FILE: TIOCSTI still refused: %s",
	       describe(o, got, sizeof(got)));

	write_file("bad-name", "getppid\n# two\nnosuchcall\n", 0644);
	snprintf(want, sizeof(want), "%s:3: unknown system call 'nosuchcall'", file_path);
	expect_error(file_path, want, "FILE: unknown system call, with file:line");

	write_file("bad-errno", "getppid\ngetpgrp EBOGUS\n", 0644);
	snprintf(want, sizeof(want), "%s:2: unknown errno 'EBOGUS'", file_path);
	expect_error(file_path, want, "FILE: unknown errno, with file:line");

	write_file("allow", "mount ALLOW\n", 0644);
	snprintf(want, sizeof(want), "%s:1: unknown errno 'ALLOW'", file_path);
	expect_error(file_path, want, "FILE: no way to allow a call");

	write_file("errno-zero", "\n\ngetppid 0\n", 0644);
	snprintf(want, sizeof(want), "%s:3: unknown errno '0'", file_path);
	expect_error(file_path, want, "FILE: errno 0 (fake success) refused");

	write_file("errno-big", "getppid 4096\n", 0644);
	snprintf(want, sizeof(want), "%s:1: unknown errno '4096'", file_path);
	expect_error(file_path, want, "FILE: errno above 4095 refused");

	write_file("extra-word", "getppid EPERM now\n", 0644);
	snprintf(want, sizeof(want), "%s:1: expected a system call name", file_path);
	expect_error(file_path, want, "FILE: a third word refused");

	write_file("duplicate", "getppid\ngetpgrp\n getppid ENOENT\n", 0644);
	snprintf(want, sizeof(want), "%s:3: 'getppid' is already listed at line 1",
		 file_path);
	expect_error(file_path, want, "FILE: a name listed twice");

	write_file("writable", "getppid\n", 0666);
	expect_error(file_path, "writable by others", "FILE: world-writable file refused");

	write_file("group-writable", "getppid\n", 0664);
	expect_error(file_path, "writable by its group",
		     "FILE: group-writable file refused");

	write_file("not-root", "getppid\n", 0644);
	if (chown(file_path, 65534, 65534) < 0)
		perror("chown");
	expect_error(file_path, "not root", "FILE: file not owned by root refused");

	write_file("target", "getppid\n", 0644);
	char link[160];
	snprintf(link, sizeof(link), "%s/link", dir);
	unlink(link);
	if (symlink(file_path, link) < 0)
		perror("symlink");
	expect_error(link, "symbolic link, not followed", "FILE: a symlink is not followed");

	expect_error("relative/file", "not an absolute path",
		     "FILE: a relative path refused");
	snprintf(want, sizeof(want), "%s/missing", dir);
	expect_error(want, "No such file", "FILE: a missing file refused");

	/* A directory above the file that its group can write. */
	write_file("good", "getppid\n", 0644);
	chmod(dir, 0770);
	expect_error(file_path, "writable by its group",
		     "FILE: a group-writable directory above refused");
	chmod(dir, 0700);
}

/* ---- loading order (see seccomp_filter.h) ---- */

static int seccomp_mode_of_self(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int mode = -1;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	if (f)
		fclose(f);
	return mode;
}

/* Child: prepare as root, then load in the given situation. Exit codes:
 * 0 loaded and in force, 1 load refused with the expected message,
 * 2 something else. */
enum { AS_ROOT, AS_USER, AS_USER_NNP };

static int load_in(int how)
{
	struct plan p;
	struct cc_error err = { "" };
	memset(&p, 0, sizeof(p));
	p.seccomp = SECCOMP_DEFAULT;
	struct seccomp_filter *f = seccomp_prepare(&p, &err);
	if (!f)
		return 2;
	if (how == AS_USER_NNP && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 2;
	if (how != AS_ROOT && (setgroups(0, NULL) < 0 ||
			       setresgid(65534, 65534, 65534) < 0 ||
			       setresuid(65534, 65534, 65534) < 0))
		return 2;
	if (seccomp_load_filter(f, &err) < 0)
		return strstr(err.msg, "no_new_privs or CAP_SYS_ADMIN") ? 1 : 2;
	if (how == AS_ROOT) {
		/* The recommended order: load, then leave root. */
		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			return 2;
		if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 0)
			return 2; /* the filter must not have set it */
	}
	if (seccomp_mode_of_self() != 2 || unshare(CLONE_NEWUSER) == 0 ||
	    errno != EPERM)
		return 2;
	return 0;
}

static int in_child(int how)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(load_in(how));
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

static long apply_none(void)
{
	struct plan p;
	struct cc_error err;
	memset(&p, 0, sizeof(p));
	p.seccomp = SECCOMP_NONE;
	if (seccomp_apply(&p, &err) < 0)
		return -EINVAL;
	return seccomp_mode_of_self() == 0 ? 0 : -EINVAL;
}

/* The last reviewed number gets the kernel's own answer (whatever this
 * kernel has at 469), not the filter's ENOSYS for unreviewed numbers. */
static void boundary_test(void)
{
	struct plan p;
	char a[64], b[64];
	memset(&p, 0, sizeof(p));
	p.seccomp = SECCOMP_DEFAULT;
	struct outcome without = run_case(file_setattr_469, NULL);
	struct outcome with = run_case(file_setattr_469, &p);
	tap_ok(same(with, without),
	       "system call 469 (file_setattr) reaches the kernel: %s, as without "
	       "the filter: %s", describe(with, a, sizeof(a)),
	       describe(without, b, sizeof(b)));
}

static void load_order_tests(void)
{
	tap_ok(in_child(AS_ROOT) == 0,
	       "load as root without no_new_privs, then switch to a user: in force, "
	       "no_new_privs still off");
	tap_ok(in_child(AS_USER_NNP) == 0,
	       "load as a user after PR_SET_NO_NEW_PRIVS: in force");
	tap_ok(in_child(AS_USER) == 1,
	       "load as a user without no_new_privs: refused with an explanation");
	struct outcome o = run_case(apply_none, NULL);
	tap_ok(same(o, WORKS), "seccomp = none loads nothing");
}

/* ---- timing ---- */

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), compare_doubles);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ns per getppid, n calls. */
static double syscall_cost(int n)
{
	double t0 = now_us();
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (now_us() - t0) * 1000 / n;
}

static int bench(int n, const char *file)
{
	double *prep = calloc((size_t)n, sizeof(double));
	double *load = calloc((size_t)n, sizeof(double));
	double *both = calloc((size_t)n, sizeof(double));
	double cost[2] = { 0, 0 };
	struct plan p;
	memset(&p, 0, sizeof(p));
	p.seccomp = SECCOMP_DEFAULT;
	if (file)
		file_plan(&p, file);
	for (int i = 0; i < n; i++) {
		int fds[2];
		if (pipe(fds) < 0)
			return 2;
		pid_t pid = fork();
		if (pid == 0) {
			/* In a child each time: stacked filters add up. */
			struct cc_error err;
			double t[3], c[2] = { 0, 0 };
			if (i == 0)
				c[0] = syscall_cost(1000000);
			t[0] = now_us();
			struct seccomp_filter *f = seccomp_prepare(&p, &err);
			t[1] = now_us();
			if (!f || seccomp_load_filter(f, &err) < 0) {
				fprintf(stderr, "%s\n", err.msg);
				_exit(1);
			}
			t[2] = now_us();
			if (i == 0)
				c[1] = syscall_cost(1000000);
			double out[5] = { t[1] - t[0], t[2] - t[1], t[2] - t[0], c[0], c[1] };
			if (write(fds[1], out, sizeof(out)) != sizeof(out))
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		double in[5];
		if (read(fds[0], in, sizeof(in)) != sizeof(in))
			return 2;
		close(fds[0]);
		waitpid(pid, NULL, 0);
		prep[i] = in[0];
		load[i] = in[1];
		both[i] = in[2];
		if (i == 0) {
			cost[0] = in[3];
			cost[1] = in[4];
		}
	}
	printf("seccomp_prepare            median %7.1f us (of %d)\n", median(prep, n), n);
	printf("seccomp_load_filter        median %7.1f us\n", median(load, n));
	printf("prepare + load             median %7.1f us\n", median(both, n));
	printf("getppid without the filter %7.1f ns\n", cost[0]);
	printf("getppid with the filter    %7.1f ns\n", cost[1]);
	free(prep);
	free(load);
	free(both);
	return 0;
}

/* ---- setup ---- */

static void setup(void)
{
	/* Mounts that succeed (without the filter) stay in here. */
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		printf("Bail out! private mount namespace: %s\n", strerror(errno));
		exit(2);
	}
	const char *base = getenv("COCOON_TRUSTED_TMP");
	snprintf(dir, sizeof(dir), "%s/cocoon-seccomp.XXXXXX", base ? base : "/run");
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp %s: %s\n", dir, strerror(errno));
		exit(2);
	}
	struct cc_error err;
	dir_trusted = path_trusted(dir, &err) == 0;
	have_i386 = same(run_case(int80, NULL), WORKS);
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 ||
	    (pty_slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
		printf("Bail out! pty: %s\n", strerror(errno));
		exit(2);
	}
}

static void cleanup(void)
{
	static const char *const names[] = {
		"good", "ioctl", "bad-name", "bad-errno", "allow", "errno-zero",
		"errno-big", "extra-word", "duplicate", "writable", "group-writable",
		"not-root", "target", "link",
	};
	char path[160];
	for (size_t i = 0; i < COUNT(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(int argc, char **argv)
{
	bool filtered = true;
	if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
		int n = argc > 2 ? atoi(argv[2]) : 100;
		return bench(n > 0 ? n : 100, argc > 3 ? argv[3] : NULL);
	}
	if (argc > 1 && strcmp(argv[1], "--no-filter") == 0)
		filtered = false;
	else if (argc > 1 && strcmp(argv[1], "--filter") != 0) {
		fprintf(stderr, "usage: %s [--filter | --no-filter | --bench [N [FILE]]]\n",
			argv[0]);
		return 2;
	}
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	setup();
	if (filtered) {
		file_tests();
		load_order_tests();
		boundary_test();
		struct plan p;
		struct cc_error err;
		memset(&p, 0, sizeof(p));
		p.seccomp = SECCOMP_DEFAULT;
		if (seccomp_apply(&p, &err) < 0) {
			printf("Bail out! seccomp_apply: %s\n", err.msg);
			cleanup();
			return 2;
		}
	}
	run_probes(filtered);
	cleanup();
	return tap_done();
}
