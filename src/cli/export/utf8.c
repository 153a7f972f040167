/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/export/utf8.h"

size_t utf8_bad_len(const uint8_t *s, size_t n)
{
	uint8_t c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, k;

	/* The second byte's range rules out overlong forms, surrogates and
	 * values past U+10FFFF: the Standard's table 3-7. */
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 1;
	}
	for (k = 1; k < len && k < n && s[k] >= lo && s[k] <= hi; k++)
		lo = 0x80, hi = 0xbf;
	return k;
}
