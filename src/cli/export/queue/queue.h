/* SPDX-License-Identifier: MIT */
/*
 * The records waiting to be sent, oldest first, bounded in count and in
 * bytes so that a collector that is away never makes the exporter grow:
 * a record that does not fit is dropped and counted, never waited for.
 * Each entry is one packed LogRecord with the packed Resource it belongs
 * to (record.h).  With a spool (spool.h), a record is staged: framed
 * for the spool as it comes, and queued (seen by queue_at, sent) only
 * once queue_commit has written it there with the others of its batch;
 * popping acknowledges it there.
 */
#ifndef EHSYSLOG_CLI_EXPORT_QUEUE_H
#define EHSYSLOG_CLI_EXPORT_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/export/queue/spool.h"

struct queue_entry {
	uint8_t *resource;	/* packed Resource */
	size_t resource_len;
	uint8_t *record;	/* packed LogRecord */
	size_t record_len;
	uint64_t end;	/* its position in the spool; 0 without one */
	int64_t came_ns;	/* when it was pushed (monotonic); 0: an earlier run's */
};

struct queue {
	struct queue_entry *ring;
	size_t cap;	/* entries at most */
	size_t max_bytes;	/* their bytes at most */
	size_t head, len, bytes;	/* len: queued, to send */
	size_t staged;	/* after them: pushed, not yet written to the spool */
	unsigned long long dropped;	/* records that did not fit, ever */
	struct spool *spool;	/* NULL: the queue is in memory only */
};

/* 0, or -1 when out of memory. */
int queue_init(struct queue *q, size_t max_entries, size_t max_bytes);
/* Frees the entries left, leaving them unacknowledged in the spool
 * (staged ones are written by spool_close). */
void queue_free(struct queue *q);

/* Copies the record in, pushed at now_ns (its batch's delay counts from
 * then): queued at once without a spool, else staged
 * for queue_commit (which is called here too once the batch holds 256
 * KiB).  False, counting it in q->dropped, when the queue is full (by
 * count or bytes, staged records included), memory runs out, or the
 * spool does not take it. */
bool queue_push(struct queue *q, const uint8_t *resource, size_t resource_len,
		const uint8_t *record, size_t record_len, int64_t now_ns);

/* Writes the staged records to the spool (spool_commit) and queues
 * them; if they cannot be written, drops them, counted.  False then. */
bool queue_commit(struct queue *q);

/* A spool_each (spool.h) for a queue: queues a record the spool gives
 * back, as queue_push but into memory only, as having come long ago:
 * what an earlier run left is due at once. */
void queue_restore(void *q, const uint8_t *resource, size_t resource_len,
		   const uint8_t *record, size_t record_len, uint64_t end);

/* The i-th oldest entry (i < q->len). */
const struct queue_entry *queue_at(const struct queue *q, size_t i);

/* Frees the n oldest entries (n <= q->len): sent or dropped for good,
 * acknowledged in the spool. */
void queue_pop(struct queue *q, size_t n);

#endif
