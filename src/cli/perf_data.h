/* SPDX-License-Identifier: MIT */
/*
 * A reader for the files `perf record` writes (perf.data, "PERFILE2",
 * little-endian, not pipe mode).  It finds the user_events tracepoint
 * samples and hands them, sorted by time, to a callback.
 */
#ifndef EHSYSLOG_CLI_PERF_DATA_H
#define EHSYSLOG_CLI_PERF_DATA_H

#include <stddef.h>

#include "cli/output.h"

#define PERF_DATA_MAGIC "PERFILE2"

struct perf_data_info {
	char host[256];	/* HEADER_HOSTNAME, "" if absent */
	unsigned long samples;	/* user_events samples found */
};

/* Called once per user_events sample.  A non-zero return stops reading
 * and is returned by perf_data_read. */
typedef int (*perf_data_cb)(const struct read_event *ev, void *ctx);

/*
 * Reads the whole file image data[0..len).  First fills info (before any
 * callback), then calls cb for each sample in time order.  Returns 0, the
 * callback's non-zero value, or -1 with a message in err for a file that
 * is not a perf.data this reader understands or is malformed.  Never
 * reads outside data[0..len).
 */
int perf_data_read(const void *data, size_t len, struct perf_data_info *info,
		   perf_data_cb cb, void *ctx, char *err, size_t errlen);

#endif
