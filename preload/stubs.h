/* SPDX-License-Identifier: MIT */
/*
 * What the x86-64 entry stubs (syslog_stubs.S) and the C wrappers share.
 * With EHS_STUBS set, syslog, vsyslog, __syslog_chk and __vsyslog_chk are
 * the stubs: each looks up its priority's enable word in the priority
 * table (bridge/pri_table.h) before anything else, and returns when it
 * is 0, else jumps with every register as the caller left it to the C
 * wrapper, ehs_full_<name>.  Elsewhere (other architectures,
 * --disable-asm-stubs, EHS_NO_ASM_STUBS) the C wrappers are the entry
 * points and make the same check in C, after the variadic prologue.
 */
#ifndef EHS_PRELOAD_STUBS_H
#define EHS_PRELOAD_STUBS_H

#if defined(EHS_ASM_STUBS) && !defined(EHS_NO_ASM_STUBS)
#define EHS_STUBS 1
#else
#define EHS_STUBS 0
#endif

#endif
