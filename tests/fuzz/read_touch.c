/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "read_touch.h"

volatile unsigned read_touch_sink;

uint64_t syslog_facility_keyword(unsigned facility)
{
	return facility < 24 ? UINT64_C(1) << facility : 0;
}

int read_touch(const struct read_event *ev, void *ctx)
{
	unsigned sum = (unsigned)strlen(ev->tracepoint);

	(void)ctx;
	for (size_t i = 0; i < ev->len; i++)
		sum += ev->data[i];
	read_touch_sink = sum + (unsigned)ev->info.time_ns + (unsigned)ev->wall_ns;
	return 0;
}
