/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "cli/read/fields.h"

int syslog_fields_read(const struct eh_event_view *ev, struct syslog_fields *f)
{
	struct eh_cursor c;
	struct eh_item it;
	int rc;

	memset(f, 0, sizeof *f);
	eh_cursor_init(&c, ev);
	while ((rc = eh_cursor_next(&c, &it)) > 0) {
		unsigned enc = it.encoding & EH_ENC_VALUE_MASK;

		if (it.kind != EH_ITEM_VALUE || it.depth != 0 ||
		    (it.encoding & EH_ENC_ARRAY_MASK) != 0)
			continue;
		if (strcmp(it.name, "message") == 0 &&
		    (enc == EH_ENC_STRING_LENGTH16_CHAR8 || enc == EH_ENC_ZSTRING_CHAR8)) {
			f->has_message = true;
			f->message = it.value;
			f->message_len = it.value_len;
		} else if (enc == EH_ENC_VALUE8 && it.value_len == 1 &&
			   strcmp(it.name, "severity") == 0) {
			f->has_severity = true;
			f->severity = it.value[0];
		} else if (enc == EH_ENC_VALUE8 && it.value_len == 1 &&
			   strcmp(it.name, "facility") == 0) {
			f->has_facility = true;
			f->facility = it.value[0];
		} else if (enc == EH_ENC_VALUE16 && it.value_len == 2 &&
			   (strcmp(it.name, "part") == 0 || strcmp(it.name, "parts") == 0)) {
			unsigned v = it.value[0] | (unsigned)it.value[1] << 8;

			if (it.name[4] == 's')
				f->parts = v;
			else
				f->part = v;
		}
	}
	if (rc < 0)
		return rc;
	/* A part outside 1..parts is not a part: show the event as it is. */
	if (f->parts < 2 || f->part < 1 || f->part > f->parts)
		f->part = f->parts = 0;
	return 0;
}
