/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <limits.h>
#include <stdlib.h>

#include <zlib.h>

#include "cli/export/gzip.h"

int gzip_compress(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len)
{
	z_stream z = { 0 };
	uLong bound;
	int rc;

	*out = NULL;
	if (len > UINT_MAX)	/* one deflate call takes an unsigned length */
		return -1;
	/* 15 + 16: the largest window, in a gzip wrapper rather than zlib's. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	bound = deflateBound(&z, (uLong)len);
	*out = malloc(bound);
	if (*out == NULL || bound > UINT_MAX) {
		deflateEnd(&z);
		free(*out);
		*out = NULL;
		return -1;
	}
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = *out;
	z.avail_out = (uInt)bound;
	/* The bound holds all of it: one call finishes the stream. */
	rc = deflate(&z, Z_FINISH);
	*out_len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
