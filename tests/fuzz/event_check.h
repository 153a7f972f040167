/* SPDX-License-Identifier: MIT */
/* The fuzz targets' check of what the bridge writes: each event fits
 * EHS_EVENT_MAX and decodes. */
#ifndef EHS_TESTS_FUZZ_EVENT_CHECK_H
#define EHS_TESTS_FUZZ_EVENT_CHECK_H

#include <sys/uio.h>

/* Events fuzz_event_sink has checked; the targets reset it per input. */
extern unsigned long fuzz_events;

/* A ue_double_fn (tests/doubles/): aborts on an event that is too
 * large or does not decode, else counts it. */
int fuzz_event_sink(void *ctx, struct iovec *iov, int iovcnt);

#endif
