/* SPDX-License-Identifier: MIT */
/*
 * USDT probes: the transport for kernels without user_events.
 *
 * Five probe sites in <sys/sdt.h>'s .note.stapsdt, provider "ehsyslog",
 * one per EventHeader level, named after it: critical, error, warning,
 * info, verbose (levels 1 to 5).
 * A tracer defines a uprobe event on a site (ehsyslog register, tail
 * and export do; perf, trace-cmd and bpftrace read them) and the kernel
 * then does two things in every process that maps the library: it puts
 * its breakpoint where the site's nop was, and it adds one to the
 * site's semaphore, the uprobe's reference counter.
 *
 * The five sites share one semaphore, usdt_gate, so one load tells
 * whether anything of ours is traced through uprobes here.  It is a
 * byte that starts at 0x7f: the first enabled site makes it 0x80, and
 * with five sites the count never reaches a carry.  So its top bit says
 * "traced", as the top bit of the syslog stubs' table bytes does for
 * user_events, and a check reads one byte.  Which level is traced is
 * read from the level's site: still the nop, or the kernel's breakpoint
 * (usdt_armed).  Nothing here makes a system call.
 *
 * A site's arguments, in registers as a C call passes them (x86-64
 * rdi..r9, arm64 x0..x5), so that a uprobe fetches them without debug
 * information:
 *   message   char *, the text, NUL-terminated, cut to fit (below)
 *   name      char *, the provider and the event's name ("Syslog:demo"),
 *             as decoders show them
 *   severity  s32, syslog severity 0..7 (a native event's priority's)
 *   facility  s32, 0..127, which gives the keyword (1 << facility below
 *             24, else 0); the probe's name gives the level: together
 *             the user_events tracepoint the event would have been
 *             written to ("Syslog_L4K10000"), which decoders need
 *   errno     s32, errno at the call
 *   event     char *, the whole EventHeader event (the bytes a
 *             user_events write carries after its write index) in
 *             base64 (RFC 4648, with padding): what decoders read.
 * A uprobe fetches NUL-terminated strings, not sized buffers, hence the
 * base64.  The strings of one event must fit the kernel's page for a
 * uprobe's dynamic data (a larger one makes it warn, then cut): an event
 * takes at most USDT_EVENT_MAX bytes, and the message argument is cut so
 * that all the strings fit USDT_STRINGS_MAX; the event argument is never
 * cut.
 */
#ifndef EHSYSLOG_USDT_H
#define EHSYSLOG_USDT_H

/* The bytes of all three strings of one event, NULs included: under a
 * 4 KiB page less the record's fixed fields and ftrace's own header. */
#define USDT_STRINGS_MAX 3840
/* The largest event the event argument carries: its base64 is
 * 4 * 512 = 2048 bytes, which leaves the message and name 1789. */
#define USDT_EVENT_MAX 1536

#define USDT_LEVELS 5

/* usdt_gate's bit that says a uprobe is on a site (above). */
#define USDT_GATE_TRACED 0x80

/* Included by the syslog stubs: constants only for the assembler. */
#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* The probes' shared semaphore (see above); the kernel's. */
extern __attribute__((visibility("hidden"))) volatile uint8_t usdt_gate;

/* True while a uprobe on any of the library's sites is enabled for this
 * process: one load. */
static inline bool usdt_any(void)
{
	return __atomic_load_n(&usdt_gate, __ATOMIC_RELAXED) & USDT_GATE_TRACED;
}

/* Whether level's site (1..USDT_LEVELS) holds a breakpoint: the kernel's,
 * while a uprobe on it is enabled for this process.  Read after
 * usdt_any(). */
bool usdt_site_armed(unsigned level);

/* usdt_any() and level's site armed: an event at level would be
 * recorded.  One load while nothing is traced through uprobes. */
static inline bool usdt_armed(unsigned level)
{
	return __builtin_expect(usdt_any(), 0) && usdt_site_armed(level);
}

/* What a site shows besides the event.  message need not end in NUL. */
struct usdt_fields {
	unsigned level;		/* 1..USDT_LEVELS */
	const char *provider;	/* provider_len bytes */
	size_t provider_len;
	const char *name;	/* NUL-terminated */
	const char *message;
	size_t message_len;
	int severity, facility, err;
};

/*
 * Fires f->level's site with f and the event iov[0..iovcnt).  Returns
 * 0, -EMSGSIZE for an event over USDT_EVENT_MAX, or
 * -EINVAL for a level out of range.  Builds its strings in buf
 * (USDT_STRINGS_MAX bytes of the caller's, which the kernel reads at the
 * site); call it only when usdt_armed(level).  Preserves errno.
 */
int usdt_write(const struct usdt_fields *f, const struct iovec *iov, int iovcnt,
	       char buf[USDT_STRINGS_MAX]);
#endif

#endif
