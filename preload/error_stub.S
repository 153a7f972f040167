/* SPDX-License-Identifier: MIT */
/*
 * x86-64 entry point of error(3).  glibc has no va_list form of it, so
 * the C wrapper must format the text to hand it on as "%s" (error.c): a
 * 4 KiB buffer and a formatting pass even for a call nobody traces.
 * This stub goes on to glibc's own error() first whenever the call would
 * write no event, with every register as the caller left it (see
 * syslog_stubs.S, whose bytes it reads):
 *
 *   usdt_gate's top bit set        the C wrapper, ehs_full_error
 *   byte ehs_pri_table[pri], pri LOG_ERR (3) for a status other than 0,
 *   else LOG_WARNING (4), the priorities error()'s events log at:
 *     EHS_PRI_PASS or 0            ehs_stub_next[EHS_STUB_ERROR]: glibc's
 *                                  error() (replace mode too: error()
 *                                  always prints)
 *     anything above               the C wrapper: traced, or not yet
 *                                  registered with the kernel
 *
 * error_at_line keeps the C path alone: its events follow
 * error_one_per_line, whose memory of the last line must see every call.
 */
#include "config.h"

#include <ehsyslog/usdt.h>

#include "bridge/pri_table.h"
#include "preload/stubs.h"

#if defined(__CET__) && (__CET__ & 1)
#define LANDING endbr64
#else
#define LANDING
#endif

/* syslog(3)'s LOG_ERR and LOG_WARNING: <syslog.h> is C only. */
#define PRI_ERR 3
#define PRI_WARNING 4

	.hidden ehs_pri_table
	.hidden usdt_gate
	.hidden ehs_stub_next
	.hidden ehs_full_error

	.text
	.globl error
	.type error, @function
	.p2align 4
error:
	.cfi_startproc
	LANDING
	testb $USDT_GATE_TRACED, usdt_gate(%rip)
	jne ehs_full_error
	testl %edi, %edi
	je 1f
	cmpb $EHS_PRI_PASS, ehs_pri_table+PRI_ERR(%rip)
	ja ehs_full_error
	jmp *ehs_stub_next+8*EHS_STUB_ERROR(%rip)
1:	cmpb $EHS_PRI_PASS, ehs_pri_table+PRI_WARNING(%rip)
	ja ehs_full_error
	jmp *ehs_stub_next+8*EHS_STUB_ERROR(%rip)
	.cfi_endproc
	.size error, . - error

	.section .note.GNU-stack, "", @progbits
