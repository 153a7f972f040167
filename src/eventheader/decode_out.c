/* SPDX-License-Identifier: MIT */
/*
 * Decoder output: a bounded buffer and the escaping of string content for
 * the one-line text form; JSON's is json_string.c's.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eventheader/decode.h"

void eh_out_init(struct eh_out *o, char *buf, size_t cap, bool json)
{
	o->buf = buf;
	o->cap = cap;
	o->len = 0;
	o->full = cap == 0;
	o->json = json;
	if (cap)
		buf[0] = '\0';
}

long eh_out_finish(struct eh_out *o)
{
	if (o->full) {
		if (o->cap)
			o->buf[0] = '\0';
		return EH_E_NOSPACE;
	}
	o->buf[o->len] = '\0';
	return (long)o->len;
}

void eh_out_mem(struct eh_out *o, const void *p, size_t n)
{
	if (o->full)
		return;
	if (n >= o->cap - o->len) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void eh_out_str(struct eh_out *o, const char *s)
{
	eh_out_mem(o, s, strlen(s));
}

void eh_out_char(struct eh_out *o, char ch)
{
	eh_out_mem(o, &ch, 1);
}

void eh_out_printf(struct eh_out *o, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	/* Every caller formats numbers: 64 bytes always hold them. */
	if (n < 0 || (size_t)n >= sizeof tmp)
		o->full = true;
	else
		eh_out_mem(o, tmp, (size_t)n);
}

void eh_out_word(struct eh_out *o, const char *s)
{
	if (o->json)
		eh_out_char(o, '"');
	eh_out_str(o, s);
	if (o->json)
		eh_out_char(o, '"');
}

static void put_utf8(struct eh_out *o, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	eh_out_mem(o, b, n);
}

void eh_out_codepoint(struct eh_out *o, uint32_t cp)
{
	char esc[6];
	size_t n;

	/* Surrogates and values past Unicode have no UTF-8 form. */
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		cp = 0xfffd;
	if (o->json) {
		if ((n = eh_json_escape(cp, esc)) != 0)
			eh_out_mem(o, esc, n);
		else
			put_utf8(o, cp);
		return;
	}
	switch (cp) {
	case '"': eh_out_str(o, "\\\""); return;
	case '\\': eh_out_str(o, "\\\\"); return;
	case '\n': eh_out_str(o, "\\n"); return;
	case '\r': eh_out_str(o, "\\r"); return;
	case '\t': eh_out_str(o, "\\t"); return;
	default: break;
	}
	if (cp < 0x20 || cp == 0x7f) {
		eh_out_printf(o, "\\x%02x", (unsigned)cp);
		return;
	} else if (cp >= 0x80 && cp < 0xa0) {
		/* C1 controls: some terminals act on them. */
		eh_out_printf(o, "\\u%04x", (unsigned)cp);
		return;
	}
	put_utf8(o, cp);
}

EH_API size_t eh_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp)
{
	uint8_t b = s[0];
	size_t len;
	uint32_t v, min;

	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xc2 && b <= 0xdf) {
		len = 2; v = b & 0x1f; min = 0x80;
	} else if (b >= 0xe0 && b <= 0xef) {
		len = 3; v = b & 0x0f; min = 0x800;
	} else if (b >= 0xf0 && b <= 0xf4) {
		len = 4; v = b & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

void eh_out_utf8(struct eh_out *o, const uint8_t *s, size_t n)
{
	size_t i = 0;

	if (o->json) {
		size_t room = o->cap - o->len, k;

		if (o->full)
			return;
		k = eh_json_string(o->buf + o->len, room, s, n);
		/* As eh_out_mem: the NUL's byte stays free. */
		if (k >= room)
			o->full = true;
		else
			o->len += k;
		return;
	}
	while (i < n && !o->full) {
		uint32_t cp;
		size_t k = eh_utf8_decode(s + i, n - i, &cp);

		if (k) {
			eh_out_codepoint(o, cp);
			i += k;
		} else {
			eh_out_printf(o, "\\x%02x", s[i++]);
		}
	}
}

void eh_out_quoted(struct eh_out *o, const uint8_t *s, size_t n)
{
	eh_out_char(o, '"');
	eh_out_utf8(o, s, n);
	eh_out_char(o, '"');
}

void eh_out_uuid(struct eh_out *o, const uint8_t u[16])
{
	eh_out_printf(o, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-",
		      u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9]);
	eh_out_printf(o, "%02x%02x%02x%02x%02x%02x",
		      u[10], u[11], u[12], u[13], u[14], u[15]);
}

bool eh_out_time(struct eh_out *o, int64_t seconds, bool with_ns, uint32_t ns)
{
	/* Days to civil date (proleptic Gregorian), H. Hinnant's method. */
	int64_t days = seconds / 86400, rem = seconds % 86400;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	int64_t z = days + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int64_t day = doy - (153 * mp + 2) / 5 + 1;
	int64_t month = mp < 10 ? mp + 3 : mp - 9;
	int64_t year = yoe + era * 400 + (month <= 2);

	/* The range of gmtime's int tm_year, as perf-decode has it. */
	if (year - 1900 > INT32_MAX || year - 1900 < INT32_MIN)
		return false;
	eh_out_printf(o, "%04lld-%02d-%02dT%02d:%02d:%02d", (long long)year,
		      (int)month, (int)day, (int)(rem / 3600),
		      (int)(rem / 60 % 60), (int)(rem % 60));
	if (with_ns)
		eh_out_printf(o, ".%09uZ", (unsigned)ns);
	return true;
}
