/* SPDX-License-Identifier: MIT */
/*
 * The native structured-event API of <ehsyslog.h>: ehs_event, and
 * ehs_event_cached's full path (a cache to fill, other fields than the
 * cache's, a value to refuse).  Every head is built here, and kept as it
 * was built; docs/design.md has the three paths to an event.
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
#include "bridge/api/native_cache.h"
#include "bridge/schema.h"
#include "bridge/scratch.h"

/* Names of up to EHS_FIELDS_MAX fields of any sensible length. */
#define NATIVE_META_MAX 2048

/* The iovecs of one event: the writer's, the prefix if copied, the head,
 * then the values'. */
#define NATIVE_IOV (3 + EHS_SITE_IOV - 2)

EHS_API bool ehs_enabled(int priority)
{
	if (ehs_busy)
		return false;
	int saved = errno;
	bool on = ehs_traced(LOG_PRI(priority), ehs_priority_facility(priority)) != NULL;
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

/* Hands prefix (the head's, with the level of this call's priority),
 * metadata and the values (iov[3..3 + n), size bytes) to tp as one
 * event. */
static inline __attribute__((always_inline))
int put_event(struct ue_tracepoint *tp, int priority, const uint8_t *head,
	      size_t head_len, struct iovec iov[NATIVE_IOV], int n, size_t size)
{
	if (native_too_big(head_len + size, ehs_level(priority)))
		return -E2BIG;
	uint8_t prefix[NATIVE_PREFIX_LEN];
	struct iovec *first =
		native_head_iov(iov + 2, prefix, head, head_len, ehs_level(priority)) - 1;
	first[0] = (struct iovec){ NULL, 0 };
	native_transport_send(tp, priority, head, first, (int)(iov + 3 + n - first));
	return 1;
}

/* Where an event with a head built for the call is laid out: the head,
 * the iovecs and the values' bytes, over 3 KiB. */
struct native_room {
	uint8_t head[NATIVE_PREFIX_LEN + NATIVE_META_MAX];
	struct iovec iov[NATIVE_IOV];
	uint8_t buf[8 * EHS_FIELDS_MAX];
};

struct put_call {
	struct ue_tracepoint *tp;
	int priority;
	struct ehs_event_cache *cache;
	const char *event_name;
	const struct ehs_field *fields;
	unsigned nfields;
};

/* The event with a head built here, in room, offered to the cache (if any). */
static int put_built(void *room, void *ctx)
{
	const struct put_call *c = ctx;
	struct native_room *r = room;
	size_t size = 0;	/* set when n >= 0; gcc for aarch64 cannot tell */
	int n = ehs_emit_values_(c->fields, c->nfields, NULL, r->iov + 3, r->buf, &size);
	long head_len = build_head(r->head, c->event_name, c->fields, c->nfields);
	if (head_len == -EINVAL || n < 0)
		return -EINVAL;
	if (head_len < 0)
		return -E2BIG;
	unsigned level = ehs_level(c->priority);
	if (c->cache) {
		r->head[NATIVE_LEVEL_AT] = (uint8_t)level;
		ehs_native_cache_put(c->cache, c->priority, c->tp, c->event_name, c->fields,
				     c->nfields, r->head, (size_t)head_len);
	}
	return put_event(c->tp, c->priority, r->head, (size_t)head_len, r->iov, n, size);
}

/* put_built with its room in a scratch slot (bridge/scratch.h), so that an
 * event made in a signal handler takes little stack; out of line, as
 * only a call with no head kept comes here. */
static __attribute__((noinline)) int put_new(struct ue_tracepoint *tp, int priority,
					     struct ehs_event_cache *cache, const char *event_name,
					     const struct ehs_field *fields, unsigned nfields)
{
	struct put_call c = { tp, priority, cache, event_name, fields, nfields };
	return ehs_scratch_run(sizeof(struct native_room), put_built, &c);
}

_Static_assert(sizeof(struct native_room) <= EHS_SCRATCH_SIZE, "an event's room in a slot");

/* The event with c's kept head; 0 when fields are not the head's (the
 * caller builds one).  Out of line: only this case has its iovecs and
 * values on the stack (ehs_event_cached's own path has them too). */
static __attribute__((noinline)) int put_kept(struct ue_tracepoint *tp, int priority,
					      const struct native_cache *c,
					      const struct ehs_field *fields, unsigned nfields)
{
	struct iovec iov[NATIVE_IOV];
	uint8_t buf[8 * EHS_FIELDS_MAX];
	size_t size;
	int n = ehs_emit_values_(fields, nfields, c->keys, iov + 3, buf, &size);
	if (n >= 0)
		return put_event(tp, priority, ehs_native_cache_head(c), c->head_len, iov, n, size);
	return n == -1 ? -EINVAL : 0;
}

static inline __attribute__((always_inline))
int write_event(struct ue_tracepoint *tp, int priority, struct ehs_event_cache *cache,
		const char *event_name, const struct ehs_field *fields, unsigned nfields)
{
	const struct native_cache *c = cache ? ehs_native_cache_get(cache, event_name, nfields) : NULL;
	if (c) {
		int r = put_kept(tp, priority, c, fields, nfields);
		if (r)
			return r;
	}
	return put_new(tp, priority, cache, event_name, fields, nfields);
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
	struct ue_tracepoint *tp = ehs_traced(LOG_PRI(priority), ehs_priority_facility(priority));
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
