/* SPDX-License-Identifier: MIT */
/*
 * x86-64 entry points of the syslog family: an untraced call returns
 * here in replace mode, or goes on here to glibc's own function in
 * pass-through, before any variadic prologue (see preload/stubs.h and
 * bridge/pri_table.h).
 *
 * <name>, replace mode (limit EHS_PRI_MAX + 1; also before the
 * configuration is read, when off[] still sends everything on):
 *   rdi at or above limit        pass_<name> (the C wrapper from there)
 *   word of off[pri] 0           return
 *   anything else                the C wrapper, ehs_full_<name>
 * pass_<name>, pass-through (limit 0, so every call comes here):
 *   rdi above EHS_PRI_MAX        the C wrapper (stray bits: glibc's
 *                                complaint is an event of its own)
 *   word of pass_off[pri] 0      glibc's <name> (ehs_stub_next)
 *   anything else                the C wrapper
 *
 * The priority is the first argument of all four.  Only r10 and r11 are
 * used, which no C call passes anything in, so on each jump every
 * register is as the caller left it (the arguments in rdi..r9, the vector
 * count in al, the return address on the stack) and the wrapper, or
 * glibc's function, runs as if called directly: the _chk forms reach
 * glibc's own __syslog_chk and __vsyslog_chk, fortify checks and all.
 * The table, ehs_stub_next and the wrappers are hidden: the loads are
 * RIP-relative and the jumps to the wrappers direct, with no GOT or PLT
 * in between.
 *
 * What each costs, in instructions of ours: replace mode's untraced
 * call 7 (the ret included), as with a bound in an immediate: the mode
 * rides on the bound's compare.  Pass-through's untraced call 9: 2 to
 * leave the replace check, then its own bound (2), lookup (3) and jump
 * (1) plus the jump on to glibc.  The replace check cannot be shared:
 * its last step, a word of 0, must return there, so pass-through must
 * leave it before, and a per-priority check needs a bound, a base, an
 * offset, a word and a branch of its own.  Fewer would take one word
 * for every tracepoint at once, which the user_events layer does not
 * keep (each tracepoint's word is its own, registered on first use).
 */
#include "config.h"

#include "bridge/pri_table.h"
#include "preload/stubs.h"

/* An indirect-branch target where the toolchain builds for CET's IBT.
 * pass_<name> is reached by direct jumps only; ehs_stub_next's targets
 * are glibc's exported functions and the C wrappers, which have their
 * own landing pads in such a build. */
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
	cmpq ehs_pri_table+EHS_PRI_LIMIT_AT(%rip), %rdi;	\
	jae pass_##name;					\
	leaq ehs_pri_table(%rip), %r11;				\
	movslq EHS_PRI_OFF_AT(%r11,%rdi,4), %r10;		\
	cmpl $0, (%r11,%r10);					\
	jne ehs_full_##name;					\
	ret;							\
	.size name, . - name;					\
								\
	.type pass_##name, @function;				\
pass_##name:							\
	cmpq $EHS_PRI_MAX, %rdi;				\
	ja ehs_full_##name;					\
	leaq ehs_pri_table(%rip), %r11;				\
	movslq EHS_PRI_PASS_OFF_AT(%r11,%rdi,4), %r10;		\
	cmpl $0, (%r11,%r10);					\
	jne ehs_full_##name;					\
	jmp *ehs_stub_next+8*(slot)(%rip);			\
	.size pass_##name, . - pass_##name

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

	.section .note.GNU-stack, "", @progbits
