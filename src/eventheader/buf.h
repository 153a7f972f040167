/* SPDX-License-Identifier: MIT */
/*
 * Private helpers of the builder: little-endian stores and the two ways a
 * write into an eh_buf can go wrong.  Stores are written byte by byte, or
 * as one store where the host is little-endian, so the wire bytes never
 * depend on the host's struct layout or byte order.
 */
#ifndef EVENTHEADER_BUF_H
#define EVENTHEADER_BUF_H

#include <stdint.h>
#include <string.h>

#include "eventheader/eventheader.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The host's order is the wire's: one store each (compilers do not
 * always merge the byte stores below into one). */
static inline void eh_put_le16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline void eh_put_le32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof v);
}
#else
static inline void eh_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void eh_put_le32(uint8_t *p, uint32_t v)
{
	eh_put_le16(p, (uint16_t)v);
	eh_put_le16(p + 2, (uint16_t)(v >> 16));
}
#endif

static inline void eh_put_le64(uint8_t *p, uint64_t v)
{
	eh_put_le32(p, (uint32_t)v);
	eh_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* Records err unless an earlier error is already there (the first one is
 * what the caller gets at the end); returns the recorded error. */
int eh_buf_fail(struct eh_buf *b, int err);

/* n bytes at the end of b, counted as written, or NULL (error recorded). */
uint8_t *eh_buf_reserve(struct eh_buf *b, size_t n);

#endif
