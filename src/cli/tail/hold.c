/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/tail/hold.h"

static int make_room(struct hold *h)
{
	if (h->first > 0 && h->n == h->cap) {
		memmove(h->v, h->v + h->first, (h->n - h->first) * sizeof *h->v);
		h->n -= h->first;
		h->first = 0;
	}
	if (h->n < h->cap)
		return 0;

	size_t cap = h->cap ? h->cap * 2 : 64;
	struct held **v = reallocarray(h->v, cap, sizeof *v);

	if (v == NULL)
		return -1;
	h->v = v;
	h->cap = cap;
	return 0;
}

int hold_add(struct hold *h, struct tep_event *event, const struct tep_record *record, int cpu)
{
	if (record->size < 0) {
		errno = EINVAL;
		return -1;
	}

	struct held *r = malloc(sizeof *r + (size_t)record->size);

	if (r == NULL || make_room(h) < 0) {
		free(r);
		errno = ENOMEM;
		return -1;
	}
	r->event = event;
	r->ts = record->ts;
	r->missed = record->missed_events;
	r->cpu = cpu;
	r->size = record->size;
	memcpy(r->data, record->data, (size_t)record->size);

	/* A pass hands records over in time order already: the place is
	 * almost always the end. */
	size_t at = h->n;

	while (at > h->first && h->v[at - 1]->ts > r->ts)
		at--;
	memmove(h->v + at + 1, h->v + at, (h->n - at) * sizeof *h->v);
	h->v[at] = r;
	h->n++;
	return 0;
}

struct held *hold_oldest(const struct hold *h)
{
	return h->first < h->n ? h->v[h->first] : NULL;
}

void hold_drop_oldest(struct hold *h)
{
	free(h->v[h->first++]);
	if (h->first == h->n)
		h->first = h->n = 0;
}

void hold_record(const struct held *r, struct tep_record *out)
{
	memset(out, 0, sizeof *out);
	out->ts = r->ts;
	out->cpu = r->cpu;
	out->size = r->size;
	out->data = (void *)r->data;
	out->missed_events = r->missed;
}

void hold_free(struct hold *h)
{
	while (hold_oldest(h) != NULL)
		hold_drop_oldest(h);
	free(h->v);
	*h = (struct hold){ 0 };
}
