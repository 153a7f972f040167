/* SPDX-License-Identifier: MIT */
/*
 * The output stage shared by `ehsyslog decode` and `ehsyslog tail`: every
 * reader (perf.data, trace.dat, live tracefs) hands each tracepoint record
 * here; this file filters it, reassembles split messages, and prints one
 * line per event, as text or as JSON.
 */
#ifndef EHSYSLOG_CLI_OUTPUT_H
#define EHSYSLOG_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <eventheader/eventheader.h>

#include "cli/names.h"

/* One tracepoint record as a reader found it. */
struct read_event {
	const char *tracepoint;	/* name within user_events, "Syslog_L4K2" */
	const uint8_t *data;	/* the EventHeader bytes (after the common fields) */
	size_t len;
	struct eh_record_info info;	/* time_ns on the trace clock */
	uint64_t wall_ns;	/* nanoseconds since the Epoch, if has_wall */
	bool has_wall;
};

/* What to print.  Empty means everything. */
struct filter {
	const char *provider;	/* NULL: any provider */
	const char *program;	/* NULL: any event name */
	int min_severity;	/* -1: any; else print severity <= this */
	struct facility_set facilities;	/* the facility field's values; empty: any */
	/* -P: any name an EventHeader tracepoint may carry (decode reads
	 * other producers' files), else the library's provider rule (tail
	 * follows what the library writes). */
	bool any_provider;
};

/* Parses the options decode and tail share into f.  Returns 1 if opt was
 * one of them, 0 if not, -1 (message printed) for a bad value. */
int filter_option(struct filter *f, int opt, const char *arg, const char *cmd);

/* getopt_long entries for filter_option, and their usage text. */
#define FILTER_LONG_OPTIONS \
	{ "provider", required_argument, NULL, 'P' }, \
	{ "min-severity", required_argument, NULL, 's' }, \
	{ "facility", required_argument, NULL, 'f' }, \
	{ "program", required_argument, NULL, 'p' }
#define FILTER_SHORT_OPTIONS "P:s:f:p:"
#define FILTER_USAGE \
	"  -P, --provider NAME    only events of this provider\n" \
	"  -s, --min-severity S   only syslog events at least this severe\n" \
	"                         (emerg alert crit err warning notice info debug, or 0..7)\n" \
	"  -f, --facility F[,F]   only these facilities (kern user ... local7, or 0..127);\n" \
	"                         may be repeated\n" \
	"  -p, --program NAME     only events of this program (event name)\n"

/* A split message being put back together. */
struct pending;

struct out {
	FILE *fp;
	const char *cmd;	/* for error messages */
	const struct filter *filter;
	bool json;
	/* Text: every event as the decoder's field line (eh_decode_text),
	 * syslog events and split parts too; set after out_init. */
	bool fields;
	const char *host;	/* text lines: the machine the events came from */
	unsigned long printed;	/* lines written */
	unsigned long bad;	/* records that failed to decode */
	struct pending *pending;	/* OUT_PENDING_MAX slots */
	char *buf;	/* scratch for one decoded event */
	size_t cap;
};

int out_init(struct out *o, FILE *fp, const char *cmd, const struct filter *filter,
	     bool json, const char *host);
/* Filters, decodes and prints (or holds, for a split message) one record.
 * Returns lines printed (0 or 1), or -1 if fp failed. */
int out_event(struct out *o, const struct read_event *ev);
/* Prints every incomplete split message held so far. */
int out_flush(struct out *o);
void out_free(struct out *o);

#endif
