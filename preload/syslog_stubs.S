/* SPDX-License-Identifier: MIT */
/*
 * x86-64 entry points of the syslog family: an untraced call returns
 * here in replace mode, or goes on here to glibc's own function in
 * pass-through, before any variadic prologue (see preload/stubs.h and
 * bridge/pri_table.h).
 *
 *   rdi above EHS_PRI_MAX         the C wrapper, ehs_full_<name> (stray
 *                                 bits: glibc's complaint is an event)
 *   usdt_gate's top bit set       the C wrapper: a uprobe is on one of the
 *                                 library's probe sites (<ehsyslog/usdt.h>)
 *   byte ehs_pri_table[rdi]:
 *     EHS_PRI_PASS                ehs_stub_next[slot]: glibc's <name>
 *     0                           return (replace mode)
 *     anything above              the C wrapper: traced, or not yet
 *                                 registered with the kernel
 *
 * One compare of the byte with EHS_PRI_PASS gives all three: equal,
 * below (only 0 is) and above.  The priority is the first argument of
 * all four.  Only r11 is used, which no C call passes anything in, so on
 * each jump every register is as the caller left it (the arguments in
 * rdi..r9, the vector count in al, the return address on the stack) and
 * the wrapper, or glibc's function, runs as if called directly: the _chk
 * forms reach glibc's own __syslog_chk and __vsyslog_chk, fortify checks
 * and all.  The table, ehs_stub_next and the wrappers are hidden: the
 * loads are RIP-relative and the jumps to the wrappers direct, with no
 * GOT or PLT in between.
 *
 * What each costs, in instructions of ours: 8 to glibc's function in
 * pass-through (the bound 2, the probes' test 2, the lea and compare, the
 * je, the jump on), 9 with the ret in replace mode (its ja comes first).
 * The probes' semaphore is a byte of its own, not a bit of the table:
 * the kernel counts in it, for every priority at once.  The mode is in
 * the byte rather than in the target of an indirect jump, which would
 * make replace mode's return an indirect jump and a ret: one cycle more
 * (bench-call: 2.24 against 1.96 ns per call on the benchmark's AMD EPYC).
 */
#include "config.h"

#include <ehsyslog/usdt.h>

#include "bridge/pri_table.h"
#include "preload/stubs.h"

/* An indirect-branch target where the toolchain builds for CET's IBT:
 * the entry points.  pass_<name> is reached by a direct jump only;
 * ehs_stub_next's targets are glibc's functions and the C wrappers,
 * which have their own. */
#if defined(__CET__) && (__CET__ & 1)
#define LANDING endbr64
#else
#define LANDING
#endif

/* The ABI leaves a 32-bit argument's upper half undefined, so the bound
 * is checked on all of rdi: a priority whose upper half is not zero goes
 * to the C wrapper, which reads only edi, and rdi past the check is a
 * valid 64-bit index with no zero-extending move.
 *
 * The CFI (an FDE in .eh_frame: data, no instruction) lets perf,
 * libunwind, libgcc and gdb unwind from any instruction of a stub to its
 * caller.  The stub never touches rsp, so the entry state the FDE starts
 * with holds throughout: CFA at rsp+8, return address at the CFA-8, every
 * register as the caller left it.  Every way out is a ret or a tail jump
 * with that state, so nothing more is needed; a push or sub of rsp added
 * here must add its .cfi_adjust_cfa_offset. */
#define STUB(name, slot)					\
	.globl name;						\
	.type name, @function;					\
	.p2align 4;						\
name:								\
	.cfi_startproc;						\
	LANDING;						\
	cmpq $EHS_PRI_MAX, %rdi;				\
	ja ehs_full_##name;					\
	testb $USDT_GATE_TRACED, usdt_gate(%rip);		\
	jne ehs_full_##name;					\
	leaq ehs_pri_table(%rip), %r11;				\
	cmpb $EHS_PRI_PASS, (%r11,%rdi);			\
	je pass_##name;						\
	ja ehs_full_##name;					\
	ret;							\
pass_##name:							\
	jmp *ehs_stub_next+8*(slot)(%rip);			\
	.cfi_endproc;						\
	.size name, . - name

	.hidden ehs_pri_table
	.hidden usdt_gate
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

	.section .note.GNU-stack, "", @progbits
