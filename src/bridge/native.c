/* SPDX-License-Identifier: MIT */
/*
 * The native structured-event API of <ehsyslog.h>.  An event is its head
 * (prefix and metadata: the name, the fields' names and types) and the
 * values.  ehs_event builds the head on every call; ehs_event_cached
 * (native_cache.c) takes it from the caller's cache once it is there, so
 * that a traced call only checks the cache's key and writes the values,
 * and comes here for anything else (a cache to fill, other fields than
 * the cache's, a value to refuse).  The head is built by one code and
 * kept as it was built; the values are stored by put_values here and by
 * the fast path's own loop there, and test_native checks that both give
 * the same bytes for every type.
 */
#include "config.h"

#include <ehsyslog.h>

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <syslog.h>

#include <eventheader/eventheader.h>
/* The builder's little-endian stores (inline, nothing private called). */
#include "eventheader/buf.h"

#include "bridge/bridge.h"
#include "bridge/ident.h"
#include "bridge/native_cache.h"
#include "bridge/schema.h"

/* Names of up to EHS_FIELDS_MAX fields of any sensible length. */
#define NATIVE_META_MAX 2048

/* Values are stored 8 bytes at a time whatever their size, and only
 * strings are checked against EHS_EVENT_MAX as they go (a string never
 * ends past it): the room after it takes the 8-byte stores of every
 * field after the last string. */
#define VALUES_ROOM (EHS_EVENT_MAX + 8 * EHS_FIELDS_MAX + 8)

/* Returned by put_values when a field is not the cache's: no errno. */
#define NOT_CACHED LONG_MIN

static unsigned facility_of(int priority)
{
	int fac = priority & LOG_FACMASK;
	return (unsigned)LOG_FAC(fac ? fac : ehs_ident_facility());
}

EHS_API bool ehs_enabled(int priority)
{
	if (ehs_busy)
		return false;
	int saved = errno;
	bool on = ehs_traced(LOG_PRI(priority), facility_of(priority)) != NULL;
	errno = saved;
	return on;
}

static int field_meta(struct eh_meta *m, const struct ehs_field *f)
{
	switch (f->type) {
	case EHS_FIELD_STRING:
		return eh_meta_field(m, f->name, EH_ENC_STRING_LENGTH16_CHAR8, 0, 0, 0);
	case EHS_FIELD_INT64:
		return eh_meta_field(m, f->name, EH_ENC_VALUE64, EH_FMT_SIGNED_INT, 0, 0);
	case EHS_FIELD_UINT64:
		return eh_meta_field(m, f->name, EH_ENC_VALUE64, 0, 0, 0);
	case EHS_FIELD_ERRNO:
		return eh_meta_field(m, f->name, EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0);
	case EHS_FIELD_BOOL:
		return eh_meta_field(m, f->name, EH_ENC_VALUE8, EH_FMT_BOOLEAN, 0, 0);
	case EHS_FIELD_UINT8:
		return eh_meta_field(m, f->name, EH_ENC_VALUE8, 0, 0, 0);
	}
	return EH_E_INVAL;
}

/*
 * The head for event_name and fields into out: the prefix, its level
 * byte still to be set, then the metadata.  Returns its length, -EINVAL
 * for a field's bad name or type, -E2BIG when it does not fit.  Every
 * field is checked even after it stops fitting, so that a bad argument
 * is always EINVAL.
 */
static long build_head(uint8_t out[NATIVE_PREFIX_LEN + NATIVE_META_MAX], const char *event_name,
		       const struct ehs_field *fields, unsigned nfields)
{
	char name[EHS_EVENT_NAME_MAX + 1];
	struct eh_meta m;

	ehs_event_name(name, event_name);
	eh_meta_init(&m, out + NATIVE_PREFIX_LEN, NATIVE_META_MAX, name);
	for (unsigned i = 0; i < nfields; i++) {
		const char *fn = fields[i].name;
		if (!fn || !fn[0] || strchr(fn, ';') || field_meta(&m, &fields[i]) == EH_E_INVAL)
			return -EINVAL;
	}
	if (eh_meta_finish(&m) < 0)
		return -E2BIG;

	/* Any level will do: each call sets its own. */
	struct eventheader h = { .level = EH_LEVEL_CRITICAL };
	struct eh_prefix prefix;
	struct iovec iov[EH_EVENT_IOV];
	if (eh_event_iov(&prefix, &h, NULL, NULL, &m, NULL, 0, iov) < 0 ||
	    prefix.len != NATIVE_PREFIX_LEN)
		return -E2BIG;
	memcpy(out, prefix.bytes, NATIVE_PREFIX_LEN);
	return (long)(NATIVE_PREFIX_LEN + m.buf.len);
}

/*
 * The fields' values, as eh_payload_str8/u8/u32/u64 would append them,
 * into out.  Returns their length, -EINVAL for a bad type or value,
 * -E2BIG when they do not fit EHS_EVENT_MAX (every field still checked),
 * or NOT_CACHED when keys (if not NULL) are not these fields' names and
 * types.
 */
static inline __attribute__((always_inline))
long put_values(uint8_t out[VALUES_ROOM], const struct ehs_field *fields,
		unsigned nfields, const struct native_key *keys)
{
	size_t len = 0;
	bool big = false;

	for (unsigned i = 0; i < nfields; i++) {
		const struct ehs_field *f = &fields[i];
		unsigned long type = (unsigned long)f->type;
		if (keys && (f->name != keys[i].name || type != keys[i].type))
			return NOT_CACHED;
		/* INT64 and ERRNO: the low bytes of v.i are v.u's. */
		uint64_t v = f->v.u;
		size_t size, text_len = 0;
		const char *text = NULL;
		switch (type) {
		case EHS_FIELD_STRING:
			text = f->v.s ? f->v.s : "";
			v = text_len = strlen(text);
			if (text_len > UINT16_MAX)
				return -EINVAL;
			/* len may be past EHS_EVENT_MAX already (scalars are
			 * not checked): no subtraction from it. */
			if (big || len + 2 + text_len > EHS_EVENT_MAX) {
				big = true;
				continue;
			}
			size = 2;
			break;
		case EHS_FIELD_INT64:
		case EHS_FIELD_UINT64:
			size = 8;
			break;
		case EHS_FIELD_ERRNO:
			size = 4;
			break;
		case EHS_FIELD_BOOL:
			v = v != 0;
			size = 1;
			break;
		case EHS_FIELD_UINT8:
			if (v > UINT8_MAX)
				return -EINVAL;
			size = 1;
			break;
		default:
			return -EINVAL;
		}
		/* Little-endian, 8 bytes stored, the value's size kept. */
		eh_put_le64(out + len, v);
		len += size;
		if (text_len)
			memcpy(out + len, text, text_len);
		len += text_len;
	}
	return big || len > EHS_EVENT_MAX ? -E2BIG : (long)len;
}

/* Hands prefix (the head's, with this call's level), metadata and values
 * to tp's sink as one event. */
static inline __attribute__((always_inline))
int put_event(struct ue_tracepoint *tp, unsigned level, const uint8_t *head,
	      size_t head_len, const uint8_t *values, size_t values_len)
{
	if (head_len + values_len > EHS_EVENT_MAX)
		return -E2BIG;
	uint8_t prefix[NATIVE_PREFIX_LEN];
	/* The writer's, the prefix (if copied), the head, the values. */
	struct iovec iov[4];
	iov[3] = (struct iovec){ (void *)values, values_len };
	struct iovec *first = native_head_iov(iov + 2, prefix, head, head_len, level) - 1;
	first[0] = (struct iovec){ NULL, 0 };
	ehs_sink_fn sink;
	void *ctx;
	ehs_sink_for(tp, &sink, &ctx);
	sink(ctx, first, (int)(iov + 4 - first));
	return 1;
}

/* The event with a head built here, offered to cache (if any). */
static __attribute__((noinline)) int put_built(struct ue_tracepoint *tp, int priority,
					       struct ehs_event_cache *cache,
					       const char *event_name,
					       const struct ehs_field *fields, unsigned nfields,
					       uint8_t values[VALUES_ROOM])
{
	uint8_t head[NATIVE_PREFIX_LEN + NATIVE_META_MAX];
	long values_len = put_values(values, fields, nfields, NULL);
	long head_len = build_head(head, event_name, fields, nfields);
	if (head_len == -EINVAL || values_len == -EINVAL)
		return -EINVAL;
	if (head_len < 0 || values_len < 0)
		return -E2BIG;
	unsigned level = ehs_level(priority);
	if (cache) {
		head[NATIVE_LEVEL_AT] = (uint8_t)level;
		ehs_native_cache_put(cache, priority, tp, event_name, fields, nfields,
				     head, (size_t)head_len);
	}
	return put_event(tp, level, head, (size_t)head_len, values, (size_t)values_len);
}

static inline __attribute__((always_inline))
int write_event(struct ue_tracepoint *tp, int priority, struct ehs_event_cache *cache,
		const char *event_name, const struct ehs_field *fields, unsigned nfields)
{
	uint8_t values[VALUES_ROOM];
	unsigned level = ehs_level(priority);
	const struct native_cache *c = cache ? ehs_native_cache_get(cache, event_name, nfields) : NULL;
	if (c) {
		long values_len = put_values(values, fields, nfields, c->keys);
		if (values_len >= 0)
			return put_event(tp, level, ehs_native_cache_head(c), c->head_len,
					 values, (size_t)values_len);
		if (values_len != NOT_CACHED)
			return (int)values_len;
	}
	return put_built(tp, priority, cache, event_name, fields, nfields, values);
}

int ehs_native_event(struct ehs_event_cache *cache, int priority, const char *event_name,
		     const struct ehs_field *fields, unsigned nfields)
{
	int saved = errno;
	if ((nfields && !fields) || nfields > EHS_FIELDS_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (ehs_busy)
		return 0;
	ehs_busy = 1;
	int r = 0;
	struct ue_tracepoint *tp = ehs_traced(LOG_PRI(priority), facility_of(priority));
	if (tp)
		r = write_event(tp, priority, cache, event_name, fields, nfields);
	ehs_busy = 0;
	if (r < 0) {
		errno = -r;
		return -1;
	}
	errno = saved;
	return r;
}

EHS_API int ehs_event(int priority, const char *event_name,
		      const struct ehs_field *fields, unsigned nfields)
{
	return ehs_native_event(NULL, priority, event_name, fields, nfields);
}
