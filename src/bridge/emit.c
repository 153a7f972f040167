/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/emit.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <eventheader/eventheader.h>
#include <ehsyslog/schema.h>
/* The builder's little-endian stores (inline, nothing private called). */
#include "common/le.h"
#include "common/map_once.h"

#include "bridge/emit_inline.h"
#include "bridge/ident.h"
#include "bridge/schema.h"
#include "bridge/scratch.h"
#include "bridge/transport_inline.h"
#include "bridge/unit.h"
#include "bridge/format/text.h"
#include "user_events/channel.h"

/* Both payload pieces that are not text: at most 1+1+4+2 and 4+2+2. */
#define TAIL_MAX 16

size_t ehs_split_len(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	size_t cut = max;
	/* s[cut] starts the next part: step back while it is a
	 * continuation byte (10xxxxxx). */
	while (cut > 0 && max - cut < 3 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	if (((unsigned char)s[cut] & 0xc0) == 0x80 || cut == 0)
		return max;
	return cut;
}

/* The field descriptors of the schema, in its four variants (with
 * error_at_line's file and line, with part and parts).  An event's
 * metadata is its name, a NUL, then these bytes (the EventHeader
 * format), so they are built once, by the builder, and copied after the
 * name on each call instead of being built field by field every time. */
#define V_FILE EHS_FIELD_WITH_FILE
#define V_SPLIT EHS_FIELD_SPLIT

struct fields {
	size_t len;
	uint8_t bytes[FIELDS_MAX];
};

static struct fields fields_cache[4];
/* 0: not built, 1: being built, 2: ready (then never written again). */
static int fields_state[4];

static int build_fields(struct fields *f, unsigned variant)
{
	/* The unit is the process's, known before the first event. */
	if (ehs_unit.field_len)
		variant |= EHS_FIELD_IN_UNIT;
	/* A one-byte name stands in: its two bytes are cut off below. */
	uint8_t buf[2 + FIELDS_MAX];
	struct eh_meta m;
	eh_meta_init(&m, buf, sizeof buf, "x");
	for (unsigned k = 0; k < EHS_FIELD_COUNT; k++)
		if ((ehs_schema[k].when & ~variant) == 0)
			eh_meta_field(&m, ehs_schema[k].name, ehs_schema[k].encoding,
				      ehs_schema[k].format, 0, 0);
	if (eh_meta_finish(&m) < 0)
		return -1;
	f->len = m.buf.len - 2;
	memcpy(f->bytes, buf + 2, f->len);
	return 0;
}

/* The variant's shared descriptors, or NULL while they are not ready. */
static const struct fields *fields_ready(unsigned variant)
{
	if (__atomic_load_n(&fields_state[variant], __ATOMIC_ACQUIRE) == 2)
		return &fields_cache[variant];
	return NULL;
}

/* The variant's descriptors built into *own and offered as the shared
 * copy: the shared copy when it is ready after that, else own.
 * Lock-free: a thread or signal handler that finds the copy being built
 * uses its own. */
static const struct fields *fields_own(unsigned variant, struct fields *own)
{
	if (build_fields(own, variant) < 0)
		return NULL;
	int unbuilt = 0;
	if (__atomic_compare_exchange_n(&fields_state[variant], &unbuilt, 1, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		fields_cache[variant] = *own;
		__atomic_store_n(&fields_state[variant], 2, __ATOMIC_RELEASE);
	}
	const struct fields *shared = fields_ready(variant);
	return shared ? shared : own;
}

/* Payload bytes besides the text itself. */
static size_t fixed_payload(const struct ehs_record *r, size_t file_len, bool split)
{
	size_t n = 2 + 1 + 1 + 4 + ehs_unit.field_len;
	if (r->file)
		n += 2 + file_len + 4;
	if (split)
		n += 4;
	return n;
}

/*
 * The extras' field descriptors and values, in the order they go on the
 * wire.  Their descriptors follow the head's metadata, whose block length
 * in the head is raised to cover them (plan_extras).
 */
struct extras {
	size_t meta_len, payload_len;
	uint8_t meta[EHS_EXTRA_BYTES];
	uint8_t payload[EHS_EXTRA_BYTES];
};

static void extras_build(struct extras *x, const struct ehs_record *r)
{
	x->meta_len = x->payload_len = 0;
	for (unsigned k = 0; k < r->nextra; k++) {
		const struct ehs_extra *e = &r->extra[k];
		size_t name_len = strlen(e->name);
		/* name, NUL, encoding byte; a 16-bit count, the value */
		size_t need = name_len + 2 + 2 + e->value_len;
		if (e->value_len > EHS_EXTRA_BYTES ||
		    need > EHS_EXTRA_BYTES - x->meta_len - x->payload_len)
			break;
		memcpy(x->meta + x->meta_len, e->name, name_len + 1);
		x->meta[x->meta_len + name_len + 1] = e->binary ?
			EH_ENC_BINARY_LENGTH16_CHAR8 : EH_ENC_STRING_LENGTH16_CHAR8;
		x->meta_len += name_len + 2;
		put_le16(x->payload + x->payload_len, (uint16_t)e->value_len);
		memcpy(x->payload + x->payload_len + 2, e->value, e->value_len);
		x->payload_len += 2 + e->value_len;
	}
}

/* Where eh_event_iov puts the level: after flags, version, id, tag and
 * opcode.  The one byte of the head that depends on the call. */
#define LEVEL_AT 7
/* Where it puts the metadata block's 16-bit length: the first extension
 * after the 8-byte header (no activity ids are ever written here). */
#define META_SIZE_AT 8
/* The prefix's length, then: the header and the metadata block's. */
#define PREFIX_LEN (sizeof(struct eventheader) + sizeof(struct eventheader_extension))

/* The head for name at level with the descriptors f. */
static int build_head_with(struct head *h, const char *name, unsigned level,
			   const struct fields *f)
{
	/* The metadata is built in h itself, where it goes after the
	 * prefix (without activity ids, its length is fixed): no buffer of
	 * its own on the stack. */
	uint8_t *meta_buf = h->bytes + PREFIX_LEN;
	struct eh_meta meta;
	eh_meta_init(&meta, meta_buf, META_MAX, name);
	if (eh_meta_finish(&meta) < 0 ||
	    eh_buf_append(&meta.buf, f->bytes, f->len) < 0)
		return -1;
	struct eventheader eh = { .level = (uint8_t)level };
	struct eh_prefix prefix;
	struct iovec iov[EH_EVENT_IOV];
	long len = eh_event_iov(&prefix, &eh, NULL, NULL, &meta, NULL, 0, iov);
	if (len < 0 || prefix.len != PREFIX_LEN)
		return -1;
	memcpy(h->bytes, prefix.bytes, prefix.len);
	h->meta_at = prefix.len;
	h->len = (size_t)len;
	return 0;
}

/* The shared descriptors for the variant's first head, built for it in
 * a frame of their own, popped before the head is built: NULL when they
 * are still someone else's to finish (then build_head_own). */
static __attribute__((noinline)) const struct fields *fields_first(unsigned variant)
{
	struct fields own;
	const struct fields *f = fields_own(variant, &own);
	return f == &own ? NULL : f;
}

void ehs_emit_prepare(void)
{
	for (unsigned variant = 0; variant < sizeof fields_state / sizeof fields_state[0]; variant++)
		if (!fields_ready(variant))
			(void)fields_first(variant);
}

/* build_head while another caller builds the shared descriptors: with a
 * copy of its own, in a frame only then made.  -1 for descriptors that
 * cannot be built. */
static __attribute__((noinline)) int build_head_own(struct head *h, const char *name,
						    unsigned level, unsigned variant)
{
	struct fields own;
	const struct fields *f = fields_own(variant, &own);
	return f ? build_head_with(h, name, level, f) : -1;
}

static int build_head(struct head *h, const char *name, unsigned level, unsigned variant)
{
	const struct fields *f = fields_ready(variant);
	if (__builtin_expect(!f, 0))
		f = fields_first(variant);
	return f ? build_head_with(h, name, level, f) : build_head_own(h, name, level, variant);
}


/*
 * The plain message event's heads, one per level, for the idents of
 * the process, so that a call neither sanitises the ident nor builds
 * the metadata again, and uses the head where it lies, without copying
 * it.  An entry is built once, by the caller that claims it, and never
 * written again: nothing a reader holds can change under it.
 * ehs_emit_current names the entry of the current ident: its ident
 * generation (ehs_ident_gen(), which openlog and closelog move on)
 * shifted left by 4, and the entry's index + 1 (0 is none).  A caller
 * that finds the generation moved on looks the name up among the
 * entries (a program that switches between a few idents keeps finding
 * them), claims a free entry for a new one, and with none left (or the
 * entries not mapped) builds the head on its own stack at every call.
 * Nobody waits: a signal handler that interrupts a builder of its own
 * thread finds the entry claimed and goes on to the next.
 */
enum { ENTRY_FREE, ENTRY_BUILDING, ENTRY_READY };

void *ehs_emit_kept;
/* Zeros in .rodata until the struct kept is mapped: the traced call
 * reads a copy that is never current without a test of its own, and
 * makes no mmap. */
static const uint64_t no_channels[CHANNELS_N];
const uint64_t *ehs_emit_channels = no_channels;
unsigned long ehs_emit_current;

/* The entries, mapped by the first caller that needs them, or NULL. */
static struct named_heads *named_entries(void)
{
	struct kept *k = ehs_map_once(&ehs_emit_kept, sizeof(struct kept));
	if (!k)
		return NULL;
	__atomic_store_n(&ehs_emit_channels, k->channels, __ATOMIC_RELEASE);
	return k->named;
}

/* Builds e's heads for name, one per level: they differ in the level
 * byte only. */
static int build_named(struct named_heads *e, const char *name)
{
	if (build_head(&e->level[0], name, 1, 0) < 0)
		return -1;
	for (unsigned k = 1; k < EHS_LEVELS; k++) {
		struct head *h = &e->level[k];
		h->len = e->level[0].len;
		h->meta_at = e->level[0].meta_at;
		memcpy(h->bytes, e->level[0].bytes, h->len);
		h->bytes[LEVEL_AT] = (uint8_t)(k + 1);
	}
	return 0;
}

static void publish(unsigned long gen, unsigned k)
{
	__atomic_store_n(&ehs_emit_current, gen << 4 | (k + 1), __ATOMIC_RELEASE);
}

/* The shared entry of the ident named name at level, found among the
 * entries or claimed and built for it, and named current for gen; NULL
 * when none is free (or they cannot be mapped or built). */
static const struct head *named_head(unsigned long gen, unsigned level, const char *name)
{
	struct named_heads *all = level - 1 < EHS_LEVELS ? named_entries() : NULL;
	for (unsigned k = 0; all && k < HEAD_NAMES; k++) {
		struct named_heads *e = &all[k];
		int state = __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);
		if (state == ENTRY_READY && strcmp(head_name(&e->level[0]), name) == 0) {
			publish(gen, k);
			return &e->level[level - 1];
		}
		if (state != ENTRY_FREE ||
		    !__atomic_compare_exchange_n(&e->state, &state, ENTRY_BUILDING, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		if (build_named(e, name) < 0) {
			__atomic_store_n(&e->state, ENTRY_FREE, __ATOMIC_RELEASE);
			break;
		}
		__atomic_store_n(&e->state, ENTRY_READY, __ATOMIC_RELEASE);
		publish(gen, k);
		return &e->level[level - 1];
	}
	return NULL;
}

const struct head *ehs_emit_named_head(unsigned long gen, unsigned level)
{
	/* gen with no entry: searched already, in vain (a ninth ident). */
	unsigned long none = gen << 4;
	if (__atomic_load_n(&ehs_emit_current, __ATOMIC_ACQUIRE) == none)
		return NULL;
	char name[EHS_EVENT_NAME_MAX + 1];
	ehs_event_name(name, ehs_ident());
	const struct head *h = named_head(gen, level, name);
	/* Said once, so that the ident's later calls go the general way
	 * without searching twice (ident_head_slow searches again, and
	 * publishes an entry that turned up meanwhile). */
	if (!h && level - 1 < EHS_LEVELS)
		__atomic_store_n(&ehs_emit_current, none, __ATOMIC_RELEASE);
	return h;
}

/* ident_head's work when ehs_emit_current does not name the generation's
 * entry. */
static __attribute__((noinline)) const struct head *
ident_head_slow(unsigned long gen, unsigned level, struct head *own)
{
	char name[EHS_EVENT_NAME_MAX + 1];
	ehs_event_name(name, ehs_ident());
	const struct head *h = named_head(gen, level, name);
	if (h)
		return h;
	if (build_head(own, name, level, 0) < 0)
		return NULL;
	return own;
}

/* The plain head for the current ident at level: a shared entry, or
 * *own built for this call; NULL when it cannot be built. */
static inline const struct head *ident_head(unsigned level, struct head *own)
{
	unsigned long gen = ehs_ident_gen();
	const struct head *h = kept_head(gen, level);
	return h ? h : ident_head_slow(gen, level, own);
}

/* What every part of one call's event shares. */
struct plan {
	const struct head *head;	/* own, or a shared entry's */
	const struct extras *x;	/* NULL when the record has none */
	size_t overhead;	/* every byte of an event but the text */
	struct head own;
};

/* Counts x in p: its descriptors lengthen the head's metadata block, in
 * p's own copy of the head. */
static void plan_extras(struct plan *p, const struct extras *x)
{
	p->x = x;
	if (!x)
		return;
	if (p->head != &p->own) {
		p->own.len = p->head->len;
		p->own.meta_at = p->head->meta_at;
		memcpy(p->own.bytes, p->head->bytes, p->head->len);
		p->head = &p->own;
	}
	uint8_t *size = p->own.bytes + META_SIZE_AT;
	put_le16(size, (uint16_t)(size[0] + (size[1] << 8) + x->meta_len));
	p->overhead += x->meta_len + x->payload_len;
}

static int make_plan(struct plan *p, const struct ehs_record *r, const char *name,
		     size_t file_len, bool split, const struct extras *x)
{
	if (build_head(&p->own, name, r->level,
		       (r->file ? V_FILE : 0) | (split ? V_SPLIT : 0)) < 0)
		return -1;
	p->head = &p->own;
	p->overhead = p->own.len + fixed_payload(r, file_len, split);
	plan_extras(p, x);
	return 0;
}

static inline __attribute__((always_inline)) void
put_part(const struct ehs_record *r, const struct plan *p,
		     size_t file_len, const char *text, size_t text_len,
		     unsigned part, unsigned parts, struct ue_tracepoint *tp)
{
	struct iovec iov[EHS_EMIT_IOV];
	uint8_t count[2], tail1[TAIL_MAX], tail2[TAIL_MAX];
	size_t n1 = VALUES_AFTER, n2 = 0;

	put_values(r->severity, r->facility, r->err, text_len, count, tail1);
	if (r->file) {
		put_le16(tail1 + n1, (uint16_t)file_len);
		n1 += 2;
		put_le32(tail2, r->line);
		n2 = 4;
	}
	if (parts) {
		put_le16(tail2 + n2, (uint16_t)part);
		put_le16(tail2 + n2 + 2, (uint16_t)parts);
		n2 += 4;
	}

	iov[0].iov_base = NULL;
	iov[0].iov_len = 0;
	/* The prefix and metadata; the payload follows in pieces so the
	 * text is never copied. */
	iov[1].iov_base = (void *)p->head->bytes;
	iov[1].iov_len = p->head->len;
	/* The extras' descriptors, or nothing (never NULL, for writers
	 * that memcpy every piece). */
	iov[2].iov_base = p->x ? (void *)p->x->meta : (void *)p->head->bytes;
	iov[2].iov_len = p->x ? p->x->meta_len : 0;
	iov[3].iov_base = count;
	iov[3].iov_len = sizeof count;
	iov[4].iov_base = (void *)text;
	iov[4].iov_len = text_len;
	iov[5].iov_base = tail1;
	iov[5].iov_len = n1;
	iov[6].iov_base = (void *)(r->file ? r->file : "");
	iov[6].iov_len = r->file ? file_len : 0;
	iov[7].iov_base = tail2;
	iov[7].iov_len = n2;
	iov[8].iov_base = ehs_unit.field;
	iov[8].iov_len = ehs_unit.field_len;
	iov[9].iov_base = p->x ? (void *)p->x->payload : (void *)tail2;
	iov[9].iov_len = p->x ? p->x->payload_len : 0;
	const struct ehs_outgoing ev = {
		.iov = iov,
		.iovcnt = EHS_EMIT_IOV,
		.level = r->level,
		.name = head_name(p->head),
		.severity = r->severity,
		.facility = r->facility,
		.err = r->err,
		.msg = text,
		.msg_len = text_len,
	};
	ehs_transport_send(tp, &ev);
}

/* The events of r, with x its extras' (or NULL): plain for the plain
 * head, whose name the others reuse; other for this call's head when it
 * is not the plain one. */
static int emit_with(const struct ehs_record *r, const struct extras *x, struct plan *plain,
		     struct plan *other, size_t limit, struct ue_tracepoint *tp)
{
	size_t file_len = r->file ? strlen(r->file) : 0;
	const struct plan *p = plain;

	if (file_len > UINT16_MAX || r->level < 1 || r->level > 255)
		return -1;
	const char *name = r->name;
	if (!name) {
		plain->head = ident_head(r->level, &plain->own);
		if (!plain->head)
			return -1;
		name = head_name(plain->head);
	} else if (!r->file) {
		if (build_head(&plain->own, name, r->level, 0) < 0)
			return -1;
		plain->head = &plain->own;
	}
	if (r->file) {
		if (make_plan(other, r, name, file_len, false, x) < 0)
			return -1;
		p = other;
	} else {
		plain->overhead = plain->head->len + fixed_payload(r, 0, false);
		plan_extras(plain, x);
	}
	if (p->overhead + r->msg_len <= limit && r->msg_len <= UINT16_MAX) {
		put_part(r, p, file_len, r->msg, r->msg_len, 0, 0, tp);
		return 1;
	}
	if (make_plan(other, r, name, file_len, true, x) < 0 || other->overhead + 4 > limit)
		return -1;
	p = other;
	size_t room = limit - p->overhead;
	if (room > UINT16_MAX)
		room = UINT16_MAX;

	/* Count first, so every part can carry the total. */
	unsigned long parts = 0;
	for (size_t at = 0; at < r->msg_len; parts++)
		at += ehs_split_len(r->msg + at, r->msg_len - at, room);
	if (parts > UINT16_MAX)
		return -1;
	size_t at = 0;
	for (unsigned part = 1; part <= parts; part++) {
		size_t n = ehs_split_len(r->msg + at, r->msg_len - at, room);
		put_part(r, p, file_len, r->msg + at, n, part, (unsigned)parts, tp);
		at += n;
	}
	return (int)parts;
}

/*
 * An event's heads and extras, which a call builds for itself: in a
 * scratch slot (scratch.h), so that a signal handler's event takes
 * little stack; with none free, on the stack, the extras last, so that
 * a call without them takes only the heads' bytes there.
 */
struct emit_area {
	struct plan plain, other;
	struct extras x;
};

_Static_assert(sizeof(struct emit_area) <= EHS_SCRATCH_SIZE, "an event's heads in a slot");

void ehs_emit_write_slow(struct ue_tracepoint *tp, struct iovec *iov, unsigned long iovcnt,
			 size_t size, size_t k)
{
	if (ue_tracepoint_write_sized(tp, iov, (int)iovcnt, size) != 0 || k >= CHANNELS_N)
		return;
	struct kept *all = __atomic_load_n(&ehs_emit_kept, __ATOMIC_ACQUIRE);
	uint64_t copy = ue__channel_copy(tp);
	if (all && copy)
		__atomic_store_n(&all->channels[k], copy, __ATOMIC_RELEASE);
}

struct emit_any_call {
	const struct ehs_record *r;
	size_t limit;
	struct ue_tracepoint *tp;
};

static int emit_any_in(void *buf, void *ctx)
{
	const struct emit_any_call *c = ctx;
	struct emit_area *a = buf;
	const struct extras *x = NULL;
	if (c->r->nextra) {
		extras_build(&a->x, c->r);
		x = &a->x;
	}
	return emit_with(c->r, x, &a->plain, &a->other, c->limit, c->tp);
}

/* Every other event; out of line, so that the plain one's frame stays
 * small.  Its heads, and its extras' buffers only when it has extras. */
int ehs_emit_any(const struct ehs_record *r, size_t limit, struct ue_tracepoint *tp)
{
	struct emit_any_call c = { r, limit, tp };
	return ehs_scratch_run(r->nextra ? sizeof(struct emit_area) : offsetof(struct emit_area, x),
			       emit_any_in, &c);
}

int ehs_emit(const struct ehs_record *r, size_t limit, struct ue_tracepoint *tp)
{
	if (!(r->name || r->file || r->nextra) &&
	    emit_plain(r->level, r->severity, r->facility, r->err, r->msg, r->msg_len, limit, tp))
		return 1;
	return ehs_emit_any(r, limit, tp);
}

struct vmessage_rest_call {
	struct ue_tracepoint *tp;
	int severity;
	unsigned facility;
	int err;
	const char *fmt;
	long n;
	va_list ap;
};

/* ehs_emit_vmessage_rest's work, the text formatted into buf
 * (EHS_TEXT_STACK bytes) if it fits. */
static int vmessage_rest_in(void *buf, void *ctx)
{
	struct vmessage_rest_call *c = ctx;
	struct ehs_text t = { .buf = buf };
	if (ehs_text_vformat_rest(&t, c->n, c->err, -1, c->fmt, c->ap) < 0)
		return -1;
	int r = emit_message(c->tp, c->severity, c->facility, c->err, t.p, t.len);
	ehs_text_free(&t);
	return r;
}

int ehs_emit_vmessage_rest(struct ue_tracepoint *tp, int severity, unsigned facility, int err,
			   const char *fmt, va_list ap, long n)
{
	struct vmessage_rest_call c = {
		.tp = tp,
		.severity = severity,
		.facility = facility,
		.err = err,
		.fmt = fmt,
		.n = n,
	};
	va_copy(c.ap, ap);
	int r = ehs_scratch_run(EHS_TEXT_STACK, vmessage_rest_in, &c);
	va_end(c.ap);
	return r;
}

int ehs_emit_vmessage(struct ue_tracepoint *tp, int severity, unsigned facility, int err,
		      const char *fmt, va_list ap)
{
	va_list work;
	va_copy(work, ap);
	int r = ehs_emit_vmessage_inline(tp, severity, facility, err, fmt, ap, &work);
	va_end(work);
	return r;
}
