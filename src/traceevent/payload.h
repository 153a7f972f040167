/* SPDX-License-Identifier: MIT */
/*
 * Where the EventHeader bytes of a libtraceevent record start: shared by
 * the ehsyslog tool's trace.dat and live readers and by the
 * libtraceevent plugin.  Uses only tep_find_field, which perf also
 * exports to plugins.
 */
#ifndef EHSYSLOG_TRACEEVENT_PAYLOAD_H
#define EHSYSLOG_TRACEEVENT_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

/* 1 and *data, *len set if event is a user_events event with EventHeader's
 * declared fields and record holds them; 0 otherwise. */
int eh_tep_payload(struct tep_event *event, struct tep_record *record,
		   const uint8_t **data, size_t *len);

#endif
