/* SPDX-License-Identifier: MIT */
/*
 * Field values, little-endian and unpadded, in metadata order.  Invalid
 * arguments are recorded in the buffer like a lack of space: a payload
 * missing one value is unusable, and the caller checks p->err once.
 */
#include <string.h>

#include "buf.h"

#define COUNTED_MAX 0xffffu	/* u16 length prefix of counted strings */

/* One value of size bytes (1, 2, 4 or 8), least significant byte first. */
static int put_value(struct eh_buf *p, uint64_t v, size_t size)
{
	uint8_t *d;
	size_t i;

	if (!p)
		return EH_E_INVAL;
	if (!(d = eh_buf_reserve(p, size)))
		return p->err;
	for (i = 0; i < size; i++)
		d[i] = (uint8_t)(v >> (8 * i));
	return EH_OK;
}

EH_API int eh_payload_u8(struct eh_buf *p, uint8_t v)
{
	return put_value(p, v, 1);
}

EH_API int eh_payload_u16(struct eh_buf *p, uint16_t v)
{
	return put_value(p, v, 2);
}

EH_API int eh_payload_u32(struct eh_buf *p, uint32_t v)
{
	return put_value(p, v, 4);
}

EH_API int eh_payload_u64(struct eh_buf *p, uint64_t v)
{
	return put_value(p, v, 8);
}

/* 128-bit values (UUIDs, IPv6 addresses) are byte strings already. */
EH_API int eh_payload_u128(struct eh_buf *p, const uint8_t v[16])
{
	if (!p)
		return EH_E_INVAL;
	if (!v)
		return eh_buf_fail(p, EH_E_INVAL);
	return eh_buf_append(p, v, 16);
}

EH_API int eh_payload_count(struct eh_buf *p, uint16_t count)
{
	return eh_payload_u16(p, count);
}

/* n code units of size unit from s, each stored little-endian. */
static int put_units(struct eh_buf *p, const void *s, size_t n, size_t unit)
{
	uint8_t *d;
	size_t i;

	if (n > (SIZE_MAX >> 2))
		return eh_buf_fail(p, EH_E_NOSPACE);
	if (!(d = eh_buf_reserve(p, n * unit)))
		return p->err;
	if (unit == 1) {
		if (n)
			memcpy(d, s, n);
		return EH_OK;
	}
	for (i = 0; i < n; i++, d += unit) {
		if (unit == 2)
			put_le16(d, ((const uint16_t *)s)[i]);
		else
			put_le32(d, ((const uint32_t *)s)[i]);
	}
	return EH_OK;
}

/* The u16 length in code units, then the units. */
static int put_counted(struct eh_buf *p, const void *s, size_t len, size_t unit)
{
	int err;

	if (!p)
		return EH_E_INVAL;
	if (len > COUNTED_MAX || (!s && len))
		return eh_buf_fail(p, EH_E_INVAL);
	if ((err = eh_payload_u16(p, (uint16_t)len)))
		return err;
	return put_units(p, s, len, unit);
}

EH_API int eh_payload_zstr8(struct eh_buf *p, const char *s)
{
	if (!p)
		return EH_E_INVAL;
	if (!s)
		return eh_buf_fail(p, EH_E_INVAL);
	return eh_buf_append(p, s, strlen(s) + 1);
}

EH_API int eh_payload_zstr16(struct eh_buf *p, const uint16_t *s)
{
	size_t n = 0;

	if (!p)
		return EH_E_INVAL;
	if (!s)
		return eh_buf_fail(p, EH_E_INVAL);
	while (s[n])
		n++;
	return put_units(p, s, n + 1, 2);
}

EH_API int eh_payload_zstr32(struct eh_buf *p, const uint32_t *s)
{
	size_t n = 0;

	if (!p)
		return EH_E_INVAL;
	if (!s)
		return eh_buf_fail(p, EH_E_INVAL);
	while (s[n])
		n++;
	return put_units(p, s, n + 1, 4);
}

EH_API int eh_payload_str8(struct eh_buf *p, const char *s, size_t len)
{
	return put_counted(p, s, len, 1);
}

EH_API int eh_payload_str16(struct eh_buf *p, const uint16_t *s, size_t len)
{
	return put_counted(p, s, len, 2);
}

EH_API int eh_payload_str32(struct eh_buf *p, const uint32_t *s, size_t len)
{
	return put_counted(p, s, len, 4);
}

EH_API int eh_payload_binary(struct eh_buf *p, const void *data, size_t len)
{
	return put_counted(p, data, len, 1);
}
