/* SPDX-License-Identifier: MIT */
/* The options of `ehsyslog export`. */
#ifndef EHSYSLOG_CLI_EXPORT_OPTIONS_H
#define EHSYSLOG_CLI_EXPORT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/output/filter.h"
#include "cli/export/http.h"
#include "cli/export/otlp/record.h"
#include "cli/export/sender.h"

/* --resource pairs at most. */
#define EXPORT_RESOURCE_MAX 32

/* The [export] section is read from a file of at most this many bytes,
 * as the library reads ehsyslog.conf. */
#define EXPORT_CONFIG_MAX (1024 * 1024)

struct export_options {
	struct filter filter;
	const char *endpoint;	/* the collector's base URL */
	const char *logs_endpoint;	/* the URL to post to, as is; or NULL */
	char *url;	/* ENDPOINT + "/v1/logs", or LOGS_ENDPOINT; allocated */
	struct http_config http;
	struct sender_config send;
	size_t queue_max;
	size_t queue_bytes;
	const char *queue_dir;	/* the queue's copy on disk (spool.h); NULL: none */
	long flush_ms;	/* after SIGTERM, at most this long for what is queued */
	unsigned long run_seconds;	/* --timeout; 0: until a signal */
	bool uprobes;	/* --uprobes: the uprobe transport (live.h) */
	const char *uprobes_lib;	/* its library copy; NULL: the installed */
	struct record_pair resource[EXPORT_RESOURCE_MAX];
	size_t resource_count;
	char **kept;	/* the file's values, which the fields above point into */
	size_t kept_count;
};

/* The defaults into o. */
void export_options_init(struct export_options *o);

/*
 * Applies the [export] section of the configuration file at path to o,
 * each key as its long option (--KEY VALUE) would be.  Each error is
 * printed as "ehsyslog export: PATH:LINE: why".  Returns how many there
 * were (0 also when the file is absent), or a negative errno when it
 * cannot be read (printed) or memory runs out.
 */
int export_options_load(struct export_options *o, const char *path);

/* Parses the [export] section of config (NULL: no file) and then argv,
 * which overrides it, into o.  -1 when the command should go on, else
 * the exit code (--help: 0, after printing the usage; errors: 2, or 1
 * for a file that cannot be read, after saying why), o then freed. */
int export_options_parse(struct export_options *o, int argc, char **argv, const char *config);

void export_options_free(struct export_options *o);

#endif
