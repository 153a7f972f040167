/* SPDX-License-Identifier: MIT */
/*
 * The probe sites and their semaphore (see <ehsyslog/usdt.h>).
 *
 * Each site is a function of its own that is only a nop and a return:
 * the nop is the probe, at the function's first byte, so that its
 * address is known to C (usdt_site_armed reads it) and its arguments are
 * the call's registers, which the note names as a C call passes them.
 * On x86-64 a five-byte nop (0f 1f 44 00 00) follows the note's nop:
 * from 6.18 the kernel turns a uprobe there into a call of a trampoline
 * that enters it by a system call, about four times as fast as the
 * breakpoint trap a one-byte nop takes (docs/design.md); before 6.16
 * it single-steps a nop5, which is slower, so the note names the nop,
 * and the tool picks (src/cli/uprobe/nop5.c).
 * <sys/sdt.h> writes the note; the five notes name one semaphore,
 * usdt_gate, through the per-probe names the header expects.  The sites
 * are only called directly, never through a pointer: no IBT landing pad
 * goes before the nop.
 */
#include "config.h"

#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include <ehsyslog/usdt.h>

#include "usdt/sites.h"

#if defined(__x86_64__)
#define SITE_ARGS 8@%rdi 8@%rsi -4@%edx -4@%ecx -4@%r8d 8@%r9
#define SITE_RET ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n" "ret"
#elif defined(__aarch64__)
#define SITE_ARGS 8@x0 8@x1 -4@w2 -4@w3 -4@w4 8@x5
#define SITE_RET "ret"
#endif

#ifdef SITE_ARGS
/* One byte the kernel counts in (the low half of the uprobes' 16-bit
 * reference counter, little-endian on both architectures), then its
 * high half, always 0.  .probes is where <sys/sdt.h> puts semaphores:
 * initialised data, so mapped from the file, which a reference counter
 * must be. */
__asm__(".pushsection .probes,\"aw\",%progbits\n"
	".balign 2\n"
	".globl usdt_gate\n"
	".hidden usdt_gate\n"
	".type usdt_gate, %object\n"
	".size usdt_gate, 2\n"
	"usdt_gate: .byte 0x7f, 0\n"
	".popsection\n");

/* level's site, whose probe is ehsyslog:name. */
#define SITE(level, name)							\
	__asm__(".set ehsyslog_" #name "_semaphore, usdt_gate\n"		\
		".pushsection .text\n"						\
		".p2align 4\n"							\
		".globl usdt_site_L" #level "\n"				\
		".hidden usdt_site_L" #level "\n"				\
		".type usdt_site_L" #level ", %function\n"			\
		"usdt_site_L" #level ":\n"					\
		STAP_PROBE_ASM(ehsyslog, name, SITE_ARGS)			\
		SITE_RET "\n"							\
		".size usdt_site_L" #level ", . - usdt_site_L" #level "\n"	\
		".popsection\n")

/* The EventHeader levels' names.  Not L1..L5: perf 6.1 reads "L2" as
 * the L2 cache and refuses the event ehsyslog:L2. */
SITE(1, critical);
SITE(2, error);
SITE(3, warning);
SITE(4, info);
SITE(5, verbose);
#else
/* Elsewhere the argument locations are not written down: no probes, and
 * the semaphore never moves. */
volatile uint8_t usdt_gate = 0x7f;
#define SITE(level)								\
	void usdt_site_L##level(USDT_SITE_ARGS)					\
	{									\
		(void)message, (void)name, (void)severity;			\
		(void)facility, (void)err, (void)event;				\
	}
SITE(1)
SITE(2)
SITE(3)
SITE(4)
SITE(5)
#endif
