/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/export/backoff.h"

long backoff_delay_ms(unsigned attempt, long initial_ms, long max_ms)
{
	long d = initial_ms;

	for (unsigned i = 0; i < attempt && d < max_ms; i++)
		d = d > LONG_MAX / 2 ? LONG_MAX : d * 2;
	return d < max_ms ? d : max_ms;
}

bool backoff_status_retryable(long status)
{
	return status == 429 || status == 502 || status == 503 || status == 504;
}

long retry_after_ms(const char *value, time_t now)
{
	struct tm tm = { 0 };
	const char *end;
	char *num_end;
	time_t when;

	while (*value == ' ' || *value == '\t')
		value++;
	if (isdigit((unsigned char)*value)) {
		unsigned long s;

		errno = 0;
		s = strtoul(value, &num_end, 10);
		while (*num_end == ' ' || *num_end == '\t')
			num_end++;
		if (errno != 0 || *num_end != '\0')
			return -1;
		return s > LONG_MAX / 1000 ? LONG_MAX / 1000 * 1000 : (long)s * 1000;
	}
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
	return when - now > LONG_MAX / 1000 ? LONG_MAX / 1000 * 1000 : (long)(when - now) * 1000;
}
