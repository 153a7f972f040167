/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/export/queue/queue.h"

int queue_init(struct queue *q, size_t max_entries, size_t max_bytes)
{
	memset(q, 0, sizeof *q);
	q->ring = calloc(max_entries ? max_entries : 1, sizeof *q->ring);
	if (q->ring == NULL)
		return -1;
	q->cap = max_entries;
	q->max_bytes = max_bytes;
	return 0;
}

void queue_free(struct queue *q)
{
	q->spool = NULL;	/* what is left is not acknowledged: kept there */
	q->len += q->staged;
	q->staged = 0;
	queue_pop(q, q->len);
	free(q->ring);
	q->ring = NULL;
}

/* Auto-commit: a batch framed for the spool is written once it holds
 * this much, however long the read pass. */
#define STAGED_BYTES_MAX (256 * 1024)

/* The resource, then the record, in one allocation; NULL when memory
 * runs out. */
static uint8_t *copy(const uint8_t *resource, size_t resource_len, const uint8_t *record,
		     size_t record_len)
{
	uint8_t *p = malloc(resource_len + record_len ? resource_len + record_len : 1);

	if (p != NULL) {
		memcpy(p, resource, resource_len);
		memcpy(p + resource_len, record, record_len);
	}
	return p;
}

/* Puts the copy p in the entry after the queued and staged ones; end is
 * its position in the spool, came_ns when it was pushed. */
static void place(struct queue *q, uint8_t *p, size_t resource_len, size_t record_len,
		  uint64_t end, int64_t came_ns)
{
	struct queue_entry *e = &q->ring[(q->head + q->len + q->staged) % q->cap];

	e->resource = p;
	e->resource_len = resource_len;
	e->record = p + resource_len;
	e->record_len = record_len;
	e->end = end;
	e->came_ns = came_ns;
	q->bytes += resource_len + record_len;
}

static bool fits(const struct queue *q, size_t n)
{
	return q->len + q->staged < q->cap && n <= q->max_bytes - q->bytes;
}

bool queue_push(struct queue *q, const uint8_t *resource, size_t resource_len,
		const uint8_t *record, size_t record_len, int64_t now_ns)
{
	uint64_t end = 0;
	uint8_t *p = NULL;

	if (!fits(q, resource_len + record_len) ||
	    (p = copy(resource, resource_len, record, record_len)) == NULL ||
	    (q->spool != NULL &&
	     !spool_append(q->spool, resource, resource_len, record, record_len, &end))) {
		free(p);
		q->dropped++;
		return false;
	}
	place(q, p, resource_len, record_len, end, now_ns);
	if (q->spool == NULL) {
		q->len++;
		return true;
	}
	q->staged++;
	if (q->spool->pending_len >= STAGED_BYTES_MAX)
		queue_commit(q);
	return true;
}

bool queue_commit(struct queue *q)
{
	bool ok;

	if (q->staged == 0)
		return true;
	ok = spool_commit(q->spool);
	if (ok) {
		q->len += q->staged;
	} else {
		for (size_t i = 0; i < q->staged; i++) {
			struct queue_entry *e = &q->ring[(q->head + q->len + i) % q->cap];

			q->bytes -= e->resource_len + e->record_len;
			free(e->resource);
			memset(e, 0, sizeof *e);
		}
		q->dropped += q->staged;
	}
	q->staged = 0;
	return ok;
}

void queue_restore(void *q, const uint8_t *resource, size_t resource_len,
		   const uint8_t *record, size_t record_len, uint64_t end)
{
	struct queue *queue = q;
	uint8_t *p;

	if (!fits(queue, resource_len + record_len) ||
	    (p = copy(resource, resource_len, record, record_len)) == NULL) {
		queue->dropped++;
		return;
	}
	place(queue, p, resource_len, record_len, end, 0);
	queue->len++;
}

const struct queue_entry *queue_at(const struct queue *q, size_t i)
{
	return &q->ring[(q->head + i) % q->cap];
}

void queue_pop(struct queue *q, size_t n)
{
	uint64_t end = 0;

	while (n-- > 0 && q->len > 0) {
		struct queue_entry *e = &q->ring[q->head];

		end = e->end;
		q->bytes -= e->resource_len + e->record_len;
		free(e->resource);
		memset(e, 0, sizeof *e);
		q->head = (q->head + 1) % q->cap;
		q->len--;
	}
	if (q->spool != NULL)
		spool_ack(q->spool, end);
}
