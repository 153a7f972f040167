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

#include "bridge/native_cache.h"

#include <stdbool.h>
#include <string.h>
#include <syslog.h>

#include <eventheader/eventheader.h>
#include "eventheader/buf.h"

#include "bridge/bridge.h"

/* The prefix: the eventheader and the metadata block's header. */
#define PREFIX_LEN (sizeof(struct eventheader) + sizeof(struct eventheader_extension))
#define LEVEL_AT offsetof(struct eventheader, level)

void ehs_native_cache_put(struct ehs_event_cache *cache, const char *event_name,
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
	uint32_t empty = 0;
	if (!__atomic_compare_exchange_n(&c->ready, &empty, NATIVE_CACHE_FILLING, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	c->event_name = event_name;
	c->head_len = (uint32_t)head_len;
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

EHS_API int ehs_event_cached(struct ehs_event_cache *cache, int priority,
			     const char *event_name, const struct ehs_field *fields,
			     unsigned nfields)
{
	const struct native_cache *c;
	if (!cache || !fields || !(c = ehs_native_cache_get(cache, event_name, nfields)))
		goto full;
	unsigned facility = ((unsigned)priority >> 3) & (LOG_FACMASK >> 3);
	if (!facility)
		facility = (unsigned)ehs_ident_facility() >> 3;
	struct ue_tracepoint *tp = ehs_tracepoint(priority, facility);
	/* The cache is only filled while the configuration is on, and it
	 * never goes off after: the state word alone says. */
	uint32_t state = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
	if (__builtin_expect(state != UE_STATE_ENABLED && !EHS_TEST_SINK_SET(), 0)) {
		if (state != 0)
			goto full;	/* registering, or a tracer's other bits */
		return 0;
	}
	if (ehs_busy)
		return 0;

	/* iov[0] the writer's, iov[1] the prefix if copied, then the head;
	 * each string closes the buffer's bytes since the last one. */
	struct iovec iov[CACHED_IOV];
	uint8_t buf[8 * EHS_FIELDS_MAX];
	struct iovec *io = iov + 3;
	uint8_t *p = buf;
	size_t text = 0;
	io->iov_base = buf;
	const struct ehs_field *f = fields;
	for (const struct native_key *k = c->keys, *end = k + nfields; k != end; k++, f++) {
		if (f->name != k->name || (unsigned long)f->type != k->type)
			goto full;
		uint64_t v = f->v.u;
		switch (k->type) {
		case EHS_FIELD_STRING: {
			const char *str = f->v.s ? f->v.s : "";
			size_t len = strlen(str);
			/* Over 65535 is EINVAL, over the event's room E2BIG:
			 * either is over EHS_EVENT_MAX, and the full path
			 * tells them apart. */
			text += len;
			eh_put_le64(p, len);	/* 2 bytes kept */
			p += 2;
			io[0].iov_len = (size_t)(p - (uint8_t *)io[0].iov_base);
			io[1] = (struct iovec){ (void *)str, len };
			io[2].iov_base = p;
			io += 2;
			break;
		}
		case EHS_FIELD_INT64:
		case EHS_FIELD_UINT64:
			eh_put_le64(p, v);
			p += 8;
			break;
		case EHS_FIELD_ERRNO:
			eh_put_le64(p, v);	/* 4 bytes kept */
			p += 4;
			break;
		case EHS_FIELD_BOOL:
			*p++ = v != 0;
			break;
		case EHS_FIELD_UINT8:
			if (v > UINT8_MAX)
				goto full;
			*p++ = (uint8_t)v;
			break;
		default:
			__builtin_unreachable();	/* keys are valid types */
		}
	}
	io->iov_len = (size_t)(p - (uint8_t *)io->iov_base);
	io++;
	size_t head_len = c->head_len;
	if (head_len + (size_t)(p - buf) + text > EHS_EVENT_MAX)
		goto full;

	/* The head as it is, or after a copy of its prefix at this level. */
	const uint8_t *head = ehs_native_cache_head(c);
	uint8_t prefix[PREFIX_LEN];
	struct iovec *first = iov + 1;
	unsigned level = ehs_level(priority);
	if (__builtin_expect(head[LEVEL_AT] == level, 1)) {
		first[1] = (struct iovec){ (void *)head, head_len };
	} else {
		memcpy(prefix, head, PREFIX_LEN);
		prefix[LEVEL_AT] = (uint8_t)level;
		first[0] = (struct iovec){ prefix, PREFIX_LEN };
		first[1] = (struct iovec){ (void *)(head + PREFIX_LEN), head_len - PREFIX_LEN };
		first--;
	}
	first[0] = (struct iovec){ NULL, 0 };

	ehs_sink_fn sink;
	void *ctx;
	ehs_busy = 1;
	ehs_sink_for(tp, &sink, &ctx);
	sink(ctx, first, (int)(io - first));
	ehs_busy = 0;
	return 1;

full:
	return ehs_native_event(cache, priority, event_name, fields, nfields);
}
