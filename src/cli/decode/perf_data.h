/* SPDX-License-Identifier: MIT */
/*
 * A reader for the files `perf record` writes (perf.data, "PERFILE2",
 * little-endian, not pipe mode, compressed with -z or not).  It finds
 * the user_events tracepoint samples, and those of the library's uprobe
 * events (traceevent/uprobe_record.h: handed on as the user_events event they carry),
 * and hands them, sorted by time, to a callback, and counts the records
 * it could not decode.
 */
#ifndef EHSYSLOG_CLI_PERF_DATA_H
#define EHSYSLOG_CLI_PERF_DATA_H

#include <stddef.h>

#include "cli/output/output.h"

#define PERF_DATA_MAGIC "PERFILE2"

/* Why a record or sample was not decoded (perf_skip_reason names them). */
enum perf_skip {
	PERF_SKIP_CUT,	/* the file ends inside it (a truncated file) */
	PERF_SKIP_MALFORMED,	/* its lengths do not add up */
	PERF_SKIP_UNZIP,	/* a compressed record that did not decompress */
	PERF_SKIP_UNNAMED,	/* a tracepoint sample; the event names were cut off */
	PERF_SKIP_UNKNOWN_ID,	/* a sample of no event the file describes */
	PERF_SKIP_NO_RAW,	/* a user_events sample recorded without its data */
	PERF_SKIP_UNKNOWN_TYPE,	/* a record type this reader does not know */
	PERF_SKIPS
};

/* "cut by the end of the file", ... in the order of enum perf_skip. */
extern const char *const perf_skip_reason[PERF_SKIPS];

struct perf_data_info {
	char host[256];	/* HEADER_HOSTNAME, "" if absent */
	unsigned long samples;	/* user_events samples found */
	unsigned long long lost;	/* what its LOST and LOST_SAMPLES records count */
	unsigned long skipped[PERF_SKIPS];	/* records not decoded, by reason */
};

/* Called once per user_events sample.  A non-zero return stops reading
 * and is returned by perf_data_read. */
typedef int (*perf_data_cb)(const struct read_event *ev, void *ctx);

/*
 * Reads the whole file image data[0..len).  First fills info.host (before
 * any callback), then calls cb for each sample in time order, and lost
 * (unless NULL) in the same order for each PERF_RECORD_LOST and
 * PERF_RECORD_LOST_SAMPLES (of any event: a buffer is shared; not those
 * a BPF filter's drops write).  A record it cannot decode is counted in
 * info->skipped and reading goes on (a truncated file yields what it
 * still holds).  Returns 0, the callback's
 * non-zero value, or -1 with a message in err for a file that is not a
 * perf.data this reader understands or whose header or event
 * descriptions are damaged.  Never reads outside data[0..len).
 */
int perf_data_read(const void *data, size_t len, struct perf_data_info *info,
		   perf_data_cb cb, read_lost_cb lost, void *ctx, char *err, size_t errlen);

#endif
