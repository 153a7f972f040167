/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for decode's trace.dat path: the input, as a file
 * (a memfd), through trace_dat_read: ehsyslog's checks, then
 * libtracecmd and libtraceevent, which are not instrumented, but whose
 * reads through the C library (strdup, memcpy, ...) and allocations
 * ASan sees.  Every event's bytes are read, so that ASan sees a record
 * reaching outside its page.
 *
 * A file libtracecmd fails to load leaves its handle behind, with the
 * handle's mappings of the memfd (trace_dat.c: decode exits next).  So
 * one process gathers mappings, and after about 20 minutes at 2,500
 * inputs a second it reaches vm.max_map_count ("Failed to mmap"): a
 * longer search is several shorter runs.
 */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/decode/trace_dat.h"
#include "read_touch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char host[64], err[512];
	int fd = memfd_create("fuzz_tracedat", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	(void)trace_dat_read(fd, host, sizeof host, read_touch, NULL, NULL, err, sizeof err);
	close(fd);
	return 0;
}
