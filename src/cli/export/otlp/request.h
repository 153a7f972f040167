/* SPDX-License-Identifier: MIT */
/*
 * The body of one POST to /v1/logs: an ExportLogsServiceRequest holding
 * the oldest queued records in order, one ResourceLogs for each run of
 * records from the same resource, its one ScopeLogs naming ehsyslog.
 */
#ifndef EHSYSLOG_CLI_EXPORT_REQUEST_H
#define EHSYSLOG_CLI_EXPORT_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "cli/export/queue/queue.h"

/* The two encodings of OTLP/HTTP: binary protobuf (the default) and
 * JSON (json.h). */
enum request_encoding { REQUEST_PROTOBUF, REQUEST_JSON };

/* The Content-Type the encoding goes with. */
const char *request_content_type(enum request_encoding e);

/* Encodes the n oldest entries of q into a new *body (free it).  0, or
 * -1 when out of memory or an entry does not unpack. */
int request_pack(const struct queue *q, size_t n, enum request_encoding enc, uint8_t **body,
		 size_t *len);

#endif
