/* SPDX-License-Identifier: MIT */
#include <string.h>

#include <ehsyslog/schema.h>

#include "cli/output/fields.h"

/* An integer field of the schema's field k, in *v, when it has the
 * schema's encoding. */
static bool schema_uint(const struct eh_item *it, int k, unsigned *v)
{
	unsigned enc = it->encoding & EH_ENC_VALUE_MASK;
	size_t size = enc == EH_ENC_VALUE8 ? 1 : enc == EH_ENC_VALUE16 ? 2 : 4;

	if (enc != ehs_schema[k].encoding || it->value_len != size)
		return false;
	*v = 0;
	for (size_t i = size; i > 0; i--)
		*v = *v << 8 | it->value[i - 1];
	return true;
}

int syslog_fields_read(const struct eh_event_view *ev, struct syslog_fields *f)
{
	struct eh_cursor c;
	struct eh_item it;
	unsigned v;
	int rc;

	memset(f, 0, sizeof *f);
	eh_cursor_init(&c, ev);
	while ((rc = eh_cursor_next(&c, &it)) > 0) {
		unsigned enc = it.encoding & EH_ENC_VALUE_MASK;
		int k;

		if (it.kind != EH_ITEM_VALUE || it.depth != 0 ||
		    (it.encoding & EH_ENC_ARRAY_MASK) != 0)
			continue;
		k = ehs_schema_find(it.name);
		switch (k) {
		case EHS_FIELD_MESSAGE:
			/* Other producers' files may hold it NUL-terminated. */
			if (enc == ehs_schema[k].encoding || enc == EH_ENC_ZSTRING_CHAR8) {
				f->has_message = true;
				f->message = it.value;
				f->message_len = it.value_len;
			}
			break;
		case EHS_FIELD_SEVERITY:
			if (schema_uint(&it, k, &v)) {
				f->has_severity = true;
				f->severity = v;
			}
			break;
		case EHS_FIELD_FACILITY:
			if (schema_uint(&it, k, &v)) {
				f->has_facility = true;
				f->facility = v;
			}
			break;
		case EHS_FIELD_PART:
			if (schema_uint(&it, k, &v))
				f->part = v;
			break;
		case EHS_FIELD_PARTS:
			if (schema_uint(&it, k, &v))
				f->parts = v;
			break;
		}
	}
	if (rc < 0)
		return rc;
	/* A part outside 1..parts is not a part: show the event as it is. */
	if (f->parts < 2 || f->part < 1 || f->part > f->parts)
		f->part = f->parts = 0;
	return 0;
}
