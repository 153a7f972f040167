/* SPDX-License-Identifier: MIT */
/*
 * The plain event's hot path, inline: a syslog() message of the current
 * ident in one part, with nothing but the schema's fields, from its kept
 * head (the prefix and metadata built once per ident and level) to the
 * transports (transport.h).  emit.c builds and keeps
 * what this reads, and has every other event; syslog_inline.h formats
 * and writes the traced syslog() message with it in the entry's own
 * frame.  Its names are the emitter's own: only emit.c and
 * syslog_inline.h include it.
 */
#ifndef EHS_BRIDGE_EMIT_INLINE_H
#define EHS_BRIDGE_EMIT_INLINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include <eventheader/eventheader.h>
#include <ehsyslog/settings.h>

#include "bridge/emit.h"
#include "bridge/format/format_inline.h"
#include "bridge/ident.h"
#include "bridge/schema.h"
#include "bridge/scratch.h"
#include "bridge/format/text.h"
#include "bridge/transport_inline.h"
#include "bridge/unit.h"
#include "common/hidden.h"
#include "common/le.h"

/* The field descriptors: at most 8 fields, each a short name, NUL,
 * encoding and format byte. */
#define FIELDS_MAX 96
/* Event name, NUL, and the field descriptors. */
#define META_MAX (EHS_EVENT_NAME_MAX + 1 + FIELDS_MAX)

/* An event's bytes before its payload: the prefix eh_event_iov makes
 * (no activity ids) and the metadata, in one piece. */
struct head {
	size_t len;
	size_t meta_at;		/* where the metadata, and so the name, starts */
	uint8_t bytes[EH_PREFIX_MAX + META_MAX];
};

/* The name a head was built with (NUL-terminated inside it). */
static inline const char *head_name(const struct head *h)
{
	return (const char *)h->bytes + h->meta_at;
}

/* The named heads' entries (emit.c): one per ident, a head per level. */
#define HEAD_NAMES 8

struct named_heads {
	int state;
	struct head level[EHS_LEVELS];	/* level[k] has level k + 1 */
};

/* What a traced program keeps: the named heads, and the plain event's
 * copies of its tracepoints' channels (transport.h).  Mapped at the
 * first miss of a head, not in .bss (map_once.h), so that no plain event
 * is written before they are. */
struct kept {
	struct named_heads named[HEAD_NAMES];
	uint64_t channels[CHANNELS_N];
};

/* emit.c's: the struct kept once mapped, else NULL; its channels, or
 * zeros that are never current until then; and which entry is the
 * current ident's (see emit.c). */
extern EHS_HIDDEN void *ehs_emit_kept;
extern EHS_HIDDEN const uint64_t *ehs_emit_channels;
extern EHS_HIDDEN unsigned long ehs_emit_current;

/* The kept head for generation gen at level, if current names one. */
static inline const struct head *kept_head(unsigned long gen, unsigned level)
{
	unsigned long k = (__atomic_load_n(&ehs_emit_current, __ATOMIC_ACQUIRE) ^ gen << 4) - 1;
	if (k < HEAD_NAMES && level - 1 < EHS_LEVELS)
		/* current names an entry only once they are mapped */
		return &((struct kept *)__atomic_load_n(&ehs_emit_kept, __ATOMIC_RELAXED))
				->named[k].level[level - 1];
	return NULL;
}

/* kept_head's answer when current names no entry for gen: the ident's
 * shared entry, found or built (emit.c), or NULL when there is none to
 * share.  Out of line: once per ident. */
EHS_HIDDEN const struct head *ehs_emit_named_head(unsigned long gen, unsigned level);

/* The values every event has, in schema order, as eh_payload_u8/u16/u32
 * would append them, stored directly: their lengths and sizes are fixed
 * here, so the builder's checks have nothing to catch.  The message's
 * count goes before its text, the rest after. */
#define VALUES_AFTER 6

static inline void put_values(uint8_t severity, uint8_t facility, int32_t err, size_t text_len,
			      uint8_t count[2], uint8_t after[VALUES_AFTER])
{
	put_le16(count, (uint16_t)text_len);
	after[0] = severity;
	after[1] = facility;
	put_le32(after + 2, (uint32_t)err);
}

/* The usual event's shared head at level for a text of len bytes, or
 * NULL when the event is not that one (no head to share, or too long
 * for limit).  An ident's first event finds or builds its head here too,
 * so that it takes no deeper stack than the next (perf's 8 KiB copy of
 * the stack then unwinds it). */
static inline __attribute__((always_inline)) const struct head *
plain_head(unsigned level, size_t len, size_t limit)
{
	unsigned long gen = ehs_ident_gen();
	const struct head *h = kept_head(gen, level);
	if (__builtin_expect(!h, 0))
		h = ehs_emit_named_head(gen, level);
	if (!h || h->len + 2 + VALUES_AFTER + ehs_unit.field_len + len > limit || len > UINT16_MAX)
		return NULL;
	return h;
}

/*
 * The usual event when its head is shared: only the pieces it has, so
 * the writer has fewer to go through.  False when the event is not that
 * one.
 */
static inline __attribute__((always_inline)) bool
emit_plain(unsigned level, uint8_t severity, uint8_t facility, int32_t err,
	   const char *msg, size_t len, size_t limit, struct ue_tracepoint *tp)
{
	const struct head *h = plain_head(level, len, limit);
	if (!h)
		return false;
	uint8_t count[2], after[VALUES_AFTER];
	put_values(severity, facility, err, len, count, after);
	struct iovec iov[6];
	/* iov[0] is the writer's: filled in there. */
	iov[1] = (struct iovec){ (void *)h->bytes, h->len };
	iov[2] = (struct iovec){ count, sizeof count };
	iov[3] = (struct iovec){ (void *)msg, len };
	iov[4] = (struct iovec){ after, sizeof after };
	iov[5] = (struct iovec){ ehs_unit.field, ehs_unit.field_len };
	const struct ehs_outgoing ev = {
		.iov = iov,
		.iovcnt = ehs_unit.field_len ? 6 : 5,
		/* Its length known here, the limit checked above: the
		 * writer need not add it up. */
		.size = h->len + sizeof count + len + sizeof after + ehs_unit.field_len,
		.level = level,
		.name = head_name(h),
		.severity = severity,
		.facility = facility,
		.err = err,
		.msg = msg,
		.msg_len = len,
	};
	ehs_transport_send(tp, &ev);
	return true;
}

/* Every other event (emit.c), out of line. */
EHS_HIDDEN int ehs_emit_any(const struct ehs_record *r, size_t limit, struct ue_tracepoint *tp);

/* The message event for the text p[0..len). */
static inline __attribute__((always_inline)) int
emit_message(struct ue_tracepoint *tp, int severity, unsigned facility, int err,
	     const char *p, size_t len)
{
	unsigned level = ehs_level(severity);
	size_t limit = ehs_transport_limit();
	if (emit_plain(level, (uint8_t)(severity & 7), (uint8_t)facility, err, p, len, limit, tp))
		return 1;
	const struct ehs_record rec = {
		.level = level,
		.severity = (uint8_t)(severity & 7),
		.facility = (uint8_t)facility,
		.err = err,
		.msg = p,
		.msg_len = len,
	};
	return ehs_emit_any(&rec, limit, tp);
}

/* ehs_emit_vmessage for a text the inline formatter could not make: n is
 * its answer (a text too long for the stack, or one left to vsnprintf),
 * or EHS_FORMAT_FALLBACK for a NULL format.  Formats again from ap. */
EHS_HIDDEN int ehs_emit_vmessage_rest(struct ue_tracepoint *tp, int severity, unsigned facility,
				      int err, const char *fmt, va_list ap, long n);

/*
 * The message event of a planned format (format_plan.h) with no text
 * made: the writer gathers the format's literal runs and the
 * conversions' texts where they lie (format_parts), which saves copying
 * the text and a scratch slot for it.  Only for user_events: a probe
 * site takes its message in one piece, so while a uprobe is on the
 * sites the caller formats it.  Returns what emit_message would; an
 * event that is not the usual one is formatted again from ap, the
 * arguments at *work having been taken.
 */
static inline __attribute__((always_inline)) int
emit_planned(struct ue_tracepoint *tp, int severity, unsigned facility, int err,
	     const char *fmt, const struct ehs_fmt_plan *plan, va_list ap, va_list *work)
{
	/* iov[0] is the writer's, then the head, the text's count, the
	 * text's parts and the values after it. */
	struct iovec iov[3 + EHS_FMT_PARTS + 2];
	struct ehs_fmt_room room;
	size_t len;
	size_t parts = format_parts(fmt, plan, work, err, iov + 3, &room, &len);
	unsigned level = ehs_level(severity);
	const struct head *h = plain_head(level, len, EHS_EVENT_MAX);
	if (__builtin_expect(!h, 0))
		return ehs_emit_vmessage_rest(tp, severity, facility, err, fmt, ap,
					      EHS_FORMAT_FALLBACK);
	uint8_t count[2], after[VALUES_AFTER];
	put_values((uint8_t)(severity & 7), (uint8_t)facility, err, len, count, after);
	iov[1] = (struct iovec){ (void *)h->bytes, h->len };
	iov[2] = (struct iovec){ count, sizeof count };
	iov[3 + parts] = (struct iovec){ after, sizeof after };
	iov[4 + parts] = (struct iovec){ ehs_unit.field, ehs_unit.field_len };
	const struct ehs_outgoing ev = {
		.iov = iov,
		.iovcnt = 4 + parts + (ehs_unit.field_len ? 1 : 0),
		.size = h->len + sizeof count + len + sizeof after + ehs_unit.field_len,
		.level = level,
	};
	user_events_send(tp, &ev);
	return 1;
}

/* ehs_emit_vmessage, inline: the text formatted from *work, a copy of
 * ap that the caller made (va_copy cannot be inlined) and ends, into a
 * scratch slot (scratch.h), not the caller's frame: the entry that
 * inlines this calls the real vsyslog from the same frame.  The text's
 * pointer and length stay in registers: no struct ehs_text, whose
 * address the slow ways need.  With no slot free, ehs_emit_vmessage_rest
 * formats it on its own stack. */
static inline __attribute__((always_inline)) int
ehs_emit_vmessage_inline(struct ue_tracepoint *tp, int severity, unsigned facility, int err,
			 const char *fmt, va_list ap, va_list *work)
{
	if (__builtin_expect(!fmt, 0))
		return ehs_emit_vmessage_rest(tp, severity, facility, err, fmt, ap,
					      EHS_FORMAT_FALLBACK);
	size_t len;
	const char *arg = ehs_text_of_percent_s(fmt, ap, &len);
	if (arg)
		return emit_message(tp, severity, facility, err, arg, len);
	const struct ehs_fmt_plan *plan = ehs_format_plan(fmt);
	if (plan && !usdt_any())
		return emit_planned(tp, severity, facility, err, fmt, plan, ap, work);
	char *buf = ehs_scratch_take();
	if (__builtin_expect(!buf, 0))
		return ehs_emit_vmessage_rest(tp, severity, facility, err, fmt, ap,
					      EHS_FORMAT_FALLBACK);
	long n = ehs_format_inline_plan(buf, EHS_TEXT_STACK, fmt, plan, work, err);
	if (!ehs_text_fits_stack(n)) {
		ehs_scratch_give(buf);
		return ehs_emit_vmessage_rest(tp, severity, facility, err, fmt, ap, n);
	}
	int r = emit_message(tp, severity, facility, err, buf, ehs_text_trimmed(buf, (size_t)n));
	ehs_scratch_give(buf);
	return r;
}

#endif
