/* SPDX-License-Identifier: MIT */
/* From a libtraceevent record to the read_event the output stage takes:
 * shared by the trace.dat and the live readers. */
#ifndef EHSYSLOG_CLI_TEP_EVENT_H
#define EHSYSLOG_CLI_TEP_EVENT_H

#include <event-parse.h>

#include "cli/output/output.h"
#include "traceevent/uprobe_record.h"

/* 1 and *out filled if record is a user_events event with EventHeader's
 * declared fields, or one of the library's uprobe events (traceevent/uprobe_record.h:
 * its event decoded into scratch, which out then points into); 0
 * otherwise; -1 when out of memory.  event may be NULL (looked up). */
int tep_read_event(struct tep_handle *tep, struct tep_event *event,
		   struct tep_record *record, struct uprobe_scratch *scratch,
		   struct read_event *out);

#endif
