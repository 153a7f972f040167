/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ehsyslog/schema.h>

#include "cli/read/print.h"
#include "cli/read/reassemble.h"

/* Split messages of this many (program, thread) pairs can interleave. */
#define OUT_PENDING_MAX 32

struct pending {
	bool used;
	unsigned long age;	/* order of the first part, to evict the oldest */
	char key[EH_NAME_MAX + EH_NAME_MAX];	/* tracepoint '\n' event name */
	uint32_t tid;
	unsigned parts, next;
	struct read_event first;	/* data and tracepoint: the copies below */
	uint8_t *data;	/* the first part's bytes (export reads its fields) */
	char *tracepoint;
	struct syslog_fields f;	/* message not valid */
	char *head;	/* JSON: the first part's text before the message */
	char *tail;	/* JSON: after it; text: the ident */
	char *extras;	/* text: the first part's extras */
	char *msg;	/* raw bytes (text) or JSON-escaped (JSON) */
	size_t msg_len, msg_cap;
};

struct pending *reassemble_new(void)
{
	return calloc(OUT_PENDING_MAX, sizeof(struct pending));
}

static void pending_clear(struct pending *p)
{
	free(p->head);
	free(p->tail);
	free(p->extras);
	free(p->msg);
	free(p->data);
	free(p->tracepoint);
	memset(p, 0, sizeof *p);
}

void reassemble_free(struct pending *p)
{
	if (p != NULL)
		for (int i = 0; i < OUT_PENDING_MAX; i++)
			pending_clear(&p[i]);
	free(p);
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
	static const char open[] = "{\"n\":\"", next[] = ",\"" EHS_FIELD_NAME_MESSAGE "\":\"";
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

	if (o->json && o->sink == NULL) {
		rc = fprintf(o->fp, "%s%.*s%s\n", p->head, (int)p->msg_len, p->msg, p->tail) < 0 ? -1 : 1;
		if (rc > 0)
			o->printed++;
	} else {
		rc = out_print_syslog(o, &p->first, p->tail, strlen(p->tail), &p->f,
				      p->msg, p->msg_len, p->extras);
	}
	pending_clear(p);
	return rc;
}

static bool pending_append(struct pending *p, const void *b, size_t n)
{
	if (p->msg_len + n > OUT_LINE_MAX || !out_grow(&p->msg, &p->msg_cap, p->msg_len + n + 1))
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
	if (!o->json || o->sink != NULL) {
		*text = (const char *)f->message;
		*len = f->message_len;
		return true;
	}
	*jlen = out_decode(o, ev, true);
	if (*jlen < 0 || !json_message(o->buf, (size_t)*jlen, start, end))
		return false;
	*text = o->buf + *start;
	*len = *end - *start;
	return true;
}

int reassemble_part(struct out *o, const struct read_event *ev,
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
		rc = out_print_decoded(o, ev);
		return rc < 0 ? rc : printed + rc;
	}
	if (!part_text(o, ev, f, &text, &len, &start, &end, &jlen)) {
		rc = out_print_decoded(o, ev);	/* reports the error, if any */
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
		p->data = malloc(ev->len ? ev->len : 1);
		p->tracepoint = strdup(ev->tracepoint);
		if (p->data == NULL || p->tracepoint == NULL)
			goto nomem;
		memcpy(p->data, ev->data, ev->len);
		p->first.data = p->data;
		p->first.tracepoint = p->tracepoint;
		p->f = *f;
		p->f.message = NULL;
		if (o->json && o->sink == NULL) {
			p->head = strndup(o->buf, start);
			p->tail = strndup(o->buf + end, (size_t)jlen - end);
		} else {
			p->tail = strndup(view->event_name, view->name_len);
			/* export reads the fields from the first part itself */
			p->extras = o->sink != NULL ? strdup("") : out_extras_text(ev);
		}
		if (p->tail == NULL || (o->json && o->sink == NULL ? p->head == NULL : p->extras == NULL))
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

int reassemble_flush(struct out *o)
{
	int printed = 0, rc;

	for (int i = 0; i < OUT_PENDING_MAX; i++) {
		if (!o->pending[i].used)
			continue;
		if ((rc = pending_print(o, &o->pending[i])) < 0)
			return rc;
		printed += rc;
	}
	return printed;
}
