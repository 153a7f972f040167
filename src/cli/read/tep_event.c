/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "cli/read/tep_event.h"
#include "traceevent/payload.h"

int tep_read_event(struct tep_handle *tep, struct tep_event *event,
		   struct tep_record *record, struct read_event *out)
{
	const uint8_t *data;
	size_t len;

	if (event == NULL)
		event = tep_find_event_by_record(tep, record);
	if (!eh_tep_payload(event, record, &data, &len))
		return 0;
	memset(out, 0, sizeof *out);
	out->tracepoint = event->name;
	out->data = data;
	out->len = len;
	out->info.time_ns = record->ts;
	out->info.has_time = true;
	out->info.cpu = record->cpu;
	out->info.has_cpu = true;
	/* ftrace records the thread id only. */
	out->info.pid = out->info.tid = (uint32_t)tep_data_pid(tep, record);
	out->info.has_pid = true;
	return 1;
}
