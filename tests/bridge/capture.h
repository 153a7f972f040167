/* SPDX-License-Identifier: MIT */
/* What the unit tests catch through the writer's double
 * (tests/doubles/): each event's bytes (iov[1..]). */
#ifndef EHS_TESTS_CAPTURE_H
#define EHS_TESTS_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "bridge/emit.h"
#include "../doubles/user_events_double.h"

#define CAPTURE_MAX_EVENTS 64
#define CAPTURE_EVENT_MAX 70000

struct capture {
	unsigned count;
	size_t len[CAPTURE_MAX_EVENTS];
	uint8_t data[CAPTURE_MAX_EVENTS][CAPTURE_EVENT_MAX];
};

/* A ue_double_fn: keeps the event in the struct capture at ctx. */
int capture_sink(void *ctx, struct iovec *iov, int iovcnt);

/* A tracepoint for ehs_emit calls made by tests: it only names where
 * the writer's double gets the events from. */
extern struct ue_tracepoint capture_tp;

/* ehs_emit(r, limit) into c: traced through the double for this call
 * alone.  Returns what ehs_emit returns. */
int capture_emit(struct capture *c, const struct ehs_record *r, size_t limit);

/* Which of want's events the event in iov[1..iovcnt) is, byte for byte,
 * or -1 (also for an event over 512 bytes).  Safe from several threads
 * and signal handlers at once: for ue_double_fns that check events as
 * they come. */
int capture_which(const struct capture *want, const struct iovec *iov, int iovcnt);

#endif
