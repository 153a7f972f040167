/* SPDX-License-Identifier: MIT */
/*
 * Where an event leaves the bridge.  Each event is made once, as its
 * EventHeader bytes in iovecs, and ehs_transport_send hands it to every
 * transport in turn:
 *
 *   USDT         the level's probe site (src/usdt/), only while a uprobe
 *                is on it: the site's arguments are a few of the event's
 *                fields and the whole event in base64, for kernels
 *                without user_events;
 *   user_events  one writev on the tracepoint's descriptor.
 *
 * (transport_inline.h).  A transport to come is one more call in
 * ehs_transport_send, one more test in ehs_transport_on, and its limit
 * in ehs_transport_limit.  The
 * exception is the native API's EHS_EMIT site, whose traced call writes
 * through a channel copy of its own (api/native_site.c) and comes here,
 * by the full path, for anything else.
 */
#ifndef EHS_BRIDGE_TRANSPORT_H
#define EHS_BRIDGE_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <ehsyslog/usdt.h>
#include <ehsyslog/user_events.h>

#include "common/hidden.h"

/* Largest event (header to last payload byte) ftrace and perf both take. */
#define EHS_EVENT_MAX 4064

/* An event on its way out. */
struct ehs_outgoing {
	struct iovec *iov;	/* the EventHeader event; iov[0] the writer's */
	unsigned long iovcnt;
	size_t size;		/* iov[1..]'s bytes, within the limit, or 0:
				 * then the writer adds them up and checks */
	unsigned level;		/* EventHeader level 1..5 */
	/* What a probe site shows beside the event. */
	const char *name;	/* the event's name */
	int severity;		/* 0..7; with EHS_FACILITY_OF_PRIORITY, a
				 * whole syslog priority */
	int facility;		/* 0..127, or EHS_FACILITY_OF_PRIORITY */
	int err;
	const char *msg;
	size_t msg_len;
};

/* An outgoing facility that the probe's path works out from severity,
 * a whole priority: its own facility, else openlog's.  The native API's
 * events carry it, so that the user_events path, which needs no
 * facility, reads none (openlog's is an atomic load). */
#define EHS_FACILITY_OF_PRIORITY (-1)

/* The most bytes of one event now: while a uprobe is on the library's
 * probe sites, what a site's arguments carry (usdt.h), so that a long
 * message makes the same parts for both transports. */
static inline size_t ehs_transport_limit(void)
{
	return usdt_any() ? USDT_EVENT_MAX : EHS_EVENT_MAX;
}

/* Whether any transport takes tp's events now. */
static inline bool ehs_transport_on(struct ue_tracepoint *tp, unsigned level)
{
	return ue_tracepoint_active(tp) || usdt_armed(level);
}

/* The event through its level's probe site; for a caller that found
 * usdt_armed.  Out of line: the uprobe's trap costs far more than the
 * call. */
EHS_HIDDEN void ehs_transport_usdt(const struct ue_tracepoint *tp, const struct ehs_outgoing *ev);

#endif
