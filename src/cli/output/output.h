/* SPDX-License-Identifier: MIT */
/*
 * The output stage shared by `ehsyslog decode` and `ehsyslog tail`: every
 * reader (perf.data, trace.dat, live tracefs) hands each tracepoint record
 * here, to be filtered (filter.h), put together with the other parts of
 * its message when it is one (reassemble.h), and printed as one line per
 * event, as text (text.c) or as JSON (the decoder's).
 */
#ifndef EHSYSLOG_CLI_OUTPUT_H
#define EHSYSLOG_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <eventheader/eventheader.h>

#include "cli/output/filter.h"

/* One tracepoint record as a reader found it. */
struct read_event {
	const char *tracepoint;	/* name within user_events, "Syslog_L4K2" */
	const uint8_t *data;	/* the EventHeader bytes (after the common fields) */
	size_t len;
	struct eh_record_info info;	/* time_ns on the trace clock */
	uint64_t wall_ns;	/* nanoseconds since the Epoch, if has_wall */
	bool has_wall;
};

/*
 * Records the trace buffer could not keep, found by a reader where
 * they went missing: perf.data's PERF_RECORD_LOST and _LOST_SAMPLES,
 * a trace.dat page's or a live buffer's missed events.
 */
struct read_lost {
	unsigned long long count;	/* 0: some, how many unknown */
	int cpu;	/* the CPU whose buffer lost them; -1 unknown */
};

/* A reader's callback for losses, called in the stream's order between
 * the records; its non-zero value stops reading as the record
 * callback's does. */
typedef int (*read_lost_cb)(const struct read_lost *lost, void *ctx);

/* A split message being put back together. */
struct pending;

/*
 * Where events go instead of fp (`ehsyslog export`): each whole event
 * once, with its message reassembled.  ev is the event (for a split
 * message, its first part); f its syslog fields, NULL for an event that
 * is not a syslog event, whose msg is then the decoder's text of it.
 * Returns 1 taken, 0 not, -1 to stop reading.
 */
typedef int (*out_sink_fn)(void *ctx, const struct read_event *ev,
			   const struct syslog_fields *f, const void *msg, size_t msg_len);

struct out {
	FILE *fp;
	const char *cmd;	/* for error messages */
	const struct filter *filter;
	bool json;
	/* Text: every event as the decoder's field line (eh_decode_text),
	 * syslog events and split parts too; set after out_init. */
	bool fields;
	const char *host;	/* text lines: the machine the events came from */
	unsigned long printed;	/* event lines written (lost markers are not events) */
	unsigned long bad;	/* records that failed to decode */
	struct pending *pending;	/* reassemble.h */
	out_sink_fn sink;	/* set after out_init, or NULL: print to fp */
	void *sink_ctx;
	char *buf;	/* scratch for one decoded event */
	size_t cap;
};

int out_init(struct out *o, FILE *fp, const char *cmd, const struct filter *filter,
	     bool json, const char *host);
/* Filters, decodes and prints (or holds, for a split message) one record.
 * Returns lines printed (0 or 1), or -1 if fp failed. */
int out_event(struct out *o, const struct read_event *ev);
/* Prints a marker line where records were lost (lost.c): text
 * "-- CPU C: N events lost --", JSON {"lost":N,"cpu":C}, which has no
 * "n" as every event has.  Nothing with a sink (export counts its own).
 * Returns lines printed (0 or 1), or -1 if fp failed. */
int out_lost(struct out *o, const struct read_lost *lost);
/* Prints every incomplete split message held so far. */
int out_flush(struct out *o);
void out_free(struct out *o);

#endif
