/* SPDX-License-Identifier: MIT */
/*
 * Batching and retrying over the queue: a batch leaves when it holds
 * batch_max records or its oldest has waited delay_ms; a retryable
 * failure (backoff.h) keeps it queued and waits, doubling the wait each
 * time or as long as Retry-After says; any other answer drops the batch,
 * counted.  Meanwhile records keep queueing, dropped and counted when
 * the queue is full; after the next success a record of export's own
 * says how many were lost since the last such record.  Records that a
 * 200's partial_success says were rejected count as dropped too.
 */
#ifndef EHSYSLOG_CLI_EXPORT_SENDER_H
#define EHSYSLOG_CLI_EXPORT_SENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/export/http.h"
#include "cli/export/queue.h"
#include "cli/export/record.h"
#include "cli/export/request.h"

struct sender_config {
	size_t batch_max;	/* records per request at most */
	long delay_ms;	/* a record waits at most this long for its batch */
	long timeout_ms;	/* one request at most */
	long backoff_initial_ms, backoff_max_ms;
	enum request_encoding encoding;
	bool gzip;	/* compress each request (Content-Encoding: gzip) */
};

struct sender {
	struct sender_config cfg;
	struct queue *q;
	struct http *http;
	const struct record_context *rctx;
	int64_t first_ns;	/* when the oldest queued record came */
	int64_t retry_ns;	/* no request before this */
	unsigned attempt;	/* failed tries of the current batch */
	bool failing;	/* the last request failed: said so on stderr */
	bool told_partial;	/* a partial_success's message went to stderr */
	char last_error[300];	/* why the last request failed; empty: none did */
	unsigned long long sent, rejected;
	unsigned long long lost_kernel;	/* events the trace buffer lost, so far */
	unsigned long long told_dropped, told_lost;	/* as the last notice said */
};

void sender_init(struct sender *s, const struct sender_config *cfg, struct queue *q,
		 struct http *http, const struct record_context *rctx);

/* Queues one packed record (queue_push), noting when a batch starts. */
bool sender_push(struct sender *s, const struct record_bytes *b, int64_t now_ns);

/* Sends a batch if one is due (any queued record, with flush), unless
 * waiting to retry; a request takes at most until deadline_ns.
 * Returns the nanoseconds until something is due again (INT64_MAX when
 * the queue is empty). */
int64_t sender_step(struct sender *s, int64_t now_ns, bool flush, int64_t deadline_ns);

#endif
