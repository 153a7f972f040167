/* SPDX-License-Identifier: MIT */
/* Which events decode and tail print: the options both take. */
#ifndef EHSYSLOG_CLI_FILTER_H
#define EHSYSLOG_CLI_FILTER_H

#include <stdbool.h>

#include <eventheader/eventheader.h>

#include "cli/names.h"
#include "cli/output/fields.h"

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

/* filter_option for one of them on the command line: false, after the
 * message and the hint to --help, for a bad value. */
bool filter_argument(struct filter *f, int opt, const char *arg, const char *cmd);

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

/* True when flt takes tracepoint tp's provider. */
bool filter_provider(const struct filter *flt, const struct eh_tracepoint *tp);

/* True when flt takes the event ev of tp, whose fields are f. */
bool filter_wants(const struct filter *flt, const struct eh_tracepoint *tp,
		  const struct eh_event_view *ev, const struct syslog_fields *f);

#endif
