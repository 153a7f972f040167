/* SPDX-License-Identifier: MIT */
/*
 * Formats parsed once.  Most log formats are string literals in the
 * program's read-only data: the same bytes at the same address for the
 * life of the process.  For those, where the literal text runs and where
 * the conversions are is worked out at the first call and kept, so that
 * later calls copy runs of known length instead of searching the format
 * for '%' again (and measuring it first).
 *
 * Only formats inside the executable's read-only segments, and ending at
 * least 16 bytes before the end of them (so that the formatter may copy
 * the literal runs in whole 16-byte blocks), are kept: a
 * format anywhere else (the stack, the heap, writable data, a library
 * that may be unloaded) can change under the same address, and is always
 * formatted from scratch.  A program that makes its own read-only data
 * writable with mprotect and rewrites a format there would see the old
 * plan; nothing known does.
 *
 * A plan holds up to EHS_FMT_PIECES pieces, each a literal run and the
 * bare conversion after it (%d %s %m or %%), the last one's conversion
 * 0.  A format with anything else (flags, widths, lengths, other
 * conversions) or more pieces gets no plan: ehs_format parses it at
 * every call.
 */
#ifndef EHS_BRIDGE_FORMAT_PLAN_H
#define EHS_BRIDGE_FORMAT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/hidden.h"

#define EHS_FMT_PIECES 7

struct ehs_fmt_piece {
	uint16_t literal;	/* bytes of text before the conversion */
	char conv;		/* 'd', 's', 'm', '%', or 0: the end */
};

struct ehs_fmt_plan {
	const char *fmt;	/* the format's address: the key */
	int state;		/* EHS_FMT_* below */
	struct ehs_fmt_piece piece[EHS_FMT_PIECES];
};

enum { EHS_FMT_BUILDING, EHS_FMT_READY, EHS_FMT_NONE };

/* The plans, direct-mapped by address: a format whose slot another holds
 * goes without.  Mapped at the first plan (map_once.h). */
#define EHS_FMT_SLOTS_LOG2 8

/* The executable's read-only span, [ehs_fmt_ro_start, + ehs_fmt_ro_size):
 * until read, the whole address space, so that the first call goes on
 * to read it; after, empty when there is none. */
extern EHS_HIDDEN uintptr_t ehs_fmt_ro_start, ehs_fmt_ro_size;
extern EHS_HIDDEN struct ehs_fmt_plan *ehs_fmt_plans;

static inline size_t ehs_fmt_slot(const char *fmt)
{
	/* Fibonacci hashing: literals sit close together, often aligned. */
	return (size_t)(((uint64_t)(uintptr_t)fmt * 0x9e3779b97f4a7c15u) >>
			(64 - EHS_FMT_SLOTS_LOG2));
}

/* ehs_format_plan's work past the inline checks: the span read, the
 * plan built. */
const struct ehs_fmt_plan *ehs_format_plan_slow(const char *fmt);

/* fmt's plan, or NULL when it has none (yet): then format it the long
 * way.  Inline, a compare for a format outside the span and a lookup
 * for one inside; the slow path decides for good.  Lock-free and
 * async-signal-safe; errno kept. */
static inline const struct ehs_fmt_plan *ehs_format_plan(const char *fmt)
{
	if ((uintptr_t)fmt - __atomic_load_n(&ehs_fmt_ro_start, __ATOMIC_RELAXED) >=
	    __atomic_load_n(&ehs_fmt_ro_size, __ATOMIC_RELAXED))
		return NULL;
	struct ehs_fmt_plan *all = __atomic_load_n(&ehs_fmt_plans, __ATOMIC_ACQUIRE);
	if (all) {
		const struct ehs_fmt_plan *e = &all[ehs_fmt_slot(fmt)];
		if (__atomic_load_n(&e->fmt, __ATOMIC_ACQUIRE) == fmt)
			return __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == EHS_FMT_READY ?
			       e : NULL;
	}
	return ehs_format_plan_slow(fmt);
}

#endif
