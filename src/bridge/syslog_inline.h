/* SPDX-License-Identifier: MIT */
/*
 * The traced syslog() call, inline: ehs_vsyslog with the formatter and
 * the plain event's emitter inline too, for the interposer's syslog
 * entries, whose usual traced call then runs in the entry's own frame
 * (a call and a frame fewer).  It brings the formatter's and emitter's
 * own names with it: only bridge.c and preload/syslog.c include it.
 */
#ifndef EHS_BRIDGE_SYSLOG_INLINE_H
#define EHS_BRIDGE_SYSLOG_INLINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "bridge/emit_inline.h"
#include "bridge/ident.h"
#include "bridge/pri_table.h"
#include "bridge/schema.h"

/* ehs_vsyslog's part out of line: a priority with stray bits. */
void ehs_vsyslog_unknown_bits(int pri, int saved_errno, const char *fmt, va_list ap)
	__attribute__((cold));

/* What ehs_vsyslog_inline did, for the entry that decides next whether
 * the real syslog runs and whether pri's byte is to be armed. */
struct ehs_vsyslog_done {
	bool routed;		/* pri's route was taken: nothing to arm */
	bool deliverable;	/* ehs_syslog_deliverable(pri) */
};

/* ehs_vsyslog itself, inline: the usual traced call goes from its entry
 * to the writev with no call in between, its text formatted from *work,
 * a copy of ap the caller made (va_copy cannot be inlined), or by
 * ehs_emit_vmessage, out of line, when work is NULL.  A priority
 * whose byte is registered (pri_table.h) takes the tracepoint and
 * facility its route holds.  Whether an event could be written is read
 * off the tracepoint already found, after the call registered it, not
 * found a second time. */
static inline __attribute__((always_inline)) struct ehs_vsyslog_done
ehs_vsyslog_inline(int pri, int saved_errno, const char *fmt, va_list ap, va_list *work)
{
	if (__builtin_expect(pri & ~(LOG_PRIMASK | LOG_FACMASK), 0)) {
		ehs_vsyslog_unknown_bits(pri, saved_errno, fmt, ap);
		return (struct ehs_vsyslog_done){ false, ehs_syslog_deliverable(pri) };
	}
	int severity = LOG_PRI(pri);
	if (!(LOG_MASK(severity) & ehs_ident_mask()))
		return (struct ehs_vsyslog_done){ false, ehs_syslog_deliverable(pri) };
	const struct ehs_pri_route *route = ehs_pri_route(pri);
	struct ue_tracepoint *tp;
	unsigned facility;
	if (__builtin_expect(route != NULL, 1)) {
		tp = ehs_pri_route_where(route, &facility);
	} else {
		if (!(pri & LOG_FACMASK))
			pri |= ehs_ident_facility();
		facility = (unsigned)LOG_FAC(pri);
		tp = ehs_tracepoint(severity, facility);
	}
	/* The usual event, straight to its writer: no record to fill in.
	 * A tracepoint's first check (ehs_traced_slow) reads the
	 * configuration and registers it; its event is formatted here too,
	 * so that no second text buffer is ever on the stack below this
	 * frame's. */
	if (ehs_traced_now(tp) || ehs_traced_slow(tp)) {
		if (work)
			ehs_emit_vmessage_inline(tp, severity, facility, saved_errno, fmt, ap, work);
		else
			ehs_emit_vmessage(tp, severity, facility, saved_errno, fmt, ap);
	}
	return (struct ehs_vsyslog_done){ route != NULL, ue_tracepoint_registered(tp) };
}

#endif
