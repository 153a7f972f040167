/* SPDX-License-Identifier: MIT */
/* Syslog events as text lines, in the form rsyslog writes them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* strnvisx only; NetBSD's argument order for the strn* family. */
#define LIBBSD_NETBSD_VIS 1
#include <bsd/vis.h>

#include <ehsyslog/schema.h>

#include "cli/names.h"
#include "cli/output/print.h"

/* vis flags: every byte that is not printable text becomes a C escape,
 * newline and tab included, so one event is always one line. */
#define VIS_FLAGS (VIS_CSTYLE | VIS_NL | VIS_TAB | VIS_OCTAL)

/* RFC 3339 local time with microseconds (rsyslog's high-precision format)
 * when the wall time is known; else seconds on the trace clock. */
void out_format_time(const struct read_event *ev, char *out, size_t cap)
{
	struct tm tm;
	time_t t;
	char date[32], zone[8];

	if (!ev->has_wall) {
		snprintf(out, cap, "%llu.%06llu",
			 (unsigned long long)(ev->info.time_ns / 1000000000u),
			 (unsigned long long)(ev->info.time_ns % 1000000000u / 1000u));
		return;
	}
	t = (time_t)(ev->wall_ns / 1000000000u);
	if (localtime_r(&t, &tm) == NULL) {
		snprintf(out, cap, "%lld", (long long)t);
		return;
	}
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof zone, "%z", &tm);	/* +hhmm */
	snprintf(out, cap, "%s.%06llu%.3s:%.2s", date,
		 (unsigned long long)(ev->wall_ns % 1000000000u / 1000u), zone, zone + 3);
}

/* Makes bytes safe for a terminal into o->buf at offset at. */
static int vis_into(struct out *o, size_t at, const void *src, size_t len, size_t *outlen)
{
	int n;

	if (len > OUT_LINE_MAX / 4 || !out_grow(&o->buf, &o->cap, at + 4 * len + 1))
		return -1;
	n = strnvisx(o->buf + at, o->cap - at, src, len, VIS_FLAGS);
	if (n < 0)
		return -1;
	*outlen = (size_t)n;
	return 0;
}

/* The syslog fields a text line shows in its own way: all of the
 * schema's but file, line and unit, which it shows with the extras. */
static bool syslog_field(const char *name)
{
	int k = ehs_schema_find(name);

	return k >= 0 && k != EHS_FIELD_FILE && k != EHS_FIELD_LINE && k != EHS_FIELD_UNIT;
}

/*
 * The extras (error_at_line's file and line, the extra fields of GLib's
 * calls): strings quoted and made safe like the message, integers in
 * decimal, anything else (binary fields) as hex digits.
 */
char *out_extras_text(const struct read_event *ev)
{
	struct eh_event_view view;
	struct eh_cursor c;
	struct eh_item it;
	char *s = NULL;
	size_t cap = 0, len = 0;

	if (!out_grow(&s, &cap, 1))
		return NULL;
	s[0] = '\0';
	if (eh_event_open(&view, ev->tracepoint, ev->data, ev->len) < 0)
		return s;
	eh_cursor_init(&c, &view);
	while (eh_cursor_next(&c, &it) > 0) {
		unsigned enc = it.encoding & EH_ENC_VALUE_MASK;
		size_t name_len = strlen(it.name);

		if (it.kind != EH_ITEM_VALUE || it.depth != 0 ||
		    (it.encoding & EH_ENC_ARRAY_MASK) != 0 || syslog_field(it.name))
			continue;
		if (name_len > OUT_LINE_MAX / 8 || it.value_len > OUT_LINE_MAX / 8 ||
		    !out_grow(&s, &cap, len + 4 * name_len + 4 * it.value_len + 32)) {
			free(s);
			return NULL;
		}
		s[len++] = ' ';
		if (len == 1)
			s[len++] = '[';
		len += (size_t)strnvisx(s + len, cap - len, it.name, name_len, VIS_FLAGS);
		s[len++] = '=';
		if (enc == EH_ENC_STRING_LENGTH16_CHAR8 || enc == EH_ENC_ZSTRING_CHAR8) {
			s[len++] = '"';
			len += (size_t)strnvisx(s + len, cap - len, (const char *)it.value,
						it.value_len, VIS_FLAGS | VIS_DQ);
			s[len++] = '"';
		} else if (enc >= EH_ENC_VALUE8 && enc <= EH_ENC_VALUE64) {
			uint64_t v = 0;

			for (size_t i = it.value_len; i > 0; i--)
				v = v << 8 | it.value[i - 1];
			len += (size_t)snprintf(s + len, cap - len, "%" PRIu64, v);
		} else {
			for (size_t i = 0; i < it.value_len; i++)
				len += (size_t)snprintf(s + len, cap - len, "%02x", it.value[i]);
		}
		s[len] = '\0';
	}
	if (len) {
		s[len++] = ']';
		s[len] = '\0';
	}
	return s;
}

int out_print_syslog(struct out *o, const struct read_event *ev,
		     const char *ident, size_t ident_len,
		     const struct syslog_fields *f, const void *msg, size_t msg_len,
		     const char *extras)
{
	char when[64], sev[16], fac[16];
	size_t ilen, mlen;
	const char *s;

	if (o->sink != NULL) {
		int rc = o->sink(o->sink_ctx, ev, f, msg, msg_len);

		if (rc > 0)
			o->printed++;
		return rc;
	}
	out_format_time(ev, when, sizeof when);
	if ((s = syslog_severity_name(f->severity)) != NULL)
		snprintf(sev, sizeof sev, "%s", s);
	else
		snprintf(sev, sizeof sev, "%u", f->severity);
	if ((s = syslog_facility_name(f->facility)) != NULL)
		snprintf(fac, sizeof fac, "%s", s);
	else
		snprintf(fac, sizeof fac, "%u", f->facility);
	if (vis_into(o, 0, ident, ident_len, &ilen) < 0 ||
	    vis_into(o, ilen + 1, msg, msg_len, &mlen) < 0) {
		fprintf(stderr, "ehsyslog %s: out of memory\n", o->cmd);
		return 0;
	}
	if (fprintf(o->fp, "%s %s %.*s[%u]: %s.%s %.*s%s\n", when, o->host, (int)ilen,
		    o->buf, ev->info.pid, fac, sev, (int)mlen, o->buf + ilen + 1, extras) < 0)
		return -1;
	o->printed++;
	return 1;
}
