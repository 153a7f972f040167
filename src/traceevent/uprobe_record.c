/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ehsyslog/schema.h>

#include <stdlib.h>
#include <string.h>

#include "traceevent/base64.h"
#include "traceevent/uprobe_group.h"
#include "traceevent/uprobe_record.h"

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
	keyword = f->facility >= 0 ? ehs_facility_keyword((unsigned)f->facility) : 0;
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

/* The string a __data_loc word loc points to in rec[0..size): its bytes
 * without the NUL the kernel stores; false if rec does not hold it.
 * off is where the offset in loc counts from. */
static bool data_loc_string(const uint8_t *rec, size_t size, uint32_t loc, size_t off,
			    const char **s, size_t *len)
{
	size_t at = off + (loc & 0xffff), n = loc >> 16;

	if (at > size || n > size - at)
		return false;
	*s = (const char *)rec + at;
	*len = strnlen(*s, n);
	return true;
}

/* A __data_loc string field of a libtraceevent record. */
static bool string_field(struct tep_event *event, struct tep_record *record, const char *name,
			 const char **s, size_t *len)
{
	struct tep_format_field *field = tep_find_field(event, name);
	unsigned long long loc;
	size_t off = 0;

	/* tep_read_number_field, not tep_read_number: perf exports only the
	 * former to plugins (traceevent/plugin_ehsyslog.c). */
	if (field == NULL || !(field->flags & TEP_FIELD_IS_DYNAMIC) || field->offset < 0 ||
	    field->size != 4 || record->size < field->offset + 4 ||
	    tep_read_number_field(field, record->data, &loc) != 0)
		return false;
	/* A relative one counts from the end of its own word. */
	if (field->flags & TEP_FIELD_IS_RELATIVE)
		off = (size_t)field->offset + 4;
	return data_loc_string(record->data, (size_t)record->size, (uint32_t)loc, off, s, len);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The record as the kernel lays out the definition ehs_uprobes.c writes:
 * the common fields (8 bytes), __probe_ip (an unsigned long: 8 bytes on
 * the 64-bit machines the definitions are made for), then one 4-byte
 * word per argument in the definition's order: message, name (__data_loc
 * words), severity, facility, errno (s32), event (__data_loc).
 */
enum {
	RAW_ARGS = 8 + 8,
	RAW_NAME = RAW_ARGS + 4,
	RAW_FACILITY = RAW_ARGS + 3 * 4,
	RAW_EVENT = RAW_ARGS + 5 * 4,
	RAW_FIXED = RAW_ARGS + 6 * 4,
};

int uprobe_raw_record(const char *system, const char *name, const uint8_t *raw, size_t size,
		      struct uprobe_scratch *s, const char **tracepoint,
		      const uint8_t **data, size_t *len)
{
	struct uprobe_fields f;

	if (!ehs_uprobe_group(system) || !ehs_uprobe_event(name, &f.level) || size < RAW_FIXED ||
	    !data_loc_string(raw, size, le32(raw + RAW_NAME), 0, &f.name, &f.name_len) ||
	    !data_loc_string(raw, size, le32(raw + RAW_EVENT), 0, &f.event, &f.event_len))
		return 0;
	f.facility = (int)(int32_t)le32(raw + RAW_FACILITY);
	return uprobe_record(&f, s, tracepoint, data, len);
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
