/* SPDX-License-Identifier: MIT */
/*
 * Decoder, structure: validates an event's header and extension blocks
 * and walks its field descriptors and values one item at a time.  Every
 * read is checked against the end of the block it belongs to.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "eventheader/eventheader.h"

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int eh_event_open(struct eh_event_view *ev, const char *tracepoint_name,
		  const void *data, size_t len)
{
	struct eh_tracepoint tp;
	const uint8_t *p = data, *end, *meta = NULL, *meta_end = NULL;
	int r;

	if (!ev || !tracepoint_name || (!data && len))
		return EH_E_INVAL;
	memset(ev, 0, sizeof *ev);
	r = eh_tracepoint_parse(tracepoint_name, &tp);
	if (r < 0)
		return r;
	if (len < sizeof(struct eventheader))
		return EH_E_TRUNCATED;
	end = p + len;

	ev->header.flags = p[0];
	ev->header.version = p[1];
	ev->header.id = le16(p + 2);
	ev->header.tag = le16(p + 4);
	ev->header.opcode = p[6];
	ev->header.level = p[7];
	if (ev->header.flags != EH_FLAGS_LE64 && ev->header.flags != EH_FLAGS_LE64_EXT)
		return EH_E_FLAGS;
	if (ev->header.level != tp.level)
		return EH_E_LEVEL_MISMATCH;
	p += sizeof(struct eventheader);

	if (ev->header.flags & EH_FLAG_EXTENSION) {
		uint16_t kind;

		do {
			size_t size;

			if ((size_t)(end - p) < sizeof(struct eventheader_extension))
				return EH_E_EXTENSION;
			size = le16(p);
			kind = le16(p + 2);
			p += sizeof(struct eventheader_extension);
			if ((size_t)(end - p) < size)
				return EH_E_EXTENSION;
			switch (kind & EH_EXT_KIND_MASK) {
			case EH_EXT_METADATA:
				if (meta)
					return EH_E_NO_METADATA;
				meta = p;
				meta_end = p + size;
				break;
			case EH_EXT_ACTIVITY_ID:
				if (size != EH_ACTIVITY_ID_SIZE && size != EH_ACTIVITY_IDS_SIZE)
					return EH_E_ACTIVITY;
				ev->activity_id = p;
				ev->related_id = size == EH_ACTIVITY_IDS_SIZE ?
					p + EH_ACTIVITY_ID_SIZE : NULL;
				break;
			default:	/* unknown kinds are skipped */
				break;
			}
			p += size;
		} while (kind & EH_EXT_CHAIN);
	}
	if (!meta)
		return EH_E_NO_METADATA;

	/* The event name, "name;attr=value...", ends at the first NUL. */
	const uint8_t *nul = memchr(meta, 0, (size_t)(meta_end - meta));
	if (!nul)
		return EH_E_UNTERMINATED;
	const uint8_t *semi = memchr(meta, ';', (size_t)(nul - meta));
	ev->event_name = (const char *)meta;
	ev->name_len = (size_t)((semi ? semi : nul) - meta);
	if (semi) {
		ev->attributes = (const char *)semi;
		ev->attributes_len = (size_t)(nul - semi);
	}
	ev->provider = tp.provider;
	ev->provider_len = tp.provider_len;
	ev->keyword = tp.keyword;
	ev->meta = nul + 1;
	ev->meta_end = meta_end;
	ev->payload = p;
	ev->payload_end = end;
	return 0;
}

void eh_cursor_init(struct eh_cursor *c, const struct eh_event_view *ev)
{
	memset(c, 0, sizeof *c);
	c->ev = ev;
	c->meta = ev->meta;
	c->payload = ev->payload;
}

/* One field descriptor as stored in the metadata. */
struct desc {
	const char *name;
	uint8_t encoding;	/* with its flags */
	uint8_t format;		/* with EH_FMT_CHAIN */
	uint16_t tag;
	uint16_t count;		/* EH_ENC_CARRAY only */
};

static int read_desc(const uint8_t **pm, const uint8_t *end, struct desc *d)
{
	const uint8_t *m = *pm;
	const uint8_t *nul = memchr(m, 0, (size_t)(end - m));
	unsigned value;

	memset(d, 0, sizeof *d);
	if (!nul)
		return EH_E_UNTERMINATED;
	d->name = (const char *)m;
	m = nul + 1;
	if (m == end)
		return EH_E_TRUNCATED;
	d->encoding = *m++;
	if (d->encoding & EH_ENC_CHAIN) {
		if (m == end)
			return EH_E_TRUNCATED;
		d->format = *m++;
		if (d->format & EH_FMT_CHAIN) {
			if (end - m < 2)
				return EH_E_TRUNCATED;
			d->tag = le16(m);
			m += 2;
		}
	}
	if (d->encoding & EH_ENC_CARRAY) {
		if (end - m < 2)
			return EH_E_TRUNCATED;
		d->count = le16(m);
		m += 2;
	}
	value = d->encoding & EH_ENC_VALUE_MASK;
	if (value == EH_ENC_INVALID || value >= EH_ENC_MAX ||
	    (d->encoding & EH_ENC_ARRAY_MASK) == EH_ENC_ARRAY_MASK ||
	    ((d->encoding & EH_ENC_CARRAY) && d->count == 0))
		return EH_E_ENCODING;
	if (value == EH_ENC_STRUCT && (d->format & EH_FMT_VALUE_MASK) == 0)
		return EH_E_STRUCT;
	*pm = m;
	return 0;
}

/* Skips the descriptors of fields members (nested structs included):
 * where a struct array's descriptors end, whatever its element count. */
static int skip_members(const uint8_t **pm, const uint8_t *end, unsigned fields)
{
	struct desc d;
	size_t left = fields;
	int r;

	while (left && *pm < end) {
		r = read_desc(pm, end, &d);
		if (r < 0)
			return r;
		left--;
		if ((d.encoding & EH_ENC_VALUE_MASK) == EH_ENC_STRUCT)
			left += d.format & EH_FMT_VALUE_MASK;
	}
	return 0;
}

/* Bytes of one element of a fixed-size encoding, 0 for the others. */
static size_t fixed_size(unsigned encoding)
{
	switch (encoding & EH_ENC_VALUE_MASK) {
	case EH_ENC_VALUE8: return 1;
	case EH_ENC_VALUE16: return 2;
	case EH_ENC_VALUE32: return 4;
	case EH_ENC_VALUE64: return 8;
	case EH_ENC_VALUE128: return 16;
	default: return 0;
	}
}

/* Code unit of a string encoding. */
static size_t unit_size(unsigned encoding)
{
	switch (encoding & EH_ENC_VALUE_MASK) {
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR16:
		return 2;
	case EH_ENC_ZSTRING_CHAR32:
	case EH_ENC_STRING_LENGTH16_CHAR32:
		return 4;
	default:
		return 1;
	}
}

static int read_value(struct eh_cursor *c, struct eh_item *it)
{
	const uint8_t *p = c->payload;
	size_t avail = (size_t)(c->ev->payload_end - p);
	size_t size = fixed_size(it->encoding), unit = unit_size(it->encoding);

	switch (it->encoding & EH_ENC_VALUE_MASK) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
	case EH_ENC_VALUE128:
		if (avail < size)
			return EH_E_TRUNCATED;
		it->value = p;
		it->value_len = size;
		c->payload = p + size;
		return 1;
	case EH_ENC_ZSTRING_CHAR8:
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_ZSTRING_CHAR32:
		for (size_t i = 0; avail - i >= unit; i += unit) {
			size_t k = 0;

			while (k < unit && p[i + k] == 0)
				k++;
			if (k == unit) {
				it->value = p;
				it->value_len = i;
				c->payload = p + i + unit;
				return 1;
			}
		}
		return EH_E_TRUNCATED;
	default:	/* counted strings and binary: u16 count of units */
		if (avail < 2)
			return EH_E_TRUNCATED;
		size = le16(p) * unit;
		if (avail - 2 < size)
			return EH_E_TRUNCATED;
		it->value = p + 2;
		it->value_len = size;
		c->payload = p + 2 + size;
		return 1;
	}
}

static void frame_item(const struct eh_cursor_frame *f, enum eh_item_kind kind,
		       unsigned depth, struct eh_item *it)
{
	it->kind = kind;
	it->name = f->name;
	it->encoding = EH_ENC_STRUCT | (f->is_array ? EH_ENC_VARRAY : 0);
	it->tag = f->tag;
	it->array_count = f->count;
	it->depth = depth;
	it->is_element = f->is_element;
}

static int step(struct eh_cursor *c, struct eh_item *it)
{
	const uint8_t *meta_end = c->ev->meta_end;
	struct eh_cursor_frame *f;
	struct desc d;
	unsigned array;
	uint16_t count;
	int r;

	memset(it, 0, sizeof *it);
	if (c->in_array) {
		*it = c->array;
		if (c->array_left) {
			it->kind = EH_ITEM_VALUE;
			it->is_element = true;
			r = read_value(c, it);
			if (r > 0)
				c->array_left--;
			return r;
		}
		it->kind = EH_ITEM_ARRAY_END;
		c->in_array = false;
		return 1;
	}

	if (c->frames) {
		f = &c->stack[c->frames - 1];
		if (f->is_array) {
			if (f->left == 0) {
				c->meta = f->meta_after;
				c->frames--;
				frame_item(f, EH_ITEM_ARRAY_END, c->depth, it);
				return 1;
			}
			/* Next element: walk the member descriptors again. */
			f->left--;
			c->meta = f->meta_first;
			struct eh_cursor_frame *e = &c->stack[c->frames++];
			*e = *f;
			e->is_array = false;
			e->is_element = true;
			e->left = f->fields;
			frame_item(e, EH_ITEM_STRUCT_BEGIN, c->depth, it);
			c->depth++;
			return 1;
		}
		/* A struct ends after its members, or where the metadata does
		 * when it declared more members than remain. */
		if (f->left == 0 || c->meta == meta_end) {
			c->frames--;
			c->depth--;
			frame_item(f, EH_ITEM_STRUCT_END, c->depth, it);
			return 1;
		}
		f->left--;
	} else if (c->meta == meta_end) {
		return 0;
	}

	r = read_desc(&c->meta, meta_end, &d);
	if (r < 0)
		return r;
	it->name = d.name;
	it->encoding = d.encoding & (unsigned)~EH_ENC_CHAIN;
	it->format = d.format & EH_FMT_VALUE_MASK;
	it->tag = d.tag;
	it->depth = c->depth;
	array = d.encoding & EH_ENC_ARRAY_MASK;
	count = d.count;
	if (array == EH_ENC_VARRAY) {
		if (c->ev->payload_end - c->payload < 2)
			return EH_E_ARRAY;
		count = le16(c->payload);
		c->payload += 2;
	}
	it->array_count = count;

	if ((d.encoding & EH_ENC_VALUE_MASK) == EH_ENC_STRUCT) {
		if (c->depth >= EH_STRUCT_DEPTH_MAX)
			return EH_E_DEPTH;
		f = &c->stack[c->frames++];
		memset(f, 0, sizeof *f);
		f->name = d.name;
		f->tag = d.tag;
		f->fields = d.format & EH_FMT_VALUE_MASK;
		if (array) {
			f->is_array = true;
			f->count = f->left = count;
			f->meta_first = c->meta;
			f->meta_after = c->meta;
			r = skip_members(&f->meta_after, meta_end, f->fields);
			if (r < 0)
				return r;
			it->kind = EH_ITEM_ARRAY_BEGIN;
			return 1;
		}
		f->left = f->fields;
		it->kind = EH_ITEM_STRUCT_BEGIN;
		c->depth++;
		return 1;
	}

	if (array) {
		size_t size = fixed_size(d.encoding);

		if (size && (size_t)count * size > (size_t)(c->ev->payload_end - c->payload))
			return EH_E_ARRAY;
		c->array = *it;
		c->array_left = count;
		c->in_array = true;
		it->kind = EH_ITEM_ARRAY_BEGIN;
		return 1;
	}
	it->kind = EH_ITEM_VALUE;
	return read_value(c, it);
}

int eh_cursor_next(struct eh_cursor *c, struct eh_item *item)
{
	int r;

	if (c->err)
		return c->err;
	r = step(c, item);
	if (r < 0)
		c->err = r;
	return r;
}
