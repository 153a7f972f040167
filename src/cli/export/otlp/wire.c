/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/export/otlp/wire.h"

enum { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2 };

size_t wire_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint64_t tag(unsigned field, unsigned type)
{
	return (uint64_t)field << 3 | type;
}

size_t wire_len_varint(unsigned field, uint64_t v)
{
	return wire_varint_size(tag(field, WIRE_VARINT)) + wire_varint_size(v);
}

size_t wire_len_delimited(unsigned field, size_t n)
{
	return wire_varint_size(tag(field, WIRE_LEN)) + wire_varint_size(n) + n;
}

/* room's rare part: the buffer grown to hold n more bytes. */
static uint8_t *grow(struct wire *w, size_t n)
{
	size_t cap = w->cap ? w->cap : 256;
	uint8_t *b;

	if (w->nomem)
		return NULL;
	while (cap - w->len < n) {
		if (cap > SIZE_MAX / 2) {
			w->nomem = true;
			return NULL;
		}
		cap *= 2;
	}
	b = realloc(w->buf, cap);
	if (b == NULL) {
		w->nomem = true;
		return NULL;
	}
	w->buf = b;
	w->cap = cap;
	return w->buf + w->len;
}

/* Room for n more bytes, or NULL (nomem set).  After a failure cap is
 * left as it was, so grow is asked again and says no. */
static inline uint8_t *room(struct wire *w, size_t n)
{
	if (!w->nomem && n <= w->cap - w->len)
		return w->buf + w->len;
	return grow(w, n);
}

static void put_varint(struct wire *w, uint64_t v)
{
	uint8_t *p = room(w, 10);

	if (p == NULL)
		return;
	for (; v >= 0x80; v >>= 7)
		*p++ = (uint8_t)(v | 0x80);
	*p++ = (uint8_t)v;
	w->len = (size_t)(p - w->buf);
}

void wire_varint(struct wire *w, unsigned field, uint64_t v)
{
	put_varint(w, tag(field, WIRE_VARINT));
	put_varint(w, v);
}

void wire_fixed64(struct wire *w, unsigned field, uint64_t v)
{
	uint8_t *p;

	put_varint(w, tag(field, WIRE_I64));
	p = room(w, 8);
	if (p == NULL)
		return;
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);	/* little-endian on any host */
	w->len += 8;
}

void wire_header(struct wire *w, unsigned field, size_t n)
{
	put_varint(w, tag(field, WIRE_LEN));
	put_varint(w, n);
}

void wire_delimited(struct wire *w, unsigned field, const void *p, size_t n)
{
	uint8_t *d;

	wire_header(w, field, n);
	d = room(w, n);
	if (d == NULL || n == 0)
		return;
	memcpy(d, p, n);
	w->len += n;
}
