/* SPDX-License-Identifier: MIT */
/* A sink for the unit tests: keeps each event's bytes (iov[1..]). */
#ifndef EHS_TESTS_CAPTURE_H
#define EHS_TESTS_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define CAPTURE_MAX_EVENTS 64
#define CAPTURE_EVENT_MAX 70000

struct capture {
	unsigned count;
	size_t len[CAPTURE_MAX_EVENTS];
	uint8_t data[CAPTURE_MAX_EVENTS][CAPTURE_EVENT_MAX];
};

int capture_sink(void *ctx, struct iovec *iov, int iovcnt);

/* Which of want's events the event in iov[1..iovcnt) is, byte for byte,
 * or -1 (also for an event over 512 bytes).  Safe from several threads
 * and signal handlers at once: for sinks that check events as they come. */
int capture_which(const struct capture *want, const struct iovec *iov, int iovcnt);

#endif
