/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/names.h"
#include "cli/uprobe/base64.h"
#include "cli/uprobe/group.h"
#include "cli/uprobe/record.h"

void uprobe_scratch_free(struct uprobe_scratch *s)
{
	free(s->buf);
	s->buf = NULL;
	s->cap = 0;
}

int uprobe_record(const struct uprobe_fields *f, struct uprobe_scratch *s,
		  const char **tracepoint, const uint8_t **data, size_t *len)
{
	const char *colon = memchr(f->name, ':', f->name_len);
	size_t need = BASE64_DECODED_MAX(f->event_len);
	char provider[EH_NAME_MAX];
	uint64_t keyword;
	long n;

	if (colon == NULL || colon == f->name || (size_t)(colon - f->name) >= sizeof provider)
		return 0;
	memcpy(provider, f->name, (size_t)(colon - f->name));
	provider[colon - f->name] = '\0';
	/* A native event has no facility, and so the keyword 0. */
	keyword = f->facility >= 0 ? syslog_facility_keyword((unsigned)f->facility) : 0;
	if (eh_tracepoint_name(s->tracepoint, sizeof s->tracepoint, provider, f->level, keyword,
			       NULL) < 0)
		return 0;
	if (need > s->cap) {
		uint8_t *grown = realloc(s->buf, need);

		if (grown == NULL)
			return -1;
		s->buf = grown;
		s->cap = need;
	}
	n = base64_decode(f->event, f->event_len, s->buf);
	*tracepoint = s->tracepoint;
	*data = s->buf;
	*len = n < 0 ? 0 : (size_t)n;
	return 1;
}

/* A __data_loc string field's bytes, without the NUL the kernel stores:
 * false if the record does not hold it. */
static bool string_field(struct tep_event *event, struct tep_record *record, const char *name,
			 const char **s, size_t *len)
{
	struct tep_format_field *field = tep_find_field(event, name);
	unsigned long long loc;
	unsigned off, size;

	if (field == NULL || !(field->flags & TEP_FIELD_IS_DYNAMIC) || field->offset < 0 ||
	    field->size != 4 || record->size < field->offset + 4)
		return false;
	loc = tep_read_number(event->tep, (const char *)record->data + field->offset, 4);
	off = (unsigned)(loc & 0xffff);
	size = (unsigned)(loc >> 16);
	if (field->flags & TEP_FIELD_IS_RELATIVE)
		off += (unsigned)(field->offset + field->size);
	if (off > (unsigned)record->size || size > (unsigned)record->size - off)
		return false;
	*s = (const char *)record->data + off;
	*len = strnlen(*s, size);
	return true;
}

int uprobe_tep_record(struct tep_event *event, struct tep_record *record,
		      struct uprobe_scratch *s, const char **tracepoint,
		      const uint8_t **data, size_t *len)
{
	struct uprobe_fields f;
	struct tep_format_field *facility;
	unsigned long long v;

	if (event == NULL || event->system == NULL || event->name == NULL ||
	    !ehs_uprobe_group(event->system) || !ehs_uprobe_event(event->name, &f.level))
		return 0;
	facility = tep_find_field(event, "facility");
	if (facility == NULL || facility->size != 4 || facility->offset < 0 ||
	    record->size < facility->offset + 4 ||
	    tep_read_number_field(facility, record->data, &v) != 0 ||
	    !string_field(event, record, "name", &f.name, &f.name_len) ||
	    !string_field(event, record, "event", &f.event, &f.event_len))
		return 0;
	f.facility = (int)(int32_t)v;
	return uprobe_record(&f, s, tracepoint, data, len);
}
