/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "traceevent/payload.h"

int eh_tep_payload(struct tep_event *event, struct tep_record *record,
		   const uint8_t **data, size_t *len)
{
	struct tep_format_field *first;

	if (event == NULL || event->system == NULL || event->name == NULL ||
	    strcmp(event->system, "user_events") != 0)
		return 0;
	/* The EventHeader starts at the first declared field, wherever this
	 * kernel put it after the common fields. */
	first = tep_find_field(event, "eventheader_flags");
	if (first == NULL || first->offset < 0 || record->size < first->offset)
		return 0;
	*data = (const uint8_t *)record->data + first->offset;
	*len = (size_t)(record->size - first->offset);
	return 1;
}
