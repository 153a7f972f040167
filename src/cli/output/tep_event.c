/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "cli/output/tep_event.h"
#include "traceevent/payload.h"

int tep_read_event(struct tep_handle *tep, struct tep_event *event,
		   struct tep_record *record, struct uprobe_scratch *scratch,
		   struct read_event *out)
{
	const char *tracepoint;
	const uint8_t *data;
	size_t len;
	int rc;

	if (event == NULL)
		event = tep_find_event_by_record(tep, record);
	if (eh_tep_payload(event, record, &data, &len))
		tracepoint = event->name;
	else if ((rc = uprobe_tep_record(event, record, scratch, &tracepoint, &data, &len)) != 1)
		return rc;
	memset(out, 0, sizeof *out);
	out->tracepoint = tracepoint;
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
