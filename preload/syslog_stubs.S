/* SPDX-License-Identifier: MIT */
/*
 * x86-64 entry points of the syslog family: an untraced call returns
 * here in replace mode, or goes on here to glibc's own function in
 * pass-through, before any variadic prologue (see preload/stubs.h and
 * bridge/pri_table.h).
 *
 *   rdi above EHS_PRI_MAX         the C wrapper, ehs_full_<name> (stray
 *                                 bits: glibc's complaint is an event)
 *   byte ehs_pri_table[rdi] set   the C wrapper: traced, or not yet
 *                                 registered with the kernel
 *   otherwise                     ehs_stub_next[slot]: ehs_stub_return
 *                                 in replace mode, glibc's <name> in
 *                                 pass-through
 *
 * The priority is the first argument of all four.  Only r11 is used,
 * which no C call passes anything in, so on each jump every register is
 * as the caller left it (the arguments in rdi..r9, the vector count in
 * al, the return address on the stack) and the wrapper, or glibc's
 * function, runs as if called directly: the _chk forms reach glibc's own
 * __syslog_chk and __vsyslog_chk, fortify checks and all.  The table,
 * ehs_stub_next and the wrappers are hidden: the loads are RIP-relative
 * and the jumps to the wrappers direct, with no GOT or PLT in between.
 *
 * What each costs, in instructions of ours: 6 to glibc's function in
 * pass-through, 7 with the ret in replace mode.  The mode is in the
 * data, ehs_stub_next, not in a branch: the last jump's target is the
 * only thing the two modes do differently.  A bit test of a 128-byte
 * bitmap (bt with a register operand on memory) would save the lea, but
 * it is microcoded on both Intel and AMD and slower than the two simple
 * instructions it replaces.
 */
#include "config.h"

#include "bridge/pri_table.h"
#include "preload/stubs.h"

/* An indirect-branch target where the toolchain builds for CET's IBT:
 * the entry points, and ehs_stub_return, which ehs_stub_next leads to
 * (glibc's functions and the C wrappers have their own). */
#if defined(__CET__) && (__CET__ & 1)
#define LANDING endbr64
#else
#define LANDING
#endif

/* The ABI leaves a 32-bit argument's upper half undefined, so the bound
 * is checked on all of rdi: a priority whose upper half is not zero goes
 * to the C wrapper, which reads only edi, and rdi past the check is a
 * valid 64-bit index with no zero-extending move. */
#define STUB(name, slot)					\
	.globl name;						\
	.type name, @function;					\
	.p2align 4;						\
name:								\
	LANDING;						\
	cmpq $EHS_PRI_MAX, %rdi;				\
	ja ehs_full_##name;					\
	leaq ehs_pri_table(%rip), %r11;				\
	cmpb $0, (%r11,%rdi);					\
	jne ehs_full_##name;					\
	jmp *ehs_stub_next+8*(slot)(%rip);			\
	.size name, . - name

	.hidden ehs_pri_table
	.hidden ehs_stub_next
	.hidden ehs_full_syslog
	.hidden ehs_full_vsyslog
	.hidden ehs_full___syslog_chk
	.hidden ehs_full___vsyslog_chk

	.text
STUB(syslog, EHS_STUB_SYSLOG)
STUB(vsyslog, EHS_STUB_VSYSLOG)
STUB(__syslog_chk, EHS_STUB_SYSLOG_CHK)
STUB(__vsyslog_chk, EHS_STUB_VSYSLOG_CHK)

/* Replace mode's ehs_stub_next: the untraced call ends here. */
	.globl ehs_stub_return
	.hidden ehs_stub_return
	.type ehs_stub_return, @function
	.p2align 4
ehs_stub_return:
	LANDING
	ret
	.size ehs_stub_return, . - ehs_stub_return

	.section .note.GNU-stack, "", @progbits
