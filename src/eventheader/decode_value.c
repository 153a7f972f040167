/* SPDX-License-Identifier: MIT */
/*
 * Decoder values: one field value to text, by encoding and format, with
 * the choices of Microsoft's perf-decode.  A format applies only to the
 * sizes it is defined for (errno: 4 bytes, float: 4 or 8, ...); other
 * values print as their encoding's default, and a variable-size value of
 * 0 bytes with a numeric format prints null.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <arpa/inet.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader/decode.h"

static uint64_t le_uint(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static int64_t le_int(const uint8_t *p, size_t n)
{
	uint64_t v = le_uint(p, n);

	if (n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * n);	/* sign-extend */
	return (int64_t)v;
}

const char *eh_errno_name(int32_t err)
{
	if (err <= 0)
		return NULL;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
	return strerrorname_np(err);
#else
	return NULL;	/* without glibc 2.32's table: "ERRNO(n)" */
#endif
}

static void put_hex_bytes(struct eh_out *o, const uint8_t *p, size_t n)
{
	if (o->json)
		eh_out_char(o, '"');
	for (size_t i = 0; i < n && !o->full; i++)
		eh_out_printf(o, i ? " %02x" : "%02x", p[i]);
	if (o->json)
		eh_out_char(o, '"');
}

/* Shortest text that reads back as the same value, as C++'s to_chars;
 * infinities and NaN (not JSON numbers) as printf words. */
static void put_float(struct eh_out *o, const uint8_t *p, size_t n)
{
	char tmp[40];
	double d;

	if (n == 4) {
		float f;
		uint32_t bits = (uint32_t)le_uint(p, 4);

		memcpy(&f, &bits, 4);
		d = f;
		if (isfinite(f)) {
			for (int prec = 1; prec <= 9; prec++) {
				snprintf(tmp, sizeof tmp, "%.*g", prec, d);
				if (strtof(tmp, NULL) == f)
					break;
			}
			eh_out_str(o, tmp);
			return;
		}
	} else {
		uint64_t bits = le_uint(p, 8);

		memcpy(&d, &bits, 8);
		if (isfinite(d)) {
			for (int prec = 1; prec <= 17; prec++) {
				snprintf(tmp, sizeof tmp, "%.*g", prec, d);
				if (strtod(tmp, NULL) == d)
					break;
			}
			eh_out_str(o, tmp);
			return;
		}
	}
	snprintf(tmp, sizeof tmp, "%g", d);
	eh_out_word(o, tmp);
}

static void put_time(struct eh_out *o, int64_t t)
{
	char tmp[32];

	if (o->json)
		eh_out_char(o, '"');
	if (!eh_out_time(o, t, false, 0)) {
		snprintf(tmp, sizeof tmp, "TIME(%" PRId64 ")", t);
		eh_out_str(o, tmp);
	}
	if (o->json)
		eh_out_char(o, '"');
}

static void put_ip(struct eh_out *o, const uint8_t *p, size_t n)
{
	char tmp[INET6_ADDRSTRLEN];

	if (n == 4)
		snprintf(tmp, sizeof tmp, "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
	else if (!inet_ntop(AF_INET6, p, tmp, sizeof tmp))
		tmp[0] = '\0';
	eh_out_word(o, tmp);
}

/*
 * The formats that read a fixed-size number or address.  Returns false
 * when fmt is not one of them or n is not a size it is defined for.
 */
static bool put_fixed(struct eh_out *o, unsigned fmt, const uint8_t *p, size_t n)
{
	bool int_size = n == 1 || n == 2 || n == 4 || n == 8;
	char tmp[40];

	switch (fmt) {
	case EH_FMT_UNSIGNED_INT:
		if (!int_size)
			return false;
		eh_out_printf(o, "%" PRIu64, le_uint(p, n));
		return true;
	case EH_FMT_SIGNED_INT:
		if (!int_size)
			return false;
		eh_out_printf(o, "%" PRId64, le_int(p, n));
		return true;
	case EH_FMT_HEX_INT:
		if (!int_size)
			return false;
		snprintf(tmp, sizeof tmp, "0x%" PRIX64, le_uint(p, n));
		eh_out_word(o, tmp);
		return true;
	case EH_FMT_ERRNO:
		if (n != 4)
			return false;
		{
			int32_t e = (int32_t)le_int(p, 4);
			const char *name = eh_errno_name(e);

			if (name)
				snprintf(tmp, sizeof tmp, "%s(%" PRId32 ")", name, e);
			else
				snprintf(tmp, sizeof tmp, "ERRNO(%" PRId32 ")", e);
			eh_out_word(o, tmp);
		}
		return true;
	case EH_FMT_PID:
		if (n != 4)
			return false;
		eh_out_printf(o, "%" PRId64, le_int(p, 4));
		return true;
	case EH_FMT_TIME:
		if (n != 4 && n != 8)
			return false;
		put_time(o, le_int(p, n));
		return true;
	case EH_FMT_BOOLEAN:
		if (n != 1 && n != 2 && n != 4)
			return false;
		{
			uint64_t v = le_uint(p, n);

			if (v <= 1)
				eh_out_str(o, v ? "true" : "false");
			else if (n == 4)
				eh_out_printf(o, "%" PRId64, le_int(p, n));
			else
				eh_out_printf(o, "%" PRIu64, v);
		}
		return true;
	case EH_FMT_FLOAT:
		if (n != 4 && n != 8)
			return false;
		put_float(o, p, n);
		return true;
	case EH_FMT_UUID:
		if (n != 16)
			return false;
		if (o->json)
			eh_out_char(o, '"');
		eh_out_uuid(o, p);
		if (o->json)
			eh_out_char(o, '"');
		return true;
	case EH_FMT_PORT:
		if (n != 2)
			return false;
		eh_out_printf(o, "%u", (unsigned)(p[0] << 8 | p[1]));
		return true;
	case EH_FMT_IP_ADDRESS:
	case EH_FMT_IPV6_OBSOLETE:
		if (n != 4 && n != 16)
			return false;
		put_ip(o, p, n);
		return true;
	default:
		return false;
	}
}

static bool is_string_format(unsigned fmt)
{
	return fmt >= EH_FMT_STRING8 && fmt <= EH_FMT_STRING_JSON;
}

static bool has_bom_format(unsigned fmt)
{
	return fmt == EH_FMT_STRING_UTF_BOM || fmt == EH_FMT_STRING_XML ||
	       fmt == EH_FMT_STRING_JSON;
}

static void put_latin1(struct eh_out *o, const uint8_t *p, size_t n)
{
	eh_out_char(o, '"');
	for (size_t i = 0; i < n && !o->full; i++)
		eh_out_codepoint(o, p[i]);
	eh_out_char(o, '"');
}

/* UTF-16 or UTF-32 text of n bytes, little-endian unless big. */
static void put_wide(struct eh_out *o, const uint8_t *p, size_t n, size_t unit, bool big)
{
	eh_out_char(o, '"');
	for (size_t i = 0; i + unit <= n && !o->full; i += unit) {
		uint32_t cp = 0;

		for (size_t k = 0; k < unit; k++)
			cp |= (uint32_t)p[i + (big ? unit - 1 - k : k)] << (8 * k);
		if (unit == 2 && cp >= 0xd800 && cp <= 0xdbff && i + 4 <= n) {
			uint32_t lo = big ? (uint32_t)(p[i + 2] << 8 | p[i + 3]) :
					    (uint32_t)(p[i + 3] << 8 | p[i + 2]);

			if (lo >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				i += 2;
			}
		}
		eh_out_codepoint(o, cp);	/* lone surrogates become U+FFFD */
	}
	eh_out_char(o, '"');
}

/* Text of the string encodings; a byte order mark is honoured and
 * dropped for the formats that allow one. */
static void put_text(struct eh_out *o, unsigned fmt, const uint8_t *p, size_t n, size_t unit)
{
	bool big = false;

	if (fmt == EH_FMT_STRING8 && unit == 1) {
		put_latin1(o, p, n);
		return;
	}
	if (has_bom_format(fmt)) {
		if (unit == 1 && n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
			p += 3;
			n -= 3;
		} else if (unit == 2 && n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) ||
						   (p[0] == 0xfe && p[1] == 0xff))) {
			big = p[0] == 0xfe;
			p += 2;
			n -= 2;
		} else if (unit == 4 && n >= 4 &&
			   ((p[0] == 0xff && p[1] == 0xfe && !p[2] && !p[3]) ||
			    (!p[0] && !p[1] && p[2] == 0xfe && p[3] == 0xff))) {
			big = p[0] == 0;
			p += 4;
			n -= 4;
		}
	}
	if (unit == 1)
		eh_out_quoted(o, p, n);
	else
		put_wide(o, p, n, unit, big);
}

void eh_out_value(struct eh_out *o, const struct eh_item *it)
{
	unsigned enc = it->encoding & EH_ENC_VALUE_MASK, fmt = it->format;
	const uint8_t *p = it->value;
	size_t n = it->value_len;

	switch (enc) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
	case EH_ENC_VALUE128:
		if (put_fixed(o, fmt, p, n))
			return;
		if (fmt == EH_FMT_HEX_BYTES || enc == EH_ENC_VALUE128) {
			put_hex_bytes(o, p, n);
		} else if (fmt == EH_FMT_STRING8 && n == 1) {
			put_latin1(o, p, n);
		} else if (is_string_format(fmt) && n <= 4) {
			/* One character: a UTF-8 byte, UTF-16 or UTF-32 unit. */
			if (n == 1)
				eh_out_quoted(o, p, n);
			else
				put_wide(o, p, n, n, false);
		} else {
			eh_out_printf(o, "%" PRIu64, le_uint(p, n));
		}
		return;
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_ZSTRING_CHAR32:
	case EH_ENC_STRING_LENGTH16_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR32:
		if (fmt == EH_FMT_HEX_BYTES)
			put_hex_bytes(o, p, n);
		else
			put_text(o, fmt, p, n,
				 enc == EH_ENC_ZSTRING_CHAR16 ||
				 enc == EH_ENC_STRING_LENGTH16_CHAR16 ? 2 : 4);
		return;
	default:	/* 8-bit strings and binary: any number of bytes */
		if (put_fixed(o, fmt, p, n))
			return;
		if (fmt == EH_FMT_HEX_BYTES)
			put_hex_bytes(o, p, n);
		else if (is_string_format(fmt))
			put_text(o, fmt, p, n, 1);
		else if (n == 0 && fmt != EH_FMT_DEFAULT && fmt <= EH_FMT_IPV6_OBSOLETE)
			eh_out_str(o, "null");	/* a number format with no bytes */
		else if (enc == EH_ENC_BINARY_LENGTH16_CHAR8)
			put_hex_bytes(o, p, n);
		else
			put_text(o, EH_FMT_STRING_UTF, p, n, 1);
		return;
	}
}
