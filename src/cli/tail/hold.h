/* SPDX-License-Identifier: MIT */
#ifndef EHS_CLI_TAIL_HOLD_H
#define EHS_CLI_TAIL_HOLD_H

/*
 * Records held back so that a reader hands them on in time order.
 *
 * Each CPU has its own trace buffer, and a read pass empties them one
 * after the other: a record written on CPU 0 while the pass reads CPU 1
 * is only read in the next pass, after CPU 1's later records went out.
 * A thread that moves between CPUs while it logs then appears out of
 * order.  live_read (live.h) passes on only the records older than the
 * moment its pass began, and holds the newer ones here, copied, until
 * the next pass has read every buffer past them.
 */

#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

struct held {
	struct tep_event *event;
	unsigned long long ts;
	long long missed;	/* missed_events of the record */
	int cpu;
	int size;
	unsigned char data[];
};

struct hold {
	struct held **v;	/* v[first..n): oldest first */
	size_t first, n, cap;
};

/* Copies record in, in time order; -1 with errno ENOMEM. */
int hold_add(struct hold *h, struct tep_event *event, const struct tep_record *record, int cpu);

/* The oldest record held, or NULL. */
struct held *hold_oldest(const struct hold *h);

/* Frees the oldest record held. */
void hold_drop_oldest(struct hold *h);

/* A record for libtraceevent that reads the held copy. */
void hold_record(const struct held *r, struct tep_record *out);

void hold_free(struct hold *h);

#endif
