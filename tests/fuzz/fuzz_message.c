/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the message path: arbitrary bytes of any length
 * (0 to 1 MB) through the bridge (ehs_vsyslog, ehs_report) into the
 * builder, with the writer's test double (tests/doubles/) in place of the
 * kernel.  Input:
 *   byte 0      how the bytes reach the format: 0 "%s" (cut at the first
 *               NUL, as syslog does), 1 "%.*s", 2 "%s%c%s" (a NUL in the
 *               middle through %c), 3 the bytes themselves as the ident
 *               with a fixed message, 4 err()-style with an errno suffix
 *   bytes 1..4  the priority, garbage bits included (little-endian)
 *   rest        the bytes
 * Every event written must fit EHS_EVENT_MAX and decode.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "../doubles/user_events_double.h"
#include "event_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void call_syslog(int pri, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ehs_vsyslog(pri, 0, fmt, ap);
	va_end(ap);
}

static void call_report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ehs_report(LOG_ERR, 0, 2, "fuzz.c", 7, fmt, ap);
	va_end(ap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t pri;
	char *s;
	size_t n, half;

	if (size < 5)
		return 0;
	memcpy(&pri, data + 1, sizeof pri);
	n = size - 5;
	s = malloc(n + 1);	/* exact size plus the NUL %s needs */
	if (!s)
		abort();
	memcpy(s, data + 5, n);
	s[n] = '\0';
	ue_double_trace(fuzz_event_sink, NULL);
	fuzz_events = 0;
	switch (data[0] % 5) {
	case 0:
		call_syslog((int)pri, "%s", s);
		break;
	case 1:
		call_syslog((int)pri, "%.*s", (int)n, s);
		break;
	case 2:
		half = n / 2;
		s[half] = '\0';
		call_syslog((int)pri, "%s%c%s", s, 0, s + half + (half < n));
		break;
	case 3:
		ehs_openlog(s, LOG_PID, (int)pri);
		call_syslog((int)pri, "ident test");
		ehs_closelog();
		break;
	default:
		call_report("%s", s);
		break;
	}
	/* Every allowed priority (the mask is the default: all) logs. */
	if (fuzz_events == 0)
		abort();
	free(s);
	return 0;
}
