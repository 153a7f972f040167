/* SPDX-License-Identifier: MIT */
/*
 * x86-64 entry points of the syslog family: an untraced call in replace
 * mode returns here, before any variadic prologue (see preload/stubs.h
 * and bridge/pri_table.h).
 *
 *   rdi above 0x3ff            the C wrapper (a stray bit, which glibc
 *                              complains about, or a 32-bit pri's
 *                              undefined upper half)
 *   word of pri's tracepoint 0 return
 *   anything else              the C wrapper, ehs_full_<name>
 *
 * The priority is the first argument of all four.  Only r10 and r11 are
 * used, which no C call passes anything in, so on each jump every
 * register is as the caller left it (the arguments in rdi..r9, the vector
 * count in al, the return address on the stack) and the wrapper runs as
 * if called directly.  The table and the wrappers are hidden: the loads
 * are RIP-relative and the jumps direct, with no GOT or PLT in between.
 */
#include "config.h"

#include "bridge/pri_table.h"

/* An indirect-branch target where the toolchain builds for CET's IBT. */
#if defined(__CET__) && (__CET__ & 1)
#define LANDING endbr64
#else
#define LANDING
#endif

/* The ABI leaves a 32-bit argument's upper half undefined, so the bound
 * is checked on all of rdi: a priority whose upper half is not zero goes
 * to the C wrapper, which reads only edi, and rdi past the check is a
 * valid 64-bit index with no zero-extending move. */
#define STUB(name)						\
	.globl name;						\
	.type name, @function;					\
	.p2align 4;						\
name:								\
	LANDING;						\
	cmpq $EHS_PRI_MAX, %rdi;				\
	ja ehs_full_##name;					\
	leaq ehs_pri_table(%rip), %r11;				\
	movslq EHS_PRI_OFF_AT(%r11,%rdi,4), %r10;		\
	cmpl $0, (%r11,%r10);					\
	jne ehs_full_##name;					\
	ret;							\
	.size name, . - name

	.hidden ehs_pri_table
	.hidden ehs_full_syslog
	.hidden ehs_full_vsyslog
	.hidden ehs_full___syslog_chk
	.hidden ehs_full___vsyslog_chk

	.text
STUB(syslog)
STUB(vsyslog)
STUB(__syslog_chk)
STUB(__vsyslog_chk)

	.section .note.GNU-stack, "", @progbits
