/* SPDX-License-Identifier: MIT */
/*
 * What the x86-64 entry stubs (syslog_stubs.S) and the C wrappers share.
 * With EHS_STUBS set, syslog, vsyslog, __syslog_chk and __vsyslog_chk are
 * the stubs: each looks up its priority's enable word in the priority
 * table (bridge/pri_table.h) before anything else.  When it is 0 they
 * return in replace mode and jump to glibc's own function in
 * pass-through (ehs_stub_next), else they jump to the C wrapper,
 * ehs_full_<name>; every jump leaves the registers as the caller left
 * them.  Elsewhere (other architectures, --disable-asm-stubs,
 * EHS_NO_ASM_STUBS) the C wrappers are the entry points and make the same
 * check in C, after the variadic prologue.
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
#define EHS_STUB_COUNT 4

#ifndef __ASSEMBLER__
#include "bridge/hidden.h"

/* Where an untraced pass-through call goes: the next definition of the
 * entry point (glibc's), once ehs_real_resolve has found it, and the C
 * wrapper until then.  A generic function type: the stubs jump to these
 * with the caller's arguments, C never calls them. */
typedef void (*ehs_stub_fn)(void);
extern EHS_HIDDEN ehs_stub_fn ehs_stub_next[EHS_STUB_COUNT];
#endif

#endif
