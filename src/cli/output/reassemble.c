/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ehsyslog/schema.h>

#include "cli/output/print.h"
#include "cli/output/reassemble.h"

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
	char *ident;	/* text: the event name */
	char *extras;	/* text: the first part's extras */
	char *msg;	/* the parts' message bytes, joined */
	size_t msg_len, msg_cap;
};

struct pending *reassemble_new(void)
{
	return calloc(OUT_PENDING_MAX, sizeof(struct pending));
}

static void pending_clear(struct pending *p)
{
	free(p->ident);
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

static int pending_print(struct out *o, struct pending *p)
{
	/* JSON: the first part's fields with the joined message.  Joined
	 * whole, the message is one event; one cut short keeps the first
	 * part's part and parts, to say so. */
	const struct eh_field_value joined[] = {
		{ EHS_FIELD_NAME_MESSAGE, p->msg, p->msg_len },
		{ EHS_FIELD_NAME_PART, NULL, 0 },
		{ EHS_FIELD_NAME_PARTS, NULL, 0 },
	};
	int rc;

	if (o->json && o->sink == NULL)
		rc = out_print_decoded(o, &p->first, joined, p->next > p->parts ? 3 : 1);
	else
		rc = out_print_syslog(o, &p->first, p->ident, strlen(p->ident), &p->f,
				      p->msg, p->msg_len, p->extras);
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

int reassemble_part(struct out *o, const struct read_event *ev,
		    const struct eh_event_view *view, const struct syslog_fields *f)
{
	static unsigned long seq;
	char key[sizeof ((struct pending *)0)->key];
	struct pending *p = NULL, *oldest = NULL;
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
		rc = out_print_decoded(o, ev, NULL, 0);
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
		if (!o->json || o->sink != NULL) {
			p->ident = strndup(view->event_name, view->name_len);
			/* export reads the fields from the first part itself */
			p->extras = o->sink != NULL ? strdup("") : out_extras_text(ev);
			if (p->ident == NULL || p->extras == NULL)
				goto nomem;
		}
	}
	if (!pending_append(p, f->message, f->message_len))
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
