/* SPDX-License-Identifier: MIT */
/* The options of `ehsyslog export`. */
#ifndef EHSYSLOG_CLI_EXPORT_OPTIONS_H
#define EHSYSLOG_CLI_EXPORT_OPTIONS_H

#include <stddef.h>

#include "cli/read/filter.h"
#include "cli/export/http.h"
#include "cli/export/record.h"
#include "cli/export/sender.h"

/* --resource pairs at most. */
#define EXPORT_RESOURCE_MAX 32

struct export_options {
	struct filter filter;
	char *url;	/* ENDPOINT + "/v1/logs", allocated */
	struct http_config http;
	struct sender_config send;
	size_t queue_max;
	size_t queue_bytes;
	long flush_ms;	/* after SIGTERM, at most this long for what is queued */
	unsigned long run_seconds;	/* --timeout; 0: until a signal */
	struct record_pair resource[EXPORT_RESOURCE_MAX];
	size_t resource_count;
};

/* Parses argv into o.  -1 when the command should go on, else the exit
 * code (--help: 0, after printing the usage; errors: 2, after saying
 * why). */
int export_options_parse(struct export_options *o, int argc, char **argv);

void export_options_free(struct export_options *o);

#endif
