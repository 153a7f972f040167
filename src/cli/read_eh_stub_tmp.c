/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY stand-in for the eventheader decoder (branch decoder), so
 * the reading commands link before it lands.  It decodes
 * nothing: JSON is the tracepoint name, the byte count and the record's
 * meta.  The lead deletes this file at merge.
 */
#include <stdio.h>
#include <string.h>

#include <eventheader/eventheader.h>

int eh_event_open(struct eh_event_view *ev, const char *tracepoint_name,
		  const void *data, size_t len)
{
	(void)tracepoint_name;
	memset(ev, 0, sizeof *ev);
	ev->event_name = "";
	ev->meta = ev->meta_end = data;
	ev->payload = ev->payload_end = (const uint8_t *)data + len;
	return 0;
}

void eh_cursor_init(struct eh_cursor *c, const struct eh_event_view *ev)
{
	memset(c, 0, sizeof *c);
	c->ev = ev;
}

int eh_cursor_next(struct eh_cursor *c, struct eh_item *item)
{
	(void)c;
	(void)item;
	return 0;
}

static long stub(const char *tp, size_t len, const struct eh_record_info *info,
		 char *out, size_t cap)
{
	int n = snprintf(out, cap, "{\"n\":\"%s\",\"len\":%zu,\"meta\":{\"time\":%llu.%09llu,"
			 "\"cpu\":%d,\"pid\":%u,\"tid\":%u}}", tp, len,
			 (unsigned long long)(info->time_ns / 1000000000u),
			 (unsigned long long)(info->time_ns % 1000000000u),
			 info->cpu, info->pid, info->tid);

	return n < 0 || (size_t)n >= cap ? EH_E_NOSPACE : n;
}

long eh_decode_json(const char *tracepoint_name, const void *data, size_t len,
		    const struct eh_record_info *info, unsigned flags, char *out, size_t cap)
{
	(void)data;
	(void)flags;
	return stub(tracepoint_name, len, info, out, cap);
}

long eh_decode_text(const char *tracepoint_name, const void *data, size_t len,
		    const struct eh_record_info *info, unsigned flags, char *out, size_t cap)
{
	(void)data;
	(void)flags;
	return stub(tracepoint_name, len, info, out, cap);
}
