/* SPDX-License-Identifier: MIT */
/*
 * The probe sites (sites.c): each the level's probe, then a return.
 * Called with the arguments <ehsyslog/usdt.h> lists.
 */
#ifndef EHS_USDT_SITES_H
#define EHS_USDT_SITES_H

#define USDT_SITE_ARGS const char *message, const char *name, int severity, int facility, \
		       int err, const char *event
#define USDT_SITE_ATTR __attribute__((visibility("hidden")))

USDT_SITE_ATTR void usdt_site_L1(USDT_SITE_ARGS);
USDT_SITE_ATTR void usdt_site_L2(USDT_SITE_ARGS);
USDT_SITE_ATTR void usdt_site_L3(USDT_SITE_ARGS);
USDT_SITE_ATTR void usdt_site_L4(USDT_SITE_ARGS);
USDT_SITE_ATTR void usdt_site_L5(USDT_SITE_ARGS);

/* The instruction a site holds while no uprobe is on it: <sys/sdt.h>'s nop;
 * on x86-64 then the first byte of the nop5 after it (sites.c). */
#if defined(__x86_64__)
#define USDT_SITE_NOP 0x90u		/* nop */
#define USDT_SITE_NOP5 0x0fu		/* nopl 0x0(%rax,%rax,1) */
typedef unsigned char usdt_insn;
#elif defined(__aarch64__)
#define USDT_SITE_NOP 0xd503201fu	/* nop */
typedef unsigned int usdt_insn;
#else
/* No probes (sites.c): a site never changes. */
#define USDT_SITE_NOP 0u
typedef unsigned char usdt_insn;
#endif

#endif
