/* SPDX-License-Identifier: MIT */
/*
 * A record of one of the library's uprobe events (ehs_uprobes.h) turned
 * into what a user_events record of the same event gives the output
 * stage: the EventHeader bytes, decoded from the base64 of its event
 * field, and the tracepoint name user_events would have recorded it
 * under, PROVIDER_L<level>K<keyword>: the provider from the name field
 * ("PROVIDER:EVENT"), the level from the event (1..5), the keyword from
 * the facility field (names.h).  So decode, tail and export print the
 * same on both transports.
 */
#ifndef EHSYSLOG_TRACEEVENT_UPROBE_RECORD_H
#define EHSYSLOG_TRACEEVENT_UPROBE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

#include <eventheader/eventheader.h>

/* The fields of one record, as its reader found them. */
struct uprobe_fields {
	unsigned level;	/* of the event's name, 1..5 */
	const char *name;	/* not NUL-terminated */
	size_t name_len;
	int facility;	/* -1: a native event (no syslog facility) */
	const char *event;	/* base64, not NUL-terminated */
	size_t event_len;
};

/* Where the decoded event goes; reused from record to record. */
struct uprobe_scratch {
	uint8_t *buf;
	size_t cap;
	char tracepoint[EH_NAME_MAX];
};

void uprobe_scratch_free(struct uprobe_scratch *s);

/*
 * The tracepoint name and EventHeader bytes of the record f into s.
 * Returns 1; 0 when the name field names no provider (not an ehsyslog
 * event); -1 when out of memory.  An event field that is not whole
 * base64 (cut short by the kernel's limit on a record's strings) gives
 * no bytes (*len 0): the output stage reports it as an event it could
 * not decode.
 */
int uprobe_record(const struct uprobe_fields *f, struct uprobe_scratch *s,
		  const char **tracepoint, const uint8_t **data, size_t *len);

/*
 * The same from a libtraceevent record of event (its system an
 * ehsyslog group, its name a level's (group.h), with the fields).  1, 0 for another
 * event, -1 when out of memory.
 */
int uprobe_tep_record(struct tep_event *event, struct tep_record *record,
		      struct uprobe_scratch *s, const char **tracepoint,
		      const uint8_t **data, size_t *len);

/*
 * The same from a perf.data sample's raw data, raw[0..size), of event
 * system:name: laid out as the kernel lays out the definition this tool
 * writes (record.c), since perf.data's reader parses no event formats.
 */
int uprobe_raw_record(const char *system, const char *name, const uint8_t *raw, size_t size,
		      struct uprobe_scratch *s, const char **tracepoint,
		      const uint8_t **data, size_t *len);

#endif
