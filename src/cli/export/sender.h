/* SPDX-License-Identifier: MIT */
/*
 * Batching and retrying over the queue: a batch leaves when it holds
 * batch_max records or its oldest has waited delay_ms, cut to what fits
 * in batch_bytes (batch.h); a retryable failure (backoff.h) keeps it
 * queued and waits, the backoff doubling with jitter, or as long as
 * Retry-After says within bounds, until max_elapsed_ms after its first
 * failure: then it is given up, counted.  Any other answer drops the
 * batch, counted.  Meanwhile records keep queueing, dropped and counted
 * when the queue is full; after the next success a record of export's
 * own says how many were lost since the last such record.  Records that
 * a 200's partial_success says were rejected count as dropped too.
 * What the collector answered, and its message, is kept for status.
 * One request is in flight at a time, of the queue's oldest records,
 * which stay queued until its answer: order is kept, and the caller
 * reads events meanwhile rather than wait on the network.
 */
#ifndef EHSYSLOG_CLI_EXPORT_SENDER_H
#define EHSYSLOG_CLI_EXPORT_SENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/export/http.h"
#include "cli/export/queue/queue.h"
#include "cli/export/otlp/record.h"
#include "cli/export/otlp/request.h"

struct sender_config {
	size_t batch_max;	/* records per request at most */
	size_t batch_bytes;	/* a request's body at most; 0: no limit */
	long delay_ms;	/* a record waits at most this long for its batch */
	long timeout_ms;	/* one request at most */
	long backoff_initial_ms, backoff_max_ms;	/* max: Retry-After's too */
	long max_elapsed_ms;	/* a batch is retried this long at most; 0: ever */
	enum request_encoding encoding;
	bool gzip;	/* compress each request (Content-Encoding: gzip) */
};

struct sender {
	struct sender_config cfg;
	struct queue *q;
	struct http *http;
	const struct record_context *rctx;
	int64_t retry_ns;	/* no request before this */
	int64_t batch_failed_ns;	/* when the batch's first try failed */
	unsigned attempt;	/* failed tries of the current batch */
	uint64_t random;	/* the jitter's state */
	bool failing;	/* the batch is being retried */
	bool dropping;	/* a batch was dropped since the last one taken */
	bool told_partial;	/* a partial_success's message went to stderr */
	char told[600];	/* the failure stderr last told of; empty after a success */
	char last_error[600];	/* why the last request failed; empty: none did */
	long last_status;	/* the last answer's HTTP status; 0: none came */
	int64_t last_answer_ns;	/* when it came, or the request failed (wall clock) */
	char message[512];	/* the collector's in its last error answer */
	char last_drop[700];	/* how many records were last dropped, and why */
	int64_t last_drop_ns;	/* when (wall clock) */
	unsigned long long sent;
	unsigned long long rejected;	/* by a partial_success */
	unsigned long long refused;	/* in a batch an answer dropped */
	unsigned long long given_up;	/* in a batch retried for max_elapsed_ms */
	unsigned long long lost_kernel;	/* events the trace buffer lost, so far */
	unsigned long long told_dropped, told_lost;	/* as the last notice said */
	size_t in_flight;	/* the queue's oldest records, sent; 0: no request is */
	int64_t in_flight_end_ns;	/* when that request times out */
	struct http_answer answer;	/* its answer, once it came */
};

void sender_init(struct sender *s, const struct sender_config *cfg, struct queue *q,
		 struct http *http, const struct record_context *rctx);

/* Records dropped, for every reason: queue full, rejected, refused,
 * given up. */
unsigned long long sender_dropped(const struct sender *s);

/* Queues one packed record (queue_push) that came at now_ns. */
bool sender_push(struct sender *s, const struct record_bytes *b, int64_t now_ns);

/* Starts a request of a batch if one is due (any queued record, with
 * flush), unless waiting to retry or a request is in flight: then moves
 * that one on, and handles its answer once it came.  A request takes
 * at most until deadline_ns.  Returns at once, with the nanoseconds
 * until something is due again (INT64_MAX when the queue is empty). */
int64_t sender_step(struct sender *s, int64_t now_ns, bool flush, int64_t deadline_ns);

/* With a request in flight, waits at most wait_ns for its connection
 * (its answer, say) or a signal, and returns true; false at once when
 * none is in flight or waiting failed: the caller sleeps instead. */
bool sender_wait(struct sender *s, int64_t wait_ns);

#endif
