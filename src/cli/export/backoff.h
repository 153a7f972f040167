/* SPDX-License-Identifier: MIT */
/*
 * When to try a failed request again.  The OTLP specification (protocol
 * "Failures" and "OTLP/HTTP Throttling") has the client retry 429, 502,
 * 503, 504 and lost connections with exponential backoff, and wait as
 * long as a Retry-After header says when there is one.
 */
#ifndef EHSYSLOG_CLI_EXPORT_BACKOFF_H
#define EHSYSLOG_CLI_EXPORT_BACKOFF_H

#include <stdbool.h>
#include <time.h>

/* The wait before retry number attempt (0 for the first retry):
 * initial_ms doubled attempt times, never more than max_ms.  No jitter:
 * one exporter per machine, so there is no herd to spread. */
long backoff_delay_ms(unsigned attempt, long initial_ms, long max_ms);

/* True for the HTTP statuses the specification calls retryable. */
bool backoff_status_retryable(long status);

/* A Retry-After value (RFC 9110 10.2.3: delay-seconds, or an HTTP-date
 * in IMF-fixdate form) as milliseconds from now (0 for a date already
 * past).  -1 if it is neither. */
long retry_after_ms(const char *value, time_t now);

#endif
