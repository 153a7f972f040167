/* SPDX-License-Identifier: MIT */
/*
 * ehs_event_cached: the call site's cache (native_cache.h), filled once,
 * and the traced call that matches it.  That call compares each field's
 * name and type with the key, stores the scalar values into a small
 * buffer on its stack and points the iovecs at the cached head, at that
 * buffer and at the strings themselves: nothing is built, nothing but
 * the scalars copied.  Anything else goes to ehs_native_event.
 */
#include "config.h"

#include "bridge/api/native_cache.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <syslog.h>

#include <eventheader/eventheader.h>
#include "common/le.h"

#include "bridge/bridge.h"

void ehs_native_cache_put(struct ehs_event_cache *cache, int priority,
			  struct ue_tracepoint *tp, const char *event_name,
			  const struct ehs_field *fields, unsigned nfields,
			  const uint8_t *head, size_t head_len)
{
	struct native_cache *c = (struct native_cache *)cache;
	size_t room = sizeof *cache - offsetof(struct native_cache, keys);
	size_t keys = nfields * sizeof c->keys[0];
	if (nfields > EHS_FIELDS_MAX || keys > room || head_len > room - keys)
		return;
	/* Claimed by one caller; anyone else, a signal handler that
	 * interrupted it included, finds it filling and builds its own. */
	uint16_t unclaimed = 0;
	if (!__atomic_compare_exchange_n(&c->claimed, &unclaimed, 1, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	c->event_name = event_name;
	c->head_len = (uint16_t)head_len;
	/* The tracepoint is kept with openlog's facility it was found for.
	 * When it no longer gives tp (openlog moved it meanwhile; only a
	 * priority without a facility of its own can tell), none is kept:
	 * no facility is -1. */
	int fac = priority & LOG_FACMASK, ident = ehs_ident_facility();
	bool same = ehs_tracepoint(priority, (unsigned)LOG_FAC(fac ? fac : ident)) == tp;
	c->tp = tp;
	c->priority = priority;
	c->ident_facility = same ? ident : -1;
	for (unsigned i = 0; i < nfields; i++) {
		c->keys[i].name = fields[i].name;
		c->keys[i].type = (unsigned long)fields[i].type;
	}
	memcpy(c->keys + nfields, head, head_len);
	/* Readers acquire this: they see every byte above. */
	__atomic_store_n(&c->ready, nfields + 1, __ATOMIC_RELEASE);
}

/* Most iovecs one event takes: the writer's, the prefix, the metadata,
 * the buffer's bytes before each string (its length at least) and the
 * string, and the buffer's bytes after the last. */
#define CACHED_IOV (3 + 2 * EHS_FIELDS_MAX + 1)

/* ehs_event's answer to an event of the cache's fields that does not
 * fit: EINVAL for a string over 65535 bytes, else E2BIG.  iov..end: the
 * buffer's bytes and each string, as the fast path lays them out. */
static __attribute__((noinline, cold)) int too_big(const struct iovec *iov,
						   const struct iovec *end)
{
	errno = E2BIG;
	for (; iov + 1 < end; iov += 2)
		if (iov[1].iov_len > UINT16_MAX)
			errno = EINVAL;
	return -1;
}

/* send_cached's answer when the fields do not match the cache's key. */
#define CACHED_MISS 2

/* The traced event of a matching call, through the cache: 1 sent, -1
 * too big (errno set), or CACHED_MISS.  A function of its own so that
 * its 1.4 KiB of iovecs and values are not on the stack under
 * ehs_native_event, which a miss and a cache's first call run (it may
 * open the writer): the stack budget. */
static __attribute__((noinline)) int send_cached(const struct native_cache *c,
						 struct ue_tracepoint *tp, int priority,
						 const struct ehs_field *fields, unsigned nfields)
{
	/* iov[0] the writer's, iov[1] the prefix if copied, then the head;
	 * before each string, the buffer's bytes since the last one, its
	 * length last.  The values first, without a call, then the strings'
	 * lengths: fewer values to keep across strlen. */
	struct iovec iov[CACHED_IOV];
	uint8_t buf[8 * EHS_FIELDS_MAX];
	struct iovec *io = iov + 3;
	uint8_t *p = buf, *from = buf;
	const struct ehs_field *f = fields;
	for (const struct ehs_field_key *k = c->keys, *end = k + nfields; k != end; k++, f++) {
		if (f->name != k->name || (unsigned long)f->type != k->type)
			return CACHED_MISS;
		uint64_t v = f->v.u;
		switch (k->type) {
		case EHS_FIELD_STRING:
			p += 2;
			io[0] = (struct iovec){ from, (size_t)(p - from) };
			io[1].iov_base = (void *)(f->v.s ? f->v.s : "");
			io += 2;
			from = p;
			break;
		case EHS_FIELD_INT64:
		case EHS_FIELD_UINT64:
			put_le64(p, v);
			p += 8;
			break;
		case EHS_FIELD_ERRNO:
			put_le64(p, v);	/* 4 bytes kept */
			p += 4;
			break;
		case EHS_FIELD_BOOL:
			*p++ = v != 0;
			break;
		case EHS_FIELD_UINT8:
			if (v > UINT8_MAX)
				return CACHED_MISS;
			*p++ = (uint8_t)v;
			break;
		default:
			__builtin_unreachable();	/* keys are valid types */
		}
	}
	*io++ = (struct iovec){ from, (size_t)(p - from) };

	/* The head as it is, or after a copy of its prefix at this level. */
	size_t head_len = c->head_len;
	uint8_t prefix[NATIVE_PREFIX_LEN];
	struct iovec *first = native_head_iov(iov + 2, prefix, ehs_native_cache_head(c),
					      head_len, ehs_level(priority)) - 1;
	first[0] = (struct iovec){ NULL, 0 };

	/* From here on the event is the cache's: the strings' lengths are
	 * all that can still refuse it. */
	size_t size = head_len + (size_t)(p - buf);
	for (struct iovec *s = iov + 3; s + 1 != io; s += 2) {
		size_t len = strlen(s[1].iov_base);
		s[1].iov_len = len;
		put_le16((uint8_t *)s[0].iov_base + s[0].iov_len - 2, (uint16_t)len);
		size += len;
	}
	if (native_too_big(size, ehs_level(priority)))
		return too_big(iov + 3, io);

	native_send(tp, priority, ehs_native_cache_head(c), first, (int)(io - first));
	return 1;
}

EHS_API int ehs_event_cached(struct ehs_event_cache *cache, int priority,
			     const char *event_name, const struct ehs_field *fields,
			     unsigned nfields)
{
	const struct native_cache *c;
	if (!cache || !fields || !(c = ehs_native_cache_get(cache, event_name, nfields)))
		goto full;
	struct ue_tracepoint *tp = c->tp;
	if (__builtin_expect(priority != c->priority ||
			     (!(priority & LOG_FACMASK) &&
			      ehs_ident_facility() != c->ident_facility), 0))
		tp = native_tracepoint(priority);
	/* The cache is only filled while the configuration is on, and it
	 * never goes off after: the state word alone says. */
	uint32_t state = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
	if (__builtin_expect(state != UE_STATE_ENABLED, 0)) {
		if (state != 0 || usdt_any())
			goto full;	/* registering, a tracer's other bits, a uprobe */
		return 0;
	}
	if (ehs_busy)
		return 0;
	int r = send_cached(c, tp, priority, fields, nfields);
	if (r != CACHED_MISS)
		return r;
full:
	return ehs_native_event(cache, priority, event_name, fields, nfields);
}
