/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdbool.h>

#include "traceevent/base64.h"

static int value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

long base64_decode(const char *text, size_t len, uint8_t *out)
{
	long n = 0;

	if (len % 4 != 0)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		bool last = i + 4 == len;
		int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
		uint32_t group = 0;

		for (int k = 0; k < 4 - pad; k++) {
			int v = value(text[i + k]);

			if (v < 0)
				return -1;
			group = group << 6 | (uint32_t)v;
		}
		group <<= 6 * pad;
		out[n++] = (uint8_t)(group >> 16);
		if (pad < 2)
			out[n++] = (uint8_t)(group >> 8);
		if (pad < 1)
			out[n++] = (uint8_t)group;
	}
	return n;
}
