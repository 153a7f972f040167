/* SPDX-License-Identifier: MIT */
/*
 * The zstd stream of a perf.data recorded with `perf record -z`: perf
 * compresses its ring-buffer reads as one stream, cut into
 * PERF_RECORD_COMPRESSED records.  Feeding every record's payload, in
 * file order, to one perf_unzip rebuilds the plain records, which may
 * straddle the compressed records' boundaries.
 */
#ifndef EHSYSLOG_CLI_PERF_UNZIP_H
#define EHSYSLOG_CLI_PERF_UNZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_unzip {
	void *dctx;	/* ZSTD_DCtx, made on the first feed */
	uint8_t *out;	/* everything decompressed so far */
	size_t len, cap;
	size_t limit;	/* out never grows past this (0: no limit) */
	bool broken;	/* a feed failed: the rest of the stream is lost */
};

/* Appends the decompressed form of in[0..n) to z->out.  Returns 0, or -1
 * if the stream is corrupt, its output would pass z->limit, or memory
 * ran out: z->broken is then set and
 * later feeds fail at once (what came out before stays in z->out). */
int perf_unzip_feed(struct perf_unzip *z, const void *in, size_t n);
void perf_unzip_free(struct perf_unzip *z);

/* The most a file of len bytes may decompress to, in all: 256 times its
 * size plus 64 MiB.  Recordings compress 3 to 10 times; a crafted zstd
 * stream could expand a thousandfold (RLE blocks) and exhaust memory. */
size_t perf_unzip_limit(size_t len);

#endif
