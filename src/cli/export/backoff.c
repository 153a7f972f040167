/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/export/backoff.h"

/* The most milliseconds a Retry-After is read as: no product overflows. */
#define RETRY_AFTER_CAP (LONG_MAX / 1000 * 1000)

long backoff_delay_ms(unsigned attempt, long initial_ms, long max_ms, uint32_t random)
{
	long d = initial_ms;

	for (unsigned i = 0; i < attempt && d < max_ms; i++)
		d = d > LONG_MAX / 2 ? LONG_MAX : d * 2;
	if (d > max_ms)
		d = max_ms;
	/* d / 2 + a share of the other half: 64-bit arithmetic, no overflow
	 * for any long d. */
	return d / 2 + (long)((uint64_t)(d - d / 2) * random >> 32);
}

long backoff_retry_wait_ms(long retry_after_ms, long backoff_ms, long max_ms)
{
	if (retry_after_ms < backoff_ms)
		return backoff_ms;
	return retry_after_ms < max_ms ? retry_after_ms : max_ms;
}

uint32_t backoff_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
	z = (z ^ z >> 27) * 0x94d049bb133111ebu;
	return (uint32_t)((z ^ z >> 31) >> 32);
}

enum backoff_answer backoff_classify(long status, bool body_cut)
{
	if (status >= 200 && status < 300)
		return body_cut ? BACKOFF_DROP : BACKOFF_TAKEN;
	if (status == 0 || status == 429 || status == 502 || status == 503 || status == 504)
		return BACKOFF_RETRY;
	return BACKOFF_DROP;
}

/* Decimal digits as milliseconds, saturating at RETRY_AFTER_CAP.  -1 for
 * anything but digits and trailing blanks. */
static long seconds_ms(const char *s)
{
	long ms = 0;

	for (; isdigit((unsigned char)*s); s++) {
		long d = (*s - '0') * 1000L;

		ms = ms > (RETRY_AFTER_CAP - d) / 10 ? RETRY_AFTER_CAP : ms * 10 + d;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0' ? ms : -1;
}

long retry_after_ms(const char *value, time_t now)
{
	struct tm tm = { 0 };
	const char *end;
	time_t when;

	while (*value == ' ' || *value == '\t')
		value++;
	if (isdigit((unsigned char)*value))
		return seconds_ms(value);
	/* "Sun, 06 Nov 1994 08:49:37 GMT"; %a and %b in the C locale. */
	end = strptime(value, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (end == NULL)
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != '\0')
		return -1;
	when = timegm(&tm);
	if (when == (time_t)-1)
		return -1;
	if (when <= now)
		return 0;
	return when - now > RETRY_AFTER_CAP / 1000 ? RETRY_AFTER_CAP : (long)(when - now) * 1000;
}
