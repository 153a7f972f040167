/* SPDX-License-Identifier: MIT */
/*
 * What ehs_event_cached keeps in the caller's struct ehs_event_cache: the
 * head of one event (its prefix and metadata, as the uncached path builds
 * them, the level byte that of the call that filled it), the key it was
 * built for (the addresses of the event name and field names, the field
 * types) and, as a shortcut, the tracepoint that call wrote to.  The head
 * serves calls at any priority (another level replaces the level byte in
 * a copy of the prefix); the tracepoint only calls at the same priority
 * while openlog's facility stays what it was.  Filled once, by the first
 * traced call that finds it unclaimed, then only read, never written
 * again: readers use it in place, without a copy and without a lock,
 * from any thread or signal handler.  A call that finds it being filled,
 * or kept for another key, builds its own head on its stack.
 */
#ifndef EHS_BRIDGE_NATIVE_CACHE_H
#define EHS_BRIDGE_NATIVE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include <eventheader/eventheader.h>

#include <ehsyslog.h>
#include <ehsyslog/user_events.h>

#include "bridge/bridge.h"
#include "bridge/ident.h"
#include "bridge/schema.h"
#include "bridge/transport_inline.h"

/* The prefix eh_event_iov makes without activity ids: the eventheader
 * and the metadata block's header.  A head starts with it. */
#define NATIVE_PREFIX_LEN (sizeof(struct eventheader) + sizeof(struct eventheader_extension))
/* The one byte of a head that depends on the call. */
#define NATIVE_LEVEL_AT offsetof(struct eventheader, level)

/* The caller's storage, seen through its real layout: after the fixed
 * part, nfields keys, then the head. */
struct __attribute__((may_alias)) native_cache {
	uint32_t ready;		/* 0, then nfields + 1 once filled */
	uint16_t claimed;	/* 0, then 1: its filler has taken it */
	uint16_t head_len;
	const char *event_name;
	/* The tracepoint of the filling call, for calls at the same
	 * priority while openlog's facility is still ident_facility (or
	 * priority has its own): a shortcut, the same as ehs_tracepoint. */
	struct ue_tracepoint *tp;
	int priority;
	int ident_facility;	/* -1: openlog moved it during the fill */
	struct ehs_field_key keys[];	/* the names' addresses, the types */
};

_Static_assert(sizeof(struct native_cache) <= sizeof(struct ehs_event_cache),
	       "struct ehs_event_cache too small for its own header");
_Static_assert(_Alignof(struct native_cache) <= _Alignof(struct ehs_event_cache),
	       "struct ehs_event_cache aligned less than its contents");

/*
 * The cache, when it holds a head for this event name and nfields fields:
 * its keys then say which names and types they were.  NULL while it is
 * empty or being filled, or when it holds another event's head.
 */
static inline const struct native_cache *ehs_native_cache_get(const struct ehs_event_cache *cache,
							      const char *event_name,
							      unsigned nfields)
{
	const struct native_cache *c = (const struct native_cache *)cache;
	/* In 64 bits, nfields + 1 is never 0 (empty), and it equals ready
	 * only for nfields <= EHS_FIELDS_MAX. */
	if (__atomic_load_n(&c->ready, __ATOMIC_ACQUIRE) != (uint64_t)nfields + 1 ||
	    c->event_name != event_name)
		return NULL;
	return c;
}

/* The head a filled cache keeps, after its keys. */
static inline const uint8_t *ehs_native_cache_head(const struct native_cache *c)
{
	return (const uint8_t *)(c->keys + c->ready - 1);
}

/*
 * Points the iovecs that end at last at head as a call at level writes
 * it: last alone at head when its level byte is level already, else
 * last - 1 at a copy of its prefix in prefix, the level set, and last at
 * the rest.  Returns the first of them.
 */
static inline struct iovec *native_head_iov(struct iovec *last,
					    uint8_t prefix[NATIVE_PREFIX_LEN],
					    const uint8_t *head, size_t head_len, unsigned level)
{
	if (__builtin_expect(head[NATIVE_LEVEL_AT] == level, 1)) {
		last[0] = (struct iovec){ (void *)head, head_len };
		return last;
	}
	memcpy(prefix, head, NATIVE_PREFIX_LEN);
	prefix[NATIVE_LEVEL_AT] = (uint8_t)level;
	last[-1] = (struct iovec){ prefix, NATIVE_PREFIX_LEN };
	last[0] = (struct iovec){ (void *)(head + NATIVE_PREFIX_LEN),
				  head_len - NATIVE_PREFIX_LEN };
	return last - 1;
}

/* Offers the head built for this event name and these fields, written
 * at priority to tp.  Kept when the cache is still empty and it fits;
 * else dropped. */
void ehs_native_cache_put(struct ehs_event_cache *cache, int priority,
			  struct ue_tracepoint *tp, const char *event_name,
			  const struct ehs_field *fields, unsigned nfields,
			  const uint8_t *head, size_t head_len);

/* Whether a native event of size bytes (header to last value) at level
 * is more than a transport that takes it now can carry: one user_events
 * write, or while a uprobe is on the level's probe site, a site's
 * arguments.  A native event is never split: such a one is refused
 * (E2BIG), not reported as written while the probe drops it.  The usual
 * event pays one compare. */
static inline bool native_too_big(size_t size, unsigned level)
{
	return __builtin_expect(size > USDT_EVENT_MAX, 0) &&
	       (size > EHS_EVENT_MAX || usdt_armed(level));
}

/* The tracepoint a native event at priority goes to now. */
static inline struct ue_tracepoint *native_tracepoint(int priority)
{
	return ehs_tracepoint(priority, ehs_priority_facility(priority));
}

/* The event iov[0..iovcnt) (iov[0] the writer's) at priority, whose
 * head is head, to the transports.  A native event has no message or
 * errno of its own: a probe site shows its name, the priority's
 * severity and facility, an empty message and 0. */
static inline void native_transport_send(struct ue_tracepoint *tp, int priority,
					 const uint8_t *head, struct iovec *iov, int iovcnt)
{
	const struct ehs_outgoing ev = {
		.iov = iov,
		.iovcnt = (unsigned long)iovcnt,
		.level = ehs_level(priority),
		.name = (const char *)head + NATIVE_PREFIX_LEN,
		.severity = priority,
		.facility = EHS_FACILITY_OF_PRIORITY,
		.msg = "",
	};
	ehs_transport_send(tp, &ev);
}

/* Writes a whole event (iov[0] the writer's) at priority, whose head is
 * head, as a call from inside the library. */
static inline void native_send(struct ue_tracepoint *tp, int priority, const uint8_t *head,
			       struct iovec *iov, int iovcnt)
{
	ehs_busy = 1;
	native_transport_send(tp, priority, head, iov, iovcnt);
	ehs_busy = 0;
}

/* openlog moved the facility: every EHS_EMIT site finds its tracepoint
 * again (native_site.c). */
void ehs_site_epoch_next(void);

/* ehs_event_cached's full path (native.c): anything its fast path in
 * native_cache.c does not write. */
int ehs_native_event(struct ehs_event_cache *cache, int priority, const char *event_name,
		     const struct ehs_field *fields, unsigned nfields);

#endif
