/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>

#include "cli/export/batch.h"
#include "cli/export/gzip.h"

/* The body of the n oldest records, encoded and compressed. */
static int encode(const struct queue *q, size_t n, const struct batch_format *f, uint8_t **body,
		  size_t *len)
{
	uint8_t *plain;
	size_t plain_len;
	int rc;

	if (request_pack(q, n, f->encoding, &plain, &plain_len) < 0)
		return -1;
	if (!f->gzip) {
		*body = plain;
		*len = plain_len;
		return 0;
	}
	rc = gzip_compress(plain, plain_len, body, len);
	free(plain);
	return rc;
}

int batch_encode(const struct queue *q, size_t n, const struct batch_format *f, uint8_t **body,
		 size_t *len, size_t *taken)
{
	for (;;) {
		size_t fewer;

		*taken = n;
		if (encode(q, n, f, body, len) < 0)
			return -1;
		if (f->max_bytes == 0 || *len <= f->max_bytes)
			return 0;
		free(*body);
		*body = NULL;
		if (n == 1)
			return BATCH_TOO_BIG;
		/* Records are alike enough for the share that fits to be a
		 * good guess; strictly fewer each time, so this ends. */
		fewer = (size_t)((double)n * (double)f->max_bytes / (double)*len);
		n = fewer < 1 ? 1 : fewer < n ? fewer : n - 1;
	}
}
