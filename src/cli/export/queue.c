/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/export/queue.h"

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
	queue_pop(q, q->len);
	free(q->ring);
	q->ring = NULL;
}

/* Queues the record whose position in the spool is end, when spooled
 * is true, or writes it there first. */
static bool push(struct queue *q, const uint8_t *resource, size_t resource_len,
		 const uint8_t *record, size_t record_len, bool spooled, uint64_t end)
{
	size_t n = resource_len + record_len;
	struct queue_entry *e;
	uint8_t *p;

	if (q->len == q->cap || n > q->max_bytes - q->bytes || (p = malloc(n ? n : 1)) == NULL) {
		q->dropped++;
		return false;
	}
	if (!spooled && q->spool != NULL &&
	    !spool_append(q->spool, resource, resource_len, record, record_len, &end)) {
		free(p);
		q->dropped++;
		return false;
	}
	/* One allocation: the resource, then the record. */
	memcpy(p, resource, resource_len);
	memcpy(p + resource_len, record, record_len);
	e = &q->ring[(q->head + q->len) % q->cap];
	e->resource = p;
	e->resource_len = resource_len;
	e->record = p + resource_len;
	e->record_len = record_len;
	e->end = end;
	q->len++;
	q->bytes += n;
	return true;
}

bool queue_push(struct queue *q, const uint8_t *resource, size_t resource_len,
		const uint8_t *record, size_t record_len)
{
	return push(q, resource, resource_len, record, record_len, false, 0);
}

void queue_restore(void *q, const uint8_t *resource, size_t resource_len,
		   const uint8_t *record, size_t record_len, uint64_t end)
{
	push(q, resource, resource_len, record, record_len, true, end);
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
