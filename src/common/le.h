/* SPDX-License-Identifier: MIT */
/*
 * Little-endian stores, shared by the layers that write EventHeader
 * bytes (the builder, the bridge's preformatted events).  Each value is
 * stored byte by byte, or as one store where the host is little-endian,
 * so the wire bytes never depend on the host's byte order.
 */
#ifndef COMMON_LE_H
#define COMMON_LE_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The host's order is the wire's: one store each (compilers do not
 * always merge the byte stores below into one). */
static inline void put_le16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof v);
}
#else
static inline void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}
#endif

static inline void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
