/* SPDX-License-Identifier: MIT */
/*
 * What the x86-64 entry stubs (syslog_stubs.S) and the C wrappers share.
 * With EHS_STUBS set, syslog, vsyslog, __syslog_chk and __vsyslog_chk are
 * the stubs: each reads its priority's byte in the priority table
 * (bridge/pri_table.h) before anything else.  When it says untraced they
 * return in replace mode or jump to ehs_stub_next (glibc's own function)
 * in pass-through (and in replace mode for a priority whose events cannot
 * be written), else to the C wrapper, ehs_full_<name>; every jump
 * leaves the registers as the caller left them.  Elsewhere (other
 * architectures, --disable-asm-stubs, EHS_NO_ASM_STUBS) the C wrappers
 * are the entry points and make their check in C, after the variadic
 * prologue, and the table is not used.
 *
 * Included by the stubs: constants only when __ASSEMBLER__ is defined.
 */
#ifndef EHS_PRELOAD_STUBS_H
#define EHS_PRELOAD_STUBS_H

#if defined(EHS_ASM_STUBS) && !defined(EHS_NO_ASM_STUBS)
#define EHS_STUBS 1
#else
#define EHS_STUBS 0
#endif

/* Each entry point's slot in ehs_stub_next. */
#define EHS_STUB_SYSLOG 0
#define EHS_STUB_VSYSLOG 1
#define EHS_STUB_SYSLOG_CHK 2
#define EHS_STUB_VSYSLOG_CHK 3
#define EHS_STUB_ERROR 4
#define EHS_STUB_COUNT 5

#ifndef __ASSEMBLER__
#include "common/hidden.h"

/* A generic function type: the stubs jump to these with the caller's
 * arguments, C never calls them. */
typedef void (*ehs_stub_fn)(void);

/* Where a call whose byte says pass-through goes: the C wrapper at
 * first, glibc's function once the C path has read the configuration
 * (before any byte of the table says pass-through). */
extern EHS_HIDDEN ehs_stub_fn ehs_stub_next[EHS_STUB_COUNT];

/* glibc's entry points, stored by ehs_real_resolve; NULL where not found. */
extern EHS_HIDDEN ehs_stub_fn ehs_stub_glibc[EHS_STUB_COUNT];

#if EHS_STUBS
#include <stdarg.h>
#include <stdbool.h>

#include "bridge/pri_table.h"

/* The C wrappers the stubs jump to when a call has something to do. */
EHS_HIDDEN void ehs_full_syslog(int pri, const char *fmt, ...);
EHS_HIDDEN void ehs_full_vsyslog(int pri, const char *fmt, va_list ap);
EHS_HIDDEN void ehs_full___syslog_chk(int pri, int flag, const char *fmt, ...);
EHS_HIDDEN void ehs_full___vsyslog_chk(int pri, int flag, const char *fmt, va_list ap);
EHS_HIDDEN void ehs_full_error(int status, int errnum, const char *fmt, ...);

/* ehs_stub_route has run. */
extern EHS_HIDDEN int ehs_stubs_routed;

/* Points ehs_stub_next at glibc's functions, and marks the table in
 * pass-through; once (stub_route.c). */
void ehs_stub_route(void);

/* Lets the stubs answer pri's untraced calls from now on: routes them
 * (once), then hands pri's byte to the kernel unless the bridge found it
 * registered (armed).  After the configuration is read.  Inline: every
 * traced call comes here, and finds both done.  (A native site may have
 * registered a byte before any call routed the stubs.) */
static inline void ehs_stub_arm(int pri, bool armed)
{
	if (__builtin_expect(!__atomic_load_n(&ehs_stubs_routed, __ATOMIC_ACQUIRE), 0))
		ehs_stub_route();
	if (!armed)
		ehs_pri_table_arm(pri);
}
#else
static inline void ehs_stub_arm(int pri, bool armed)
{
	(void)pri;
	(void)armed;
}
#endif
#endif

#endif
