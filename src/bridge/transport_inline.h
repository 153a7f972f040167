/* SPDX-License-Identifier: MIT */
/*
 * ehs_transport_send, inline (transport.h), and the user_events
 * transport's fast path: for the emitters (emit_inline.h, emit.c,
 * api/native_cache.h) only.
 */
#ifndef EHS_BRIDGE_TRANSPORT_INLINE_H
#define EHS_BRIDGE_TRANSPORT_INLINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <ehsyslog/settings.h>
#include <ehsyslog/usdt.h>
#include <ehsyslog/user_events.h>

#include "bridge/schema.h"
#include "bridge/transport.h"
#include "common/hidden.h"
#include "user_events/channel.h"

/*
 * Copies of the channels of the schema's tracepoints (user_events/
 * channel.h), one per tracepoint, for events whose size is known: taken
 * after a write through the writer went in, used while current, so that
 * the usual traced call is a compare and the writev.  A stale copy, or a
 * failed writev through one, goes back to the writer, which tells why
 * and recovers what it can.  A tracepoint outside the table (a test's)
 * has none.  The copies live in emit.c's kept memory.
 */
#define CHANNELS_N (EHS_LEVELS * EHS_FACILITY_SLOTS)
extern EHS_HIDDEN const uint64_t *ehs_emit_channels;

/* tp's place in the table, CHANNELS_N for a tracepoint outside it. */
static inline size_t channel_index(const struct ue_tracepoint *tp)
{
	uintptr_t at = (uintptr_t)tp - (uintptr_t)ehs_table;
	return at < sizeof ehs_table ? at / sizeof *tp : CHANNELS_N;
}

/* The user_events write when tp's copy is stale or its writev failed:
 * the writer, then a fresh copy.  k is channel_index(tp). */
EHS_HIDDEN void ehs_emit_write_slow(struct ue_tracepoint *tp, struct iovec *iov,
				    unsigned long iovcnt, size_t size, size_t k);

/* The event through tp's user_events tracepoint. */
static inline __attribute__((always_inline)) void
user_events_send(struct ue_tracepoint *tp, const struct ehs_outgoing *ev)
{
	if (!ev->size) {
		ue_tracepoint_write(tp, ev->iov, (int)ev->iovcnt);
		return;
	}
	size_t k = channel_index(tp);
	if (__builtin_expect(k < CHANNELS_N, 1)) {
		uint64_t copy = __atomic_load_n(
			&__atomic_load_n(&ehs_emit_channels, __ATOMIC_ACQUIRE)[k], __ATOMIC_ACQUIRE);
		if (__builtin_expect(ue__channel_current(copy), 1) &&
		    __builtin_expect(ue__channel_writev(copy, ev->iov, ev->iovcnt) >= 0, 1))
			return;
	}
	ehs_emit_write_slow(tp, ev->iov, ev->iovcnt, ev->size, k);
}

/* The event to every transport that takes it.  Inline: the plain
 * event's path keeps its fields in registers.  The USDT probe takes a
 * copy, made on its branch only: were ev's own address handed out of
 * line, every call would store all of ev first. */
static inline __attribute__((always_inline)) void
ehs_transport_send(struct ue_tracepoint *tp, const struct ehs_outgoing *ev)
{
	if (__builtin_expect(usdt_armed(ev->level), 0)) {
		const struct ehs_outgoing copy = *ev;
		ehs_transport_usdt(tp, &copy);
	}
	user_events_send(tp, ev);
}

#endif
