/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the decoder.  Input: a first byte 0xff means a
 * NUL-terminated tracepoint name follows, then the event bytes; any other
 * first byte is the level of the name "Fuzz_L<level>K5" (0 makes it an
 * invalid name) and the event follows.  Each event goes through
 * eh_decode_json and eh_decode_text with a small and a large buffer, each
 * buffer exactly sized on the heap so ASan sees any overrun.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader/eventheader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(const char *name, const uint8_t *ev, size_t len, size_t cap)
{
	char *out = malloc(cap);
	struct eh_record_info info = { .time_ns = 1, .has_time = true, .has_pid = true };
	long r;

	if (!out)
		abort();
	r = eh_decode_json(name, ev, len, &info, EH_DECODE_DEFAULT, out, cap);
	if (r >= 0 && strlen(out) != (size_t)r)
		abort();
	r = eh_decode_text(name, ev, len, &info, EH_DECODE_DEFAULT, out, cap);
	if (r >= 0 && strlen(out) != (size_t)r)
		abort();
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[EH_NAME_MAX + 1];
	const uint8_t *ev;
	uint8_t *copy;
	size_t len;

	if (size == 0)
		return 0;
	if (data[0] == 0xff) {
		const uint8_t *nul = memchr(data + 1, 0, size - 1);

		if (!nul || (size_t)(nul - data) > EH_NAME_MAX)
			return 0;
		memcpy(name, data + 1, (size_t)(nul - data));
		ev = nul + 1;
	} else {
		snprintf(name, sizeof name, "Fuzz_L%xK5", data[0]);
		ev = data + 1;
	}
	len = size - (size_t)(ev - data);
	copy = malloc(len ? len : 1);	/* exact size: overreads are caught */
	if (!copy)
		abort();
	memcpy(copy, ev, len);
	run(name, copy, len, 16);
	run(name, copy, len, 1 << 16);
	free(copy);
	return 0;
}
