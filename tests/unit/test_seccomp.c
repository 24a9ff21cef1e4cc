// SPDX-License-Identifier: GPL-2.0-or-later
/* `seccomp = default` is embedded at build time (build/gen/default_filter.h,
 * written by tools/gen-seccomp): it must be, byte for byte, the program
 * libseccomp builds from common/engine/seccomp_filter.c's rules now, and it must
 * be what seccomp_prepare hands out; a `seccomp = FILE` is still built at
 * run time, on top of the same rules. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "plan.h"
#include "seccomp_filter.h"
#include "util.h"
#include "tap.h"

#include "default_filter.h"

struct program {
	const void *data;
	size_t len;
};

static bool program_of(struct seccomp_filter *filter, struct program *p)
{
	return filter && seccomp_filter_program(filter, &p->data, &p->len) == 0;
}

static bool same(const struct program *p, const void *data, size_t len)
{
	return p->len == len && memcmp(p->data, data, len) == 0;
}

/* ---- What the program decides, without running it ----
 * The kernel's classic BPF, as seccomp runs it over struct seccomp_data:
 * so the 32-bit (int 0x80) and x32 entries can be judged on a kernel that
 * has no IA-32 emulation to try them on. Only what filters use: loads of
 * the data and scratch memory, ALU and jumps on constants or X, returns.
 * A program that steps outside (a bad instruction, a jump past the end)
 * gives 0, which no case below expects. */
static uint32_t run_filter(const struct sock_filter *code, size_t n,
			   const struct seccomp_data *data)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	const unsigned char *bytes = (const unsigned char *)data;
	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *f = &code[pc];
		uint32_t src = BPF_SRC(f->code) == BPF_X ? x : f->k;
		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
			if (BPF_MODE(f->code) == BPF_ABS && BPF_SIZE(f->code) == BPF_W &&
			    f->k + 4 <= sizeof(*data))
				memcpy(&a, bytes + f->k, 4);
			else if (BPF_MODE(f->code) == BPF_MEM && f->k < BPF_MEMWORDS)
				a = mem[f->k];
			else if (BPF_MODE(f->code) == BPF_IMM)
				a = f->k;
			else
				return 0;
			break;
		case BPF_LDX:
			if (BPF_MODE(f->code) == BPF_MEM && f->k < BPF_MEMWORDS)
				x = mem[f->k];
			else if (BPF_MODE(f->code) == BPF_IMM)
				x = f->k;
			else
				return 0;
			break;
		case BPF_ST: if (f->k >= BPF_MEMWORDS) return 0; mem[f->k] = a; break;
		case BPF_STX: if (f->k >= BPF_MEMWORDS) return 0; mem[f->k] = x; break;
		case BPF_ALU:
			switch (BPF_OP(f->code)) {
			case BPF_ADD: a += src; break;
			case BPF_SUB: a -= src; break;
			case BPF_AND: a &= src; break;
			case BPF_OR: a |= src; break;
			case BPF_LSH: a <<= src & 31; break;
			case BPF_RSH: a >>= src & 31; break;
			case BPF_NEG: a = -a; break;
			default: return 0;
			}
			break;
		case BPF_JMP: {
			bool jump;
			switch (BPF_OP(f->code)) {
			case BPF_JA: pc += f->k; continue;
			case BPF_JEQ: jump = a == src; break;
			case BPF_JGT: jump = a > src; break;
			case BPF_JGE: jump = a >= src; break;
			case BPF_JSET: jump = (a & src) != 0; break;
			default: return 0;
			}
			pc += jump ? f->jt : f->jf;
			break;
		}
		case BPF_RET: return BPF_RVAL(f->code) == BPF_A ? a : f->k;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		default: return 0;
		}
	}
	return 0;
}

static uint32_t decide(uint32_t arch, int nr)
{
	struct seccomp_data d = { .nr = nr, .arch = arch };
	return run_filter(default_filter, sizeof(default_filter) / sizeof(default_filter[0]),
			  &d);
}

static void judged_without_running(void)
{
	tap_ok(decide(AUDIT_ARCH_X86_64, 39 /* getpid */) == SECCOMP_RET_ALLOW,
	       "the program allows getpid on the native entry (the interpreter reads it right)");
	tap_ok(decide(AUDIT_ARCH_X86_64, 165 /* mount */) == (SECCOMP_RET_ERRNO | EPERM),
	       "and refuses mount with EPERM");
	uint32_t i386 = decide(AUDIT_ARCH_I386, 20 /* getpid on the 32-bit entry */);
	tap_ok((i386 & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_KILL_PROCESS ||
	       (i386 & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_KILL_THREAD,
	       "the 32-bit entry (int 0x80) kills, whatever the call");
	uint32_t x32 = decide(AUDIT_ARCH_X86_64, 39 | 0x40000000 /* __X32_SYSCALL_BIT */);
	tap_ok(x32 != SECCOMP_RET_ALLOW, "an x32 call through the 64-bit entry is refused");
	tap_ok(decide(AUDIT_ARCH_X86_64, 470) == (SECCOMP_RET_ERRNO | ENOSYS),
	       "a call newer than the list gets ENOSYS");
}

/* A FILE refusing chroot, in a root-only directory (the trust rule). */
static void file_is_built_at_run_time(const struct program *embedded)
{
	char dir[] = "/run/cocoon-unit-seccomp.XXXXXX";
	if (geteuid() != 0 || !mkdtemp(dir)) {
		tap_ok(true, "# SKIP a seccomp FILE needs root and /run");
		return;
	}
	char path[sizeof(dir) + 16];
	snprintf(path, sizeof(path), "%s/filter", dir);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("chroot\n", f);
		fclose(f);
	}
	struct plan plan;
	plan_init(&plan);
	plan.seccomp = SECCOMP_FILE;
	plan.seccomp_file = xstrdup(path);
	struct cc_error err = { { 0 } };
	struct seccomp_filter *filter = seccomp_prepare(&plan, &err);
	struct program p = { 0 };
	if (!tap_ok(program_of(filter, &p), "seccomp = FILE is built"))
		printf("#   %s\n", err.msg);
	tap_ok(p.len > embedded->len && !same(&p, embedded->data, embedded->len),
	       "at run time, with the FILE's rule added to the default program");
	seccomp_filter_free(filter);
	plan_free(&plan);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct program embedded = { default_filter, sizeof(default_filter) };
	struct cc_error err = { { 0 } };

	struct seccomp_filter *built = seccomp_build_default(&err);
	struct program now = { 0 };
	if (!tap_ok(program_of(built, &now), "libseccomp builds the default program now"))
		printf("#   %s\n", err.msg);
	if (!tap_ok(same(&now, embedded.data, embedded.len),
		    "the program embedded at build time is the same, byte for byte"))
		printf("#   embedded %zu bytes, built now %zu bytes: run make again\n",
		       embedded.len, now.len);
	tap_ok(DEFAULT_FILTER_ARCH == seccomp_arch_native(),
	       "and for this architecture");

	struct plan plan;
	plan_init(&plan);
	plan.seccomp = SECCOMP_DEFAULT;
	struct seccomp_filter *prepared = seccomp_prepare(&plan, &err);
	struct program p = { 0 };
	tap_ok(program_of(prepared, &p) && same(&p, embedded.data, embedded.len),
	       "seccomp = default hands out the embedded program");
	seccomp_filter_free(prepared);

	plan.seccomp = SECCOMP_NONE;
	prepared = seccomp_prepare(&plan, &err);
	tap_ok(program_of(prepared, &p) && p.len == 0 && !p.data,
	       "seccomp = none loads nothing");
	seccomp_filter_free(prepared);
	plan_free(&plan);

	judged_without_running();
	file_is_built_at_run_time(&embedded);
	seccomp_filter_free(built);
	return tap_done();
}
