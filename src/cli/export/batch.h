/* SPDX-License-Identifier: MIT */
/*
 * The body of the next request: the oldest queued records, as many as
 * fit in a byte limit once encoded and compressed.  Gateways in front of
 * collectors refuse bodies over their limit (nginx's client_max_body_size
 * is 1 MiB by default) with a 413, which would drop every batch: so a
 * batch is cut until its body fits.
 */
#ifndef EHSYSLOG_CLI_EXPORT_BATCH_H
#define EHSYSLOG_CLI_EXPORT_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/export/queue/queue.h"
#include "cli/export/otlp/request.h"

struct batch_format {
	enum request_encoding encoding;
	bool gzip;	/* Content-Encoding: gzip */
	size_t max_bytes;	/* a body at most; 0: no limit */
};

/* The oldest record alone makes a body over max_bytes. */
#define BATCH_TOO_BIG (-2)

/* Encodes the oldest of q's first n records (n >= 1) into a new *body
 * (free it) of at most f->max_bytes, *taken of them: all n, or fewer,
 * cut in proportion to the excess until the body fits.  0; -1 out of
 * memory; BATCH_TOO_BIG (*taken 1, no body). */
int batch_encode(const struct queue *q, size_t n, const struct batch_format *f, uint8_t **body,
		 size_t *len, size_t *taken);

#endif
