/* SPDX-License-Identifier: MIT */
/* The bounded buffer every part of an event is built in. */
#include <string.h>

#include "buf.h"

EH_API void eh_buf_init(struct eh_buf *b, void *data, size_t cap)
{
	if (!b)
		return;
	b->data = data;
	b->len = 0;
	b->cap = data ? cap : 0;
	/* A NULL buffer with a capacity is a caller bug, not an empty buffer. */
	b->err = (!data && cap) ? EH_E_INVAL : EH_OK;
}

int eh_buf_fail(struct eh_buf *b, int err)
{
	if (b->err == EH_OK)
		b->err = err;
	return b->err;
}

uint8_t *eh_buf_reserve(struct eh_buf *b, size_t n)
{
	uint8_t *p;

	if (b->err)
		return NULL;
	if (n > b->cap - b->len) {
		eh_buf_fail(b, EH_E_NOSPACE);
		return NULL;
	}
	p = b->data + b->len;
	b->len += n;
	return p;
}

EH_API int eh_buf_append(struct eh_buf *b, const void *p, size_t n)
{
	uint8_t *dst;

	if (!b)
		return EH_E_INVAL;
	if (!p && n)
		return eh_buf_fail(b, EH_E_INVAL);
	dst = eh_buf_reserve(b, n);
	if (!dst)
		return b->err;
	if (n)
		memcpy(dst, p, n);
	return EH_OK;
}
