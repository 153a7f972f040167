/* SPDX-License-Identifier: MIT */
/* Decompression of perf.data's PERF_RECORD_COMPRESSED payloads (zstd). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "cli/decode/perf_unzip.h"

/* Output grows by at least this much: the payloads are at most 64 KiB
 * each and compress perf records about 3 to 10 times. */
#define GROW_MIN (256 * 1024)

static int grow(struct perf_unzip *z)
{
	size_t cap = z->cap < GROW_MIN ? GROW_MIN : z->cap * 2;
	uint8_t *p;

	/* One byte past the limit, to see output that would pass it. */
	if (z->limit != 0 && z->limit < SIZE_MAX && cap > z->limit + 1)
		cap = z->limit + 1;
	if (cap <= z->cap)
		return -1;
	p = realloc(z->out, cap);
	if (p == NULL)
		return -1;
	z->out = p;
	z->cap = cap;
	return 0;
}

int perf_unzip_feed(struct perf_unzip *z, const void *in, size_t n)
{
	ZSTD_inBuffer src = { in, n, 0 };

	if (z->broken)
		return -1;
	if (z->dctx == NULL && (z->dctx = ZSTD_createDCtx()) == NULL) {
		z->broken = true;
		return -1;
	}
	/* Until the input is used up and zstd has nothing more to give: a
	 * full output buffer may hide output still held inside zstd. */
	for (;;) {
		ZSTD_outBuffer dst;
		size_t rc;

		if (z->len == z->cap && grow(z) < 0) {
			z->broken = true;
			return -1;
		}
		dst = (ZSTD_outBuffer){ z->out, z->cap, z->len };
		rc = ZSTD_decompressStream(z->dctx, &dst, &src);
		z->len = dst.pos;
		if (z->limit != 0 && z->len > z->limit) {
			z->len = z->limit;
			z->broken = true;
			return -1;
		}
		if (ZSTD_isError(rc)) {
			z->broken = true;
			return -1;
		}
		if (src.pos == src.size && dst.pos < dst.size)
			return 0;
	}
}

void perf_unzip_free(struct perf_unzip *z)
{
	ZSTD_freeDCtx(z->dctx);
	free(z->out);
	memset(z, 0, sizeof *z);
}

size_t perf_unzip_limit(size_t len)
{
	const size_t ratio = 256, slack = (size_t)64 << 20;

	return len > (SIZE_MAX - slack) / ratio ? SIZE_MAX : len * ratio + slack;
}
