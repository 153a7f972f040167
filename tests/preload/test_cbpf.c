/* SPDX-License-Identifier: MIT */
/*
 * preload/cbpf.c against the kernel: each filter is installed in a child,
 * which then makes getppid() with chosen arguments (getppid ignores them;
 * the filter sees them), and the errno the kernel gave it, or that the
 * call went through, must be what ehs_cbpf_run answers for the same
 * system call.  Filters the kernel would refuse read as forbidding.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <linux/audit.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "preload/cbpf.h"
#include "tests/check_run.h"

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

#define ARG_LO(n) (offsetof(struct seccomp_data, args) + 8 * (n))
#define ALLOWED 200	/* the child's exit when the call went through */
#define LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ERR(n) (SECCOMP_RET_ERRNO | (n))

/* Allows everything but getppid, which it answers by its arguments. */
static const struct sock_filter by_args[] = {
	LD(offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
	RET(SECCOMP_RET_KILL_PROCESS),
	LD(offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 1, 0),
	RET(SECCOMP_RET_ALLOW),
	LD(ARG_LO(0)),
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x4, 0, 1),
	RET(ERR(2)),
	BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 98, 0, 1),
	RET(ERR(3)),
	/* (args[1] + 5) & 0xff == 10, through the scratch memory and X */
	LD(ARG_LO(1)),
	BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 5),
	BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
	BPF_STMT(BPF_ST, 3),
	BPF_STMT(BPF_LDX | BPF_MEM, 3),
	BPF_STMT(BPF_LD | BPF_IMM, 10),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 1),
	RET(ERR(4)),
	/* args[2]'s upper word >= 7: an errno computed from it */
	LD(ARG_LO(2) + 4),
	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 7, 0, 4),
	BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 1),
	BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
	BPF_STMT(BPF_MISC | BPF_TAX, 0),
	BPF_STMT(BPF_RET | BPF_A, 0),
	BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, sizeof(struct seccomp_data), 1, 0),
	RET(ERR(5)),
	RET(SECCOMP_RET_LOG),
};

static const struct {
	unsigned long a0, a1, a2;
} calls[] = {
	{ 0, 0, 0 },		/* falls through to SECCOMP_RET_LOG */
	{ 4, 0, 0 },		/* JSET */
	{ 99, 0, 0 },		/* JGT */
	{ 98, 5, 0 },		/* not JGT; the sum equals 10 */
	{ 1, 6, 0 },		/* it does not */
	{ 1, 0, 7UL << 32 },	/* errno 14 */
	{ 1, 0, 20UL << 32 },	/* errno 40 */
	{ 1, 0, 6UL << 32 },	/* SECCOMP_RET_LOG */
	{ 3, 261, 1 },		/* 261 + 5 = 266, & 0xff = 10 */
};

/* What the kernel made of the call under filter f: its errno, or
 * ALLOWED, or -1 when the child did not exit (a kill). */
static int kernel_answer(const struct sock_filter *f, unsigned n, unsigned long a0,
			 unsigned long a1, unsigned long a2)
{
	struct sock_fprog prog = { (unsigned short)n, (struct sock_filter *)f };
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			_exit(199);
		long r = syscall(SYS_getppid, a0, a1, a2, 0, 0, 0);
		_exit(r < 0 ? errno : ALLOWED);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What ehs_cbpf_run says the kernel does. */
static int model_answer(const struct sock_filter *f, unsigned n, unsigned long a0,
			unsigned long a1, unsigned long a2)
{
	struct seccomp_data d = { .nr = __NR_getppid, .arch = ARCH,
				  .args = { a0, a1, a2 } };
	uint32_t r = ehs_cbpf_run(f, n, &d);

	if (ehs_cbpf_allows(r))
		return ALLOWED;
	if ((r & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO)
		return (int)(r & SECCOMP_RET_DATA);
	return -1;
}

START_TEST(same_as_the_kernel)
{
	unsigned n = sizeof by_args / sizeof by_args[0];

	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		int k = kernel_answer(by_args, n, calls[i].a0, calls[i].a1, calls[i].a2);
		int m = model_answer(by_args, n, calls[i].a0, calls[i].a1, calls[i].a2);

		ck_assert_msg(k != 199, "the kernel refused the filter");
		ck_assert_msg(k == m, "call %zu: kernel %d, ehs_cbpf_run %d", i, k, m);
	}
}
END_TEST

/* What the kernel refuses to install reads as a kill. */
START_TEST(unreadable_filters_forbid)
{
	static const struct sock_filter unaligned[] = { LD(2), RET(SECCOMP_RET_ALLOW) };
	static const struct sock_filter past_end[] = { LD(64), RET(SECCOMP_RET_ALLOW) };
	static const struct sock_filter jump_out[] = {
		BPF_JUMP(BPF_JMP | BPF_JA, 5, 0, 0), RET(SECCOMP_RET_ALLOW),
	};
	static const struct sock_filter falls_off[] = { LD(0) };
	static const struct sock_filter div_zero[] = {
		BPF_STMT(BPF_LD | BPF_IMM, 1), BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0),
		RET(SECCOMP_RET_ALLOW),
	};
	static const struct sock_filter packet_load[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0), RET(SECCOMP_RET_ALLOW),
	};
	struct seccomp_data d = { .nr = __NR_getppid, .arch = ARCH };

	ck_assert_uint_eq(ehs_cbpf_run(unaligned, 2, &d), 0);
	ck_assert_uint_eq(ehs_cbpf_run(past_end, 2, &d), 0);
	ck_assert_uint_eq(ehs_cbpf_run(jump_out, 2, &d), 0);
	ck_assert_uint_eq(ehs_cbpf_run(falls_off, 1, &d), 0);
	ck_assert_uint_eq(ehs_cbpf_run(div_zero, 3, &d), 0);
	ck_assert_uint_eq(ehs_cbpf_run(packet_load, 2, &d), 0);
	for (int i = 0; i < 2; i++) {
		const struct sock_filter *f = i ? unaligned : packet_load;
		ck_assert_int_eq(kernel_answer(f, 2, 0, 0, 0), 199);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cbpf");
	TCase *tc = tcase_create("cbpf");

	tcase_add_test(tc, same_as_the_kernel);
	tcase_add_test(tc, unreadable_filters_forbid);
	suite_add_tcase(s, tc);
	return check_run(s);
}
