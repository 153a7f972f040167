/* SPDX-License-Identifier: MIT */
/* The fuzz targets' checks: each event the bridge writes fits
 * EHS_EVENT_MAX and decodes; what a parser's result points at lies in
 * its input. */
#ifndef EHS_TESTS_FUZZ_EVENT_CHECK_H
#define EHS_TESTS_FUZZ_EVENT_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Events fuzz_event_sink has checked; the targets reset it per input. */
extern unsigned long fuzz_events;

/* A ue_double_fn (tests/doubles/): aborts on an event that is too
 * large or does not decode, else counts it. */
int fuzz_event_sink(void *ctx, struct iovec *iov, int iovcnt);

/* The input in an exact-size heap copy with no NUL after it, so that
 * ASan sees any read past its end; free() it. */
char *fuzz_copy(const uint8_t *data, size_t size);

/* Aborts unless p[0..n) lies in start[0..len). */
void fuzz_within(const char *p, size_t n, const char *start, size_t len);

#endif
