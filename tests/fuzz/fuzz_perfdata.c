/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for decode's perf.data reader (cli/decode/perf_data.c)
 * and the zstd stream of `perf record -z` files (perf_unzip.c): the
 * input as the whole file image, in a buffer of exactly its size, as
 * decode maps it.  Every byte an event or a loss marker hands on is
 * read (read_touch.h).
 */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/decode/perf_data.h"
#include "read_touch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int touch_lost(const struct read_lost *lost, void *ctx)
{
	(void)ctx;
	read_touch_sink = (unsigned)lost->count + (unsigned)lost->cpu;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_data_info info;
	char err[512] = "";

	(void)perf_data_read(data, size, &info, read_touch, touch_lost, NULL, err, sizeof err);
	read_touch_sink = (unsigned)strlen(info.host) + (unsigned)strlen(err);
	return 0;
}
