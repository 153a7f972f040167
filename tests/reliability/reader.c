/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "reliability/reader.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "eventheader/eventheader.h"

/* Takes the fixed schema apart: eventheader, extension blocks, then
 * message (u16 length + bytes), severity, facility, errno. */
static bool parse(const uint8_t *d, size_t len, struct rev *ev)
{
	size_t pos = 8;
	uint16_t size, kind, n;

	if (len < 8)
		return false;
	if (d[0] & 0x04) {
		do {
			if (len - pos < 4)
				return false;
			memcpy(&size, d + pos, 2);
			memcpy(&kind, d + pos + 2, 2);
			pos += 4;
			if (len - pos < size)
				return false;
			pos += size;
		} while (kind & 0x8000);
	}
	if (len - pos < 2)
		return false;
	memcpy(&n, d + pos, 2);
	pos += 2;
	if (len - pos < (size_t)n + 6)
		return false;
	ev->msg = (const char *)d + pos;
	ev->msg_len = n;
	pos += n;
	ev->severity = d[pos];
	ev->facility = d[pos + 1];
	memcpy(&ev->err, d + pos + 2, 4);
	return true;
}

struct drain {
	struct tep_handle *tep;
	rev_fn *fn;
	void *ctx;
	long n;
};

static int one(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	static char json[1 << 17];
	static const struct eh_record_info no_info;
	struct drain *d = ctx;
	struct rev ev = { 0 };
	const uint8_t *data = (const uint8_t *)record->data + 8;
	size_t len = record->size > 8 ? (size_t)record->size - 8 : 0;

	(void)cpu;
	snprintf(ev.name, sizeof ev.name, "%s", event->name);
	ev.pid = tep_data_pid(d->tep, record);
	ev.ts = record->ts;
	if (!parse(data, len, &ev)) {
		ev.msg = NULL;	/* the caller counts it as broken */
		ev.msg_len = 0;
	}
	ev.decoded = eh_decode_json(ev.name, data, len, &no_info, EH_DECODE_DEFAULT,
				    json, sizeof json) >= 0;
	d->fn(&ev, d->ctx);
	d->n++;
	return 0;
}

void reader_open(struct reader *r, const char *name, unsigned buf_kb)
{
	char kb[32];

	snprintf(r->name, sizeof r->name, "%s", name);
	tracefs_instance_destroy(tracefs_instance_alloc(NULL, name));
	r->inst = tracefs_instance_create(name);
	ck_assert_ptr_nonnull(r->inst);
	if (buf_kb) {
		snprintf(kb, sizeof kb, "%u", buf_kb);
		ck_assert_int_gt(tracefs_instance_file_write(r->inst, "buffer_size_kb", kb), 0);
	}
}

void reader_enable(struct reader *r, const char *tp)
{
	ck_assert_msg(tracefs_event_enable(r->inst, "user_events", tp) == 0,
		      "cannot enable user_events:%s", tp);
}

long reader_drain(struct reader *r, rev_fn *fn, void *ctx)
{
	const char *systems[] = { "user_events", NULL };
	struct drain d = { .fn = fn, .ctx = ctx };

	d.tep = tracefs_local_events_system(NULL, systems);
	ck_assert_ptr_nonnull(d.tep);
	ck_assert_int_eq(tracefs_iterate_raw_events(d.tep, r->inst, NULL, 0, one, &d), 0);
	tep_free(d.tep);
	return d.n;
}

static unsigned long long stat_of(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

unsigned long long reader_lost(struct reader *r)
{
	unsigned long long lost = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char file[64];

	for (long cpu = 0; cpu < ncpu; cpu++) {
		snprintf(file, sizeof file, "per_cpu/cpu%ld/stats", cpu);
		char *s = tracefs_instance_file_read(r->inst, file, NULL);
		if (!s)
			continue;
		lost += stat_of(s, "overrun: ") + stat_of(s, "dropped events: ");
		free(s);
	}
	return lost;
}

char *reader_dir(struct reader *r)
{
	return tracefs_instance_get_dir(r->inst);
}

void reader_close(struct reader *r)
{
	tracefs_instance_destroy(r->inst);
	tracefs_instance_free(r->inst);
	r->inst = NULL;
}

void revs_collect(const struct rev *ev, void *ctx)
{
	struct revs *s = ctx;
	struct rev *e;
	char *copy;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		ck_assert_ptr_nonnull(s->v);
	}
	e = &s->v[s->n++];
	*e = *ev;
	if (ev->msg) {
		copy = malloc(ev->msg_len + 1);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, ev->msg, ev->msg_len);
		copy[ev->msg_len] = '\0';
		e->msg = copy;
	}
}

static int by_time(const void *a, const void *b)
{
	const struct rev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void revs_sort(struct revs *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof *s->v, by_time);
}

void revs_free(struct revs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free((char *)s->v[i].msg);
	free(s->v);
	memset(s, 0, sizeof *s);
}

size_t revs_count(const struct revs *s, int pid, const char *text)
{
	size_t n = 0, len = strlen(text);

	for (size_t i = 0; i < s->n; i++) {
		const struct rev *e = &s->v[i];
		if ((pid == 0 || e->pid == pid) && e->msg && e->decoded &&
		    e->msg_len == len && memcmp(e->msg, text, len) == 0)
			n++;
	}
	return n;
}
