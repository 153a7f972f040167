/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "cli/tep_event.h"

int tep_read_event(struct tep_handle *tep, struct tep_event *event,
		   struct tep_record *record, struct read_event *out)
{
	struct tep_format_field *first;

	if (event == NULL)
		event = tep_find_event_by_record(tep, record);
	if (event == NULL || event->system == NULL || event->name == NULL ||
	    strcmp(event->system, "user_events") != 0)
		return 0;
	/* The EventHeader starts at the first declared field, wherever this
	 * kernel put it after the common fields. */
	first = tep_find_field(event, "eventheader_flags");
	if (first == NULL || first->offset < 0 || record->size < first->offset)
		return 0;
	memset(out, 0, sizeof *out);
	out->tracepoint = event->name;
	out->data = (const uint8_t *)record->data + first->offset;
	out->len = (size_t)(record->size - first->offset);
	out->info.time_ns = record->ts;
	out->info.has_time = true;
	out->info.cpu = record->cpu;
	out->info.has_cpu = true;
	/* ftrace records the thread id only. */
	out->info.pid = out->info.tid = (uint32_t)tep_data_pid(tep, record);
	out->info.has_pid = true;
	return 1;
}
