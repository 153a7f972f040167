/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/output/filter.h"
#include "cli/output/print.h"
#include "cli/output/reassemble.h"

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
	o->pending = reassemble_new();
	if (o->buf == NULL || o->pending == NULL) {
		out_free(o);
		return -1;
	}
	return 0;
}

void out_free(struct out *o)
{
	reassemble_free(o->pending);
	free(o->buf);
	o->pending = NULL;
	o->buf = NULL;
}

bool out_grow(char **buf, size_t *cap, size_t need)
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

long out_decode(struct out *o, const struct read_event *ev, bool json,
		const struct eh_field_value *fields, size_t n_fields)
{
	struct eh_record_info info = ev->info;
	size_t max = OUT_LINE_MAX;
	long n;

	for (size_t i = 0; i < n_fields; i++)
		max += 6 * fields[i].len;	/* eh_json_string's most */
	/* JSON's meta time is the wall clock where known, like perf-decode's;
	 * text lines carry their own time in front. */
	if (json && ev->has_wall)
		info.time_ns = ev->wall_ns;
	if (!json)
		info.has_time = false;
	for (;;) {
		n = json ? eh_decode_json_with(ev->tracepoint, ev->data, ev->len, &info,
					       EH_DECODE_DEFAULT, fields, n_fields, o->buf, o->cap)
			 : eh_decode_text(ev->tracepoint, ev->data, ev->len, &info,
					  EH_DECODE_DEFAULT, o->buf, o->cap);
		if (n != EH_E_NOSPACE || o->cap >= max)
			return n;
		if (!out_grow(&o->buf, &o->cap, o->cap * 2))
			return EH_E_NOSPACE;
	}
}

int out_print_decoded(struct out *o, const struct read_event *ev,
		      const struct eh_field_value *fields, size_t n_fields)
{
	char when[64];
	long n = out_decode(o, ev, o->json && o->sink == NULL, fields, n_fields);
	int rc;

	if (n < 0) {
		fprintf(stderr, "ehsyslog %s: %s: %s\n", o->cmd, ev->tracepoint, eh_strerror((int)n));
		o->bad++;
		return 0;
	}
	if (o->sink != NULL) {
		rc = o->sink(o->sink_ctx, ev, NULL, o->buf, (size_t)n);
		if (rc <= 0)
			return rc;
	} else if (o->json) {
		rc = fprintf(o->fp, "%.*s\n", (int)n, o->buf);
	} else {
		out_format_time(ev, when, sizeof when);
		rc = fprintf(o->fp, "%s %.*s\n", when, (int)n, o->buf);
	}
	if (rc < 0)
		return -1;
	o->printed++;
	return 1;
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
		rc = syslog_fields_read(&view, &f);
	if (rc < 0) {
		if (!filter_provider(o->filter, &tp))
			return 0;
		fprintf(stderr, "ehsyslog %s: %s: %s\n", o->cmd, ev->tracepoint, eh_strerror(rc));
		o->bad++;
		return 0;
	}
	if (!filter_wants(o->filter, &tp, &view, &f))
		return 0;
	if (o->fields)
		return out_print_decoded(o, ev, NULL, 0);
	if (syslog_fields_complete(&f) && f.parts != 0)
		return reassemble_part(o, ev, &view, &f);
	if (syslog_fields_complete(&f) && o->sink != NULL)
		return out_print_syslog(o, ev, view.event_name, view.name_len, &f,
					f.message, f.message_len, "");
	if (syslog_fields_complete(&f) && !o->json) {
		char *extras = out_extras_text(ev);

		if (extras == NULL) {
			fprintf(stderr, "ehsyslog %s: out of memory\n", o->cmd);
			return 0;
		}
		rc = out_print_syslog(o, ev, view.event_name, view.name_len, &f,
				      f.message, f.message_len, extras);
		free(extras);
		return rc;
	}
	return out_print_decoded(o, ev, NULL, 0);
}

int out_flush(struct out *o)
{
	int printed = reassemble_flush(o);

	if (printed < 0)
		return printed;
	if (o->fp != NULL && fflush(o->fp) != 0)
		return -1;
	return printed;
}
