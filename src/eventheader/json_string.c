/* SPDX-License-Identifier: MIT */
/*
 * The one rule for text inside a JSON string, for the decoder's JSON and
 * for everything else that writes JSON (the ehsyslog tool's OTLP export):
 * eh_json_string in eventheader.h says it.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "eventheader/decode.h"

size_t eh_json_escape(uint32_t cp, char out[6])
{
	static const char hex[] = "0123456789abcdef";
	char c;

	switch (cp) {
	case '"': c = '"'; break;
	case '\\': c = '\\'; break;
	case '\b': c = 'b'; break;
	case '\f': c = 'f'; break;
	case '\n': c = 'n'; break;
	case '\r': c = 'r'; break;
	case '\t': c = 't'; break;
	default:
		/* Controls, C0 and C1, and the two separators JavaScript
		 * once took for line ends. */
		if (cp >= 0x20 && (cp < 0x7f || cp >= 0xa0) && cp != 0x2028 && cp != 0x2029)
			return 0;
		memcpy(out, "\\u", 2);
		for (int i = 0; i < 4; i++)
			out[2 + i] = hex[cp >> (12 - 4 * i) & 0xf];
		return 6;
	}
	out[0] = '\\';
	out[1] = c;
	return 2;
}

EH_API size_t eh_json_string(char *out, size_t cap, const void *text, size_t n)
{
	const uint8_t *s = text;
	size_t len = 0;

	for (size_t i = 0, k; i < n; i += k) {
		char put[6];
		size_t put_len;
		uint32_t cp;

		k = eh_utf8_decode(s + i, n - i, &cp);
		if (k == 0) {
			/* Not UTF-8: the byte as its Latin-1 character, as
			 * perf-decode shows it. */
			k = 1;
			cp = s[i];
		}
		if ((put_len = eh_json_escape(cp, put)) == 0) {
			if (cp >= 0x80 && k == 1) {
				put[0] = (char)(0xc0 | cp >> 6);
				put[1] = (char)(0x80 | (cp & 0x3f));
				put_len = 2;
			} else {
				memcpy(put, s + i, k);
				put_len = k;
			}
		}
		if (len < cap)
			memcpy(out + len, put, put_len <= cap - len ? put_len : cap - len);
		len += put_len;
	}
	return len;
}
