/* SPDX-License-Identifier: MIT */
/* EHSYSLOG_STDIO's words (<ehsyslog/settings.h>), for the library and the
 * tool's run --stdio alike. */
#include "config.h"

#include <string.h>

#include <ehsyslog/settings.h>

int ehs_stdio_streams(const char *value, unsigned *bits)
{
	static const struct {
		const char *word;
		unsigned bits;
	} words[] = {
		{ "stdout", 1U << 1 },
		{ "stderr", 1U << 2 },
		{ "both", 1U << 1 | 1U << 2 },
	};
	unsigned all = 0;
	for (const char *v = value; *v;) {
		size_t n = strcspn(v, ","), i;
		for (i = 0; i < sizeof words / sizeof words[0]; i++)
			if (strlen(words[i].word) == n && !memcmp(v, words[i].word, n))
				break;
		if (i == sizeof words / sizeof words[0])
			return -1;
		all |= words[i].bits;
		v += n;
		if (*v == ',' && !*++v)
			return -1;	/* a trailing comma: an empty word */
	}
	*bits = all;
	return 0;
}
