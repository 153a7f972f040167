/* SPDX-License-Identifier: MIT */
/* The syslog schema's fields of one decoded event, where it has them. */
#ifndef EHSYSLOG_CLI_FIELDS_H
#define EHSYSLOG_CLI_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <eventheader/eventheader.h>

struct syslog_fields {
	bool has_message, has_severity, has_facility;
	const uint8_t *message;
	size_t message_len;
	unsigned severity, facility;
	unsigned part, parts;	/* 0 when the message is whole */
};

/* Reads ev's top-level fields into f.  Returns 0 or a negative eh_error. */
int syslog_fields_read(const struct eh_event_view *ev, struct syslog_fields *f);

/* True when the event is a syslog event: message, severity and facility. */
static inline bool syslog_fields_complete(const struct syslog_fields *f)
{
	return f->has_message && f->has_severity && f->has_facility;
}

#endif
