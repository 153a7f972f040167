/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* strnvisx only; NetBSD's argument order for the strn* family. */
#define LIBBSD_NETBSD_VIS 1
#include <bsd/vis.h>

#include "cli/read/output.h"
#include "cli/provider.h"

/* Split messages of this many (program, thread) pairs can interleave. */
#define OUT_PENDING_MAX 32
/* Largest decoded event line accepted: far above what 64 KiB of event
 * can expand to. */
#define OUT_LINE_MAX (16u << 20)
/* vis flags: every byte that is not printable text becomes a C escape,
 * newline and tab included, so one event is always one line. */
#define VIS_FLAGS (VIS_CSTYLE | VIS_NL | VIS_TAB | VIS_OCTAL)

/* The syslog schema's fields (DESIGN.md), where the event has them. */
struct syslog_fields {
	bool has_message, has_severity, has_facility;
	const uint8_t *message;
	size_t message_len;
	unsigned severity, facility;
	unsigned part, parts;	/* 0 when the message is whole */
};

struct pending {
	bool used;
	unsigned long age;	/* order of the first part, to evict the oldest */
	char key[EH_NAME_MAX + EH_NAME_MAX];	/* tracepoint '\n' event name */
	uint32_t tid;
	unsigned parts, next;
	struct read_event first;	/* data and tracepoint not valid */
	struct syslog_fields f;	/* message not valid */
	char *head;	/* JSON: the first part's text before the message */
	char *tail;	/* JSON: after it; text: the ident */
	char *extras;	/* text: the first part's extras_text */
	char *msg;	/* raw bytes (text) or JSON-escaped (JSON) */
	size_t msg_len, msg_cap;
};

int filter_option(struct filter *f, int opt, const char *arg, const char *cmd)
{
	char *copy, *tok, *save;
	int v;

	switch (opt) {
	case 'P':
		if ((f->any_provider ? cli_check_recorded_provider(cmd, arg)
				     : cli_check_provider(cmd, arg)) != 0)
			return -1;
		f->provider = arg;
		return 1;
	case 'p':
		f->program = arg;
		return 1;
	case 's':
		v = syslog_severity_from_name(arg);
		if (v < 0) {
			fprintf(stderr, "ehsyslog %s: unknown severity '%s'\n", cmd, arg);
			return -1;
		}
		f->min_severity = v;
		return 1;
	case 'f':
		copy = strdup(arg);
		if (copy == NULL) {
			fprintf(stderr, "ehsyslog %s: %s\n", cmd, strerror(errno));
			return -1;
		}
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			v = syslog_facility_from_name(tok);
			if (v < 0) {
				fprintf(stderr, "ehsyslog %s: unknown facility '%s'\n", cmd, tok);
				free(copy);
				return -1;
			}
			facility_set_add(&f->facilities, (unsigned)v);
		}
		free(copy);
		return 1;
	}
	return 0;
}

int out_init(struct out *o, FILE *fp, const char *cmd, const struct filter *filter,
	     bool json, const char *host)
{
	memset(o, 0, sizeof *o);
	o->fp = fp;
	o->cmd = cmd;
	o->filter = filter;
	o->json = json;
	o->host = host != NULL && *host != '\0' ? host : "-";
	o->cap = 64 * 1024;
	o->buf = malloc(o->cap);
	o->pending = calloc(OUT_PENDING_MAX, sizeof *o->pending);
	if (o->buf == NULL || o->pending == NULL) {
		out_free(o);
		return -1;
	}
	return 0;
}

static void pending_clear(struct pending *p)
{
	free(p->head);
	free(p->tail);
	free(p->extras);
	free(p->msg);
	free(p->extras);
	memset(p, 0, sizeof *p);
}

void out_free(struct out *o)
{
	if (o->pending != NULL)
		for (int i = 0; i < OUT_PENDING_MAX; i++)
			pending_clear(&o->pending[i]);
	free(o->pending);
	free(o->buf);
	o->pending = NULL;
	o->buf = NULL;
}

static bool grow(char **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 256;
	char *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n);
	if (p == NULL)
		return false;
	*buf = p;
	*cap = n;
	return true;
}

static int read_fields(const struct eh_event_view *ev, struct syslog_fields *f)
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

static bool is_syslog(const struct syslog_fields *f)
{
	return f->has_message && f->has_severity && f->has_facility;
}

static bool wanted(const struct filter *flt, const struct eh_tracepoint *tp,
		   const struct eh_event_view *ev, const struct syslog_fields *f)
{
	if (flt->provider != NULL &&
	    (strlen(flt->provider) != tp->provider_len ||
	     memcmp(flt->provider, tp->provider, tp->provider_len) != 0))
		return false;
	if (flt->program != NULL &&
	    (strlen(flt->program) != ev->name_len ||
	     memcmp(flt->program, ev->event_name, ev->name_len) != 0))
		return false;
	if (flt->min_severity >= 0 &&
	    (!f->has_severity || f->severity > (unsigned)flt->min_severity))
		return false;
	if (!facility_set_empty(&flt->facilities) &&
	    (!f->has_facility || !facility_set_has(&flt->facilities, f->facility)))
		return false;
	return true;
}

/* RFC 3339 local time with microseconds (rsyslog's high-precision format)
 * when the wall time is known; else seconds on the trace clock. */
static void format_time(const struct read_event *ev, char *out, size_t cap)
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

	if (len > OUT_LINE_MAX / 4 || !grow(&o->buf, &o->cap, at + 4 * len + 1))
		return -1;
	n = strnvisx(o->buf + at, o->cap - at, src, len, VIS_FLAGS);
	if (n < 0)
		return -1;
	*outlen = (size_t)n;
	return 0;
}

/* The syslog fields a text line shows in its own way. */
static bool syslog_field(const char *name)
{
	static const char *const names[] = {
		"message", "severity", "facility", "errno", "part", "parts",
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/*
 * What a text line shows after the message: every other top-level field
 * of the event (error_at_line's file and line, the extra fields of
 * GLib's calls) as " [NAME=VALUE ...]": strings quoted and made safe
 * like the message, integers in decimal, anything else (binary fields)
 * as hex digits.  "" when there is none; NULL when out of memory.
 */
static char *extras_text(const struct read_event *ev)
{
	struct eh_event_view view;
	struct eh_cursor c;
	struct eh_item it;
	char *s = NULL;
	size_t cap = 0, len = 0;

	if (!grow(&s, &cap, 1))
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
		    !grow(&s, &cap, len + 4 * name_len + 4 * it.value_len + 32)) {
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

static int print_syslog_line(struct out *o, const struct read_event *ev,
			     const char *ident, size_t ident_len,
			     const struct syslog_fields *f, const void *msg, size_t msg_len,
			     const char *extras)
{
	char when[64], sev[16], fac[16];
	size_t ilen, mlen;
	const char *s;

	format_time(ev, when, sizeof when);
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

/* The event through eh_decode_json / eh_decode_text into o->buf, growing
 * it as needed.  Returns the length or a negative eh_error. */
static long decode_into(struct out *o, const struct read_event *ev, bool json)
{
	struct eh_record_info info = ev->info;
	long n;

	/* JSON's meta time is the wall clock where known, like perf-decode's;
	 * text lines carry their own time in front. */
	if (json && ev->has_wall)
		info.time_ns = ev->wall_ns;
	if (!json)
		info.has_time = false;
	for (;;) {
		n = json ? eh_decode_json(ev->tracepoint, ev->data, ev->len, &info,
					  EH_DECODE_DEFAULT, o->buf, o->cap)
			 : eh_decode_text(ev->tracepoint, ev->data, ev->len, &info,
					  EH_DECODE_DEFAULT, o->buf, o->cap);
		if (n != EH_E_NOSPACE || o->cap >= OUT_LINE_MAX)
			return n;
		if (!grow(&o->buf, &o->cap, o->cap * 2))
			return EH_E_NOSPACE;
	}
}

static int print_decoded(struct out *o, const struct read_event *ev)
{
	char when[64];
	long n = decode_into(o, ev, o->json);
	int rc;

	if (n < 0) {
		fprintf(stderr, "ehsyslog %s: %s: %s\n", o->cmd, ev->tracepoint, eh_strerror((int)n));
		o->bad++;
		return 0;
	}
	if (o->json) {
		rc = fprintf(o->fp, "%.*s\n", (int)n, o->buf);
	} else {
		format_time(ev, when, sizeof when);
		rc = fprintf(o->fp, "%s %.*s\n", when, (int)n, o->buf);
	}
	if (rc < 0)
		return -1;
	o->printed++;
	return 1;
}

/* Index just past the JSON string whose first character (after the
 * opening quote) is s[i]; 0 if it does not end within len. */
static size_t json_string_end(const char *s, size_t len, size_t i)
{
	for (; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return 0;
}

/* Finds the message value's text in perf-decode JSON of a syslog event:
 * {"n":"...","message":"<text>",...}.  message is the schema's first field. */
static bool json_message(const char *s, size_t len, size_t *start, size_t *end)
{
	static const char open[] = "{\"n\":\"", next[] = ",\"message\":\"";
	size_t i;

	if (len < sizeof open - 1 || memcmp(s, open, sizeof open - 1) != 0)
		return false;
	i = json_string_end(s, len, sizeof open - 1);
	if (i == 0 || len - i < sizeof next - 1 || memcmp(s + i, next, sizeof next - 1) != 0)
		return false;
	*start = i + sizeof next - 1;
	*end = json_string_end(s, len, *start);
	if (*end == 0)
		return false;
	(*end)--;	/* the closing quote stays in the tail */
	return true;
}

static int pending_print(struct out *o, struct pending *p)
{
	int rc;

	if (o->json) {
		rc = fprintf(o->fp, "%s%.*s%s\n", p->head, (int)p->msg_len, p->msg, p->tail) < 0 ? -1 : 1;
		if (rc > 0)
			o->printed++;
	} else {
		rc = print_syslog_line(o, &p->first, p->tail, strlen(p->tail), &p->f,
				       p->msg, p->msg_len, p->extras);
	}
	pending_clear(p);
	return rc;
}

static bool pending_append(struct pending *p, const void *b, size_t n)
{
	if (p->msg_len + n > OUT_LINE_MAX || !grow(&p->msg, &p->msg_cap, p->msg_len + n + 1))
		return false;
	memcpy(p->msg + p->msg_len, b, n);
	p->msg_len += n;
	return true;
}

/* The message bytes this part adds: raw, or JSON-escaped as the decoder
 * wrote them (escaped pieces concatenate to the escaped whole). */
static bool part_text(struct out *o, const struct read_event *ev,
		      const struct syslog_fields *f, const char **text, size_t *len,
		      size_t *start, size_t *end, long *jlen)
{
	if (!o->json) {
		*text = (const char *)f->message;
		*len = f->message_len;
		return true;
	}
	*jlen = decode_into(o, ev, true);
	if (*jlen < 0 || !json_message(o->buf, (size_t)*jlen, start, end))
		return false;
	*text = o->buf + *start;
	*len = *end - *start;
	return true;
}

static int split_event(struct out *o, const struct read_event *ev,
		       const struct eh_event_view *view, const struct syslog_fields *f)
{
	static unsigned long seq;
	char key[sizeof ((struct pending *)0)->key];
	struct pending *p = NULL, *oldest = NULL;
	const char *text;
	size_t len, start = 0, end = 0;
	long jlen = 0;
	int printed = 0, rc;

	snprintf(key, sizeof key, "%s\n%.*s", ev->tracepoint, (int)view->name_len, view->event_name);
	for (int i = 0; i < OUT_PENDING_MAX; i++) {
		struct pending *q = &o->pending[i];

		if (q->used && q->tid == ev->info.tid && strcmp(q->key, key) == 0)
			p = q;
	}
	/* A part out of sequence ends what was collected: print it as is. */
	if (p != NULL && (f->part != p->next || f->parts != p->parts)) {
		if ((rc = pending_print(o, p)) < 0)
			return rc;
		printed += rc;
		p = NULL;
	}
	if (p == NULL && f->part != 1) {
		rc = print_decoded(o, ev);
		return rc < 0 ? rc : printed + rc;
	}
	if (!part_text(o, ev, f, &text, &len, &start, &end, &jlen)) {
		rc = print_decoded(o, ev);	/* reports the error, if any */
		return rc < 0 ? rc : printed + rc;
	}
	if (p == NULL) {
		for (int i = 0; i < OUT_PENDING_MAX && p == NULL; i++)
			if (!o->pending[i].used)
				p = &o->pending[i];
			else if (oldest == NULL || o->pending[i].age < oldest->age)
				oldest = &o->pending[i];
		if (p == NULL) {
			if ((rc = pending_print(o, oldest)) < 0)
				return rc;
			printed += rc;
			p = oldest;
		}
		p->used = true;
		p->age = seq++;
		memcpy(p->key, key, sizeof key);
		p->tid = ev->info.tid;
		p->parts = f->parts;
		p->next = 1;
		p->first = *ev;
		p->first.data = NULL;
		p->first.tracepoint = NULL;
		p->f = *f;
		p->f.message = NULL;
		if (o->json) {
			p->head = strndup(o->buf, start);
			p->tail = strndup(o->buf + end, (size_t)jlen - end);
		} else {
			p->tail = strndup(view->event_name, view->name_len);
			p->extras = extras_text(ev);
		}
		if (p->tail == NULL || (o->json ? p->head == NULL : p->extras == NULL))
			goto nomem;
	}
	if (!pending_append(p, text, len))
		goto nomem;
	if (++p->next > p->parts) {
		rc = pending_print(o, p);
		return rc < 0 ? rc : printed + rc;
	}
	return printed;
nomem:
	fprintf(stderr, "ehsyslog %s: out of memory\n", o->cmd);
	pending_clear(p);
	return printed;
}

int out_event(struct out *o, const struct read_event *ev)
{
	struct eh_tracepoint tp;
	struct eh_event_view view;
	struct syslog_fields f;
	int rc;

	/* Not an EventHeader tracepoint: not ours to show. */
	if (eh_tracepoint_parse(ev->tracepoint, &tp) < 0)
		return 0;
	rc = eh_event_open(&view, ev->tracepoint, ev->data, ev->len);
	if (rc == 0)
		rc = read_fields(&view, &f);
	if (rc < 0) {
		if (o->filter->provider != NULL &&
		    (strlen(o->filter->provider) != tp.provider_len ||
		     memcmp(o->filter->provider, tp.provider, tp.provider_len) != 0))
			return 0;
		fprintf(stderr, "ehsyslog %s: %s: %s\n", o->cmd, ev->tracepoint, eh_strerror(rc));
		o->bad++;
		return 0;
	}
	if (!wanted(o->filter, &tp, &view, &f))
		return 0;
	if (o->fields)
		return print_decoded(o, ev);
	if (is_syslog(&f) && f.parts != 0)
		return split_event(o, ev, &view, &f);
	if (is_syslog(&f) && !o->json) {
		char *extras = extras_text(ev);

		if (extras == NULL) {
			fprintf(stderr, "ehsyslog %s: out of memory\n", o->cmd);
			return 0;
		}
		rc = print_syslog_line(o, ev, view.event_name, view.name_len, &f,
				       f.message, f.message_len, extras);
		free(extras);
		return rc;
	}
	return print_decoded(o, ev);
}

int out_flush(struct out *o)
{
	int printed = 0, rc;

	for (int i = 0; i < OUT_PENDING_MAX; i++) {
		if (!o->pending[i].used)
			continue;
		if ((rc = pending_print(o, &o->pending[i])) < 0)
			return rc;
		printed += rc;
	}
	if (fflush(o->fp) != 0)
		return -1;
	return printed;
}
