/* SPDX-License-Identifier: MIT */
/*
 * When to try a failed request again.  The OTLP specification (protocol
 * "Failures" and "OTLP/HTTP Throttling") has the client retry 429, 502,
 * 503, 504 and lost connections with exponential backoff and jitter, and
 * wait as long as a Retry-After header says when there is one.
 */
#ifndef EHSYSLOG_CLI_EXPORT_BACKOFF_H
#define EHSYSLOG_CLI_EXPORT_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* The wait before retry number attempt (0 for the first retry): its
 * ceiling is initial_ms doubled attempt times, never more than max_ms;
 * the wait is drawn from [ceiling / 2, ceiling) by random (uniform over
 * 32 bits), so that exporters cut off together do not come back
 * together (exporter.md, "Retry": jitter is a MUST). */
long backoff_delay_ms(unsigned attempt, long initial_ms, long max_ms, uint32_t random);

/* The wait a Retry-After of retry_after_ms asks for, within bounds: at
 * least backoff_ms (a Retry-After of 0 must not make a flood), at most
 * max_ms (a huge one must not stall export).  retry_after_ms < 0 (none):
 * backoff_ms. */
long backoff_retry_wait_ms(long retry_after_ms, long backoff_ms, long max_ms);

/* A 32-bit random number from *state (splitmix64), for the jitter. */
uint32_t backoff_random(uint64_t *state);

/* What an answer means for its batch. */
enum backoff_answer {
	BACKOFF_TAKEN,	/* a 2xx, its body read whole */
	BACKOFF_RETRY,	/* none (status 0), or 429, 502, 503, 504 */
	/* Any other status (redirects are not followed: the token would go
	 * where the operator did not send it), and a 2xx whose body was cut:
	 * the specification has an answer over the client's limit be a
	 * non-retryable error, and what it said of the records is unknown. */
	BACKOFF_DROP,
};

/* status 0: no answer came; body_cut: http.h's. */
enum backoff_answer backoff_classify(long status, bool body_cut);

/* A Retry-After value (RFC 9110 10.2.3: delay-seconds, or an HTTP-date
 * in IMF-fixdate form) as milliseconds from now (0 for a date already
 * past), LONG_MAX / 1000 * 1000 at most however many digits it has.  -1
 * if it is neither. */
long retry_after_ms(const char *value, time_t now);

#endif
