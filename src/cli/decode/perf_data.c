/* SPDX-License-Identifier: MIT */
/*
 * perf.data layout (tools/perf/Documentation/perf.data-file-format.txt):
 * a header naming three sections (attrs, data, unused event types) and a
 * feature bitmap; one perf_file_attr per event (perf_event_attr + a
 * section of sample ids); the data section's records; then one section
 * descriptor per feature bit, in bit order, after the data.  With
 * `perf record -z` most records of the data section sit inside
 * PERF_RECORD_COMPRESSED records (see perf_unzip.h).
 *
 * Everything is read through bounds-checked helpers: an offset or size
 * taken from the file is never trusted.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/decode/perf_data.h"
#include "cli/decode/perf_unzip.h"
#include "cli/decode/span.h"
#include "traceevent/uprobe_group.h"
#include "traceevent/uprobe_record.h"

enum {
	HEADER_SIZE = 104,
	ATTR_SIZE_VER0 = 64,	/* smallest perf_event_attr */
	FEAT_HOSTNAME = 3,
	FEAT_EVENT_DESC = 12,
	FEAT_CLOCK_DATA = 29,
	FEAT_BITS = 256,
	PERF_TYPE_TRACEPOINT = 2,
	ATTR_SAMPLE_ID_ALL = 1u << 18,	/* in perf_event_attr's flags */
	PERF_RECORD_LOST = 2,	/* u64 id, u64 lost, sample_id */
	PERF_RECORD_SAMPLE = 9,
	PERF_RECORD_LOST_SAMPLES = 13,	/* u64 lost, sample_id */
	/* LOST_SAMPLES of samples a BPF filter dropped, not a full buffer */
	PERF_RECORD_MISC_LOST_SAMPLES_BPF = 1u << 15,
	PERF_RECORD_KERNEL_LAST = 21,	/* PERF_RECORD_AUX_OUTPUT_HW_ID */
	PERF_RECORD_USER_FIRST = 64,	/* perf's own records */
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_COMPRESSED2 = 83,	/* u64 payload size, then payload */
	PERF_RECORD_USER_LAST = 84,	/* PERF_RECORD_BPF_METADATA */
	MAX_ATTRS = 65536,
};

const char *const perf_skip_reason[PERF_SKIPS] = {
	[PERF_SKIP_CUT] = "cut by the end of the file",
	[PERF_SKIP_MALFORMED] = "malformed",
	[PERF_SKIP_UNZIP] = "not decompressible",
	[PERF_SKIP_UNNAMED] = "without event names",
	[PERF_SKIP_UNKNOWN_ID] = "of an unknown event id",
	[PERF_SKIP_NO_RAW] = "without raw data",
	[PERF_SKIP_UNKNOWN_TYPE] = "of an unknown record type",
};

enum {
	S_IP = 1u << 0, S_TID = 1u << 1, S_TIME = 1u << 2, S_ADDR = 1u << 3,
	S_READ = 1u << 4, S_CALLCHAIN = 1u << 5, S_ID = 1u << 6, S_CPU = 1u << 7,
	S_PERIOD = 1u << 8, S_STREAM_ID = 1u << 9, S_RAW = 1u << 10,
	S_IDENTIFIER = 1u << 16,
};

enum {
	R_TOTAL_TIME_ENABLED = 1, R_TOTAL_TIME_RUNNING = 2, R_ID = 4,
	R_GROUP = 8, R_LOST = 16,
};

/* Common fields of a tracepoint's raw data, before the user_event's own. */
#define TRACE_COMMON_SIZE 8
#define SYSTEM_PREFIX "user_events:"

struct attr {
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	uint64_t read_format;
	bool sample_id_all;	/* other records end with the sample's ids */
	const char *tracepoint;	/* after "user_events:", or NULL */
	/* One of the library's uprobe events (traceevent/uprobe_record.h): its group
	 * and event name; tracepoint is NULL then. */
	const char *uprobe_group, *uprobe_event;
};

struct id_map {
	uint64_t id;
	size_t attr;
};

/* A user_events sample, or a LOST record (lost != 0, raw NULL). */
struct sample {
	uint64_t time;
	size_t order;	/* file order, for a stable sort */
	size_t attr;
	uint32_t pid, tid, cpu;
	const uint8_t *raw;
	uint32_t raw_len;
	uint64_t lost;
	int lost_cpu;	/* -1: not recorded */
};

struct reader {
	const uint8_t *p;
	size_t len;
	char *err;
	size_t errlen;
	struct attr *attrs;
	size_t nattrs;
	struct id_map *ids;
	size_t nids;
	char **names;	/* owned copies of the event names */
	size_t nnames;
	bool has_clock;
	int64_t clock_offset;	/* wall - perf clock, ns */
	bool cut;	/* the file ends before the end its header gives */
	bool names_lost;	/* cut before HEADER_EVENT_DESC */
	unsigned long *skipped;	/* perf_data_info.skipped */
	struct perf_unzip unzip;
	struct sample *samples;	/* ours, in file order */
	size_t nsamples, capsamples;
	uint64_t last_time;	/* of the last one added */
	uint64_t lost_records;	/* what PERF_RECORD_LOSTs count */
	uint64_t lost_totals;	/* what perf's closing LOST_SAMPLES count */
	struct uprobe_scratch scratch;	/* a uprobe sample's decoded event */
};

__attribute__((format(printf, 2, 3)))
static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* true if [off, off+n) lies within the file. */
static bool in_file(const struct reader *r, uint64_t off, uint64_t n)
{
	return off <= r->len && n <= r->len - off;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static bool take32(struct span *s, uint32_t *v)
{
	const uint8_t *p;

	if (!take(s, 4, &p))
		return false;
	*v = rd32(p);
	return true;
}

static bool take64(struct span *s, uint64_t *v)
{
	const uint8_t *p;

	if (!take(s, 8, &p))
		return false;
	*v = rd64(p);
	return true;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int read_attrs(struct reader *r, uint64_t attr_size, uint64_t off, uint64_t size)
{
	size_t total = 0;

	if (attr_size < ATTR_SIZE_VER0 + 16 || attr_size > 4096)
		return fail(r, "bad attribute size %llu", (unsigned long long)attr_size);
	if (!in_file(r, off, size) || size % attr_size != 0 || size == 0)
		return fail(r, "attribute section outside the file");
	r->nattrs = size / attr_size;
	if (r->nattrs > MAX_ATTRS)
		return fail(r, "too many attributes");
	r->attrs = calloc(r->nattrs, sizeof *r->attrs);
	if (r->attrs == NULL)
		return fail(r, "out of memory");
	/* Two passes: the ids are counted and checked first, then copied
	 * into one allocation (growing it per attribute costs n squared
	 * where realloc cannot extend in place). */
	for (size_t i = 0; i < r->nattrs; i++) {
		const uint8_t *a = r->p + off + i * attr_size;
		uint64_t ids_off = rd64(a + attr_size - 16), ids_size = rd64(a + attr_size - 8);

		r->attrs[i].type = rd32(a);
		r->attrs[i].config = rd64(a + 8);
		r->attrs[i].sample_type = rd64(a + 24);
		r->attrs[i].read_format = rd64(a + 32);
		r->attrs[i].sample_id_all = (rd64(a + 40) & ATTR_SAMPLE_ID_ALL) != 0;
		if (ids_size == 0)
			continue;
		if (!in_file(r, ids_off, ids_size) || ids_size % 8 != 0)
			return fail(r, "sample ids of attribute %zu outside the file", i);
		/* Each attribute has ids of its own: together no more than the
		 * file holds (ids shared between attributes would multiply). */
		if (ids_size / 8 > r->len / 8 - total)
			return fail(r, "sample ids of attribute %zu overlap others'", i);
		total += ids_size / 8;
	}
	if (total == 0)
		return 0;
	r->ids = calloc(total, sizeof *r->ids);
	if (r->ids == NULL)
		return fail(r, "out of memory");
	for (size_t i = 0; i < r->nattrs; i++) {
		const uint8_t *a = r->p + off + i * attr_size;
		uint64_t ids_off = rd64(a + attr_size - 16), n = rd64(a + attr_size - 8) / 8;

		for (uint64_t k = 0; k < n; k++) {
			r->ids[r->nids].id = rd64(r->p + ids_off + 8 * k);
			r->ids[r->nids++].attr = i;
		}
	}
	qsort(r->ids, r->nids, sizeof *r->ids, cmp_id);
	return 0;
}

/* A perf_header_string: u32 length, then that many bytes holding a
 * NUL-terminated string (padded). */
static bool take_string(struct span *s, const char **str)
{
	uint32_t n;
	const uint8_t *p;

	if (!take32(s, &n) || !take(s, n, &p) || n == 0 || memchr(p, '\0', n) == NULL)
		return false;
	*str = (const char *)p;
	return true;
}

/* An event description naming one of our events: user_events' or the
 * library's uprobe events'. */
struct desc {
	uint64_t config;
	uint32_t order;	/* in the file: the first one of a config names it */
	const char *name;	/* NUL-terminated, in the file */
};

static int cmp_desc(const void *a, const void *b)
{
	const struct desc *x = a, *y = b;

	if (x->config != y->config)
		return x->config < y->config ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Whether name, "SYSTEM:EVENT", is one of ours. */
static bool our_event(const char *name)
{
	const char *colon = strchr(name, ':');
	char group[EHS_UPROBE_GROUP_MAX];

	if (colon == NULL)
		return false;
	if (strncmp(name, SYSTEM_PREFIX, sizeof SYSTEM_PREFIX - 1) == 0)
		return true;
	snprintf(group, sizeof group, "%.*s", (int)(colon - name), name);
	return ehs_uprobe_group(group) && strlen(group) == (size_t)(colon - name) &&
	       ehs_uprobe_event(colon + 1, NULL);
}

/* Names attribute at after desc d (its copy owned by r). */
static int name_attr(struct reader *r, struct attr *at, const struct desc *d)
{
	bool user_events = strncmp(d->name, SYSTEM_PREFIX, sizeof SYSTEM_PREFIX - 1) == 0;
	char *copy = strdup(user_events ? d->name + sizeof SYSTEM_PREFIX - 1 : d->name);
	char *colon;

	if (copy == NULL)
		return fail(r, "out of memory");
	r->names[r->nnames++] = copy;
	if (user_events) {
		at->tracepoint = copy;
	} else {
		colon = strchr(copy, ':');
		*colon = '\0';
		at->uprobe_group = copy;
		at->uprobe_event = colon + 1;
	}
	return 0;
}

/*
 * HEADER_EVENT_DESC names each event: matched to the attributes by type
 * and config (a tracepoint's config is its id).  Sorted by config and
 * searched, so that a file of many events costs n log n, not n squared.
 */
static int read_event_desc(struct reader *r, struct span s)
{
	struct desc *descs, key;
	uint32_t nr, attr_sz;
	size_t nd = 0;
	int rc = 0;

	if (!take32(&s, &nr) || !take32(&s, &attr_sz) || attr_sz < ATTR_SIZE_VER0)
		return fail(r, "malformed event description");
	/* perf describes each attribute once; more is a damaged file. */
	if (nr > r->nattrs)
		return fail(r, "more event descriptions than events");
	r->names = calloc(r->nattrs, sizeof *r->names);
	descs = calloc(nr ? nr : 1, sizeof *descs);
	if (r->names == NULL || descs == NULL) {
		free(descs);
		return fail(r, "out of memory");
	}
	for (uint32_t i = 0; i < nr; i++) {
		const uint8_t *a;
		const char *name;
		uint32_t nr_ids;

		if (!take(&s, attr_sz, &a) || !take32(&s, &nr_ids) || !take_string(&s, &name) ||
		    nr_ids > s.left / 8 || !take(&s, (size_t)nr_ids * 8, NULL)) {
			free(descs);
			return fail(r, "malformed event description %u", i);
		}
		if (rd32(a) == PERF_TYPE_TRACEPOINT && our_event(name))
			descs[nd++] = (struct desc){ .config = rd64(a + 8), .order = i, .name = name };
	}
	if (nd > 0)	/* (qsort's base must not be NULL) */
		qsort(descs, nd, sizeof *descs, cmp_desc);
	for (size_t k = 0; k < r->nattrs && rc == 0 && nd > 0; k++) {
		struct attr *at = &r->attrs[k];
		size_t lo = 0, hi = nd;

		if (at->type != PERF_TYPE_TRACEPOINT)
			continue;
		/* The first description of at's config (order 0 sorts first). */
		key = (struct desc){ .config = at->config };
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_desc(&descs[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nd && descs[lo].config == at->config)
			rc = name_attr(r, at, &descs[lo]);
	}
	free(descs);
	return rc;
}

static int read_features(struct reader *r, const uint8_t *bitmap, uint64_t after_data,
			 struct perf_data_info *info)
{
	uint64_t at = after_data;
	bool have_desc = false;

	for (unsigned bit = 0; bit < FEAT_BITS; bit++) {
		uint64_t off, size;
		struct span s;
		const char *str;
		int rc;

		if (!(bitmap[bit / 8] >> (bit % 8) & 1))
			continue;
		/* Past the end of the file: the file was cut; what it still
		 * holds is read, the rest counted as skipped. */
		if (!in_file(r, at, 16)) {
			r->cut = true;
			break;
		}
		off = rd64(r->p + at);
		size = rd64(r->p + at + 8);
		at += 16;
		if (!in_file(r, off, size)) {
			r->cut = true;
			break;
		}
		s.p = r->p + off;
		s.left = size;
		switch (bit) {
		case FEAT_HOSTNAME:
			if (take_string(&s, &str))
				snprintf(info->host, sizeof info->host, "%s", str);
			break;
		case FEAT_EVENT_DESC:
			if ((rc = read_event_desc(r, s)) < 0)
				return rc;
			have_desc = true;
			break;
		case FEAT_CLOCK_DATA:
			/* u32 version, u32 clockid, u64 wall ns, u64 perf clock ns,
			 * sampled together when recording started. */
			if (size >= 24 && rd32(s.p) >= 1) {
				r->has_clock = true;
				r->clock_offset = (int64_t)(rd64(s.p + 8) - rd64(s.p + 16));
			}
			break;
		}
	}
	if (!have_desc && !r->cut)
		return fail(r, "no event names (perf.data without HEADER_EVENT_DESC)");
	r->names_lost = !have_desc;
	return 0;
}

static const struct attr *attr_of_id(const struct reader *r, uint64_t id, size_t *index)
{
	struct id_map key = { .id = id }, *m;

	if (r->nids == 0)	/* (bsearch may not take a NULL base either) */
		return NULL;
	m = bsearch(&key, r->ids, r->nids, sizeof *r->ids, cmp_id);
	if (m == NULL)
		return NULL;
	*index = m->attr;
	return &r->attrs[m->attr];
}

/* Which attribute a sample belongs to: with one attribute, that one;
 * else by its id, found where the first attribute's sample_type puts it
 * (perf requires every event of a file to place it alike). */
static const struct attr *sample_attr(const struct reader *r, struct span s, size_t *index)
{
	uint64_t st = r->attrs[0].sample_type, id;
	size_t skip = 0;

	if (r->nattrs == 1) {
		*index = 0;
		return &r->attrs[0];
	}
	if (!(st & S_IDENTIFIER)) {
		if (!(st & S_ID))
			return NULL;
		skip = 8 * (!!(st & S_IP) + !!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ADDR));
	}
	if (!take(&s, skip, NULL) || !take64(&s, &id))
		return NULL;
	return attr_of_id(r, id, index);
}

static bool skip_read(struct span *s, uint64_t rf)
{
	uint64_t nr = 1, per = 8 * (1 + !!(rf & R_ID) + !!(rf & R_LOST));
	size_t times = 8 * (!!(rf & R_TOTAL_TIME_ENABLED) + !!(rf & R_TOTAL_TIME_RUNNING));

	if (rf & R_GROUP) {
		if (!take64(s, &nr) || !take(s, times, NULL))
			return false;
		return nr <= s->left / per && take(s, nr * per, NULL);
	}
	return take(s, per + times, NULL);
}

/* Parses one PERF_RECORD_SAMPLE body.  Returns 1 with *out filled for a
 * user_events tracepoint sample, 0 for another event's sample, or -1
 * with *why set for a sample that cannot be decoded. */
static int parse_sample(const struct reader *r, struct span s, struct sample *out,
			enum perf_skip *why)
{
	const struct attr *a = sample_attr(r, s, &out->attr);
	uint64_t st, v;
	const uint8_t *p;

	*why = PERF_SKIP_MALFORMED;
	if (a == NULL) {
		/* With several events, an id none of them has: it may be ours. */
		if (r->nattrs > 1)
			*why = PERF_SKIP_UNKNOWN_ID;
		return -1;
	}
	if (r->names_lost && a->type == PERF_TYPE_TRACEPOINT) {
		*why = PERF_SKIP_UNNAMED;
		return -1;
	}
	if (a->tracepoint == NULL && a->uprobe_group == NULL)
		return 0;
	st = a->sample_type;
	if (!(st & S_RAW)) {
		*why = PERF_SKIP_NO_RAW;
		return -1;
	}
	if ((st & S_IDENTIFIER) && !take(&s, 8, NULL))
		return -1;
	if ((st & S_IP) && !take(&s, 8, NULL))
		return -1;
	if (st & S_TID) {
		if (!take32(&s, &out->pid) || !take32(&s, &out->tid))
			return -1;
	}
	if ((st & S_TIME) && !take64(&s, &out->time))
		return -1;
	if ((st & S_ADDR) && !take(&s, 8, NULL))
		return -1;
	if ((st & S_ID) && !take(&s, 8, NULL))
		return -1;
	if ((st & S_STREAM_ID) && !take(&s, 8, NULL))
		return -1;
	if (st & S_CPU) {
		if (!take32(&s, &out->cpu) || !take(&s, 4, NULL))
			return -1;
	}
	if ((st & S_PERIOD) && !take(&s, 8, NULL))
		return -1;
	if ((st & S_READ) && !skip_read(&s, a->read_format))
		return -1;
	if (st & S_CALLCHAIN) {
		if (!take64(&s, &v) || v > s.left / 8 || !take(&s, v * 8, NULL))
			return -1;
	}
	if (!take32(&s, &out->raw_len) || !take(&s, out->raw_len, &p) ||
	    out->raw_len < TRACE_COMMON_SIZE)
		return -1;
	out->raw = p;
	return 1;
}

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Keeps smp, in file order. */
static int keep(struct reader *r, const struct sample *smp)
{
	struct sample *grown;

	if (r->nsamples == r->capsamples) {
		size_t cap = r->capsamples ? 2 * r->capsamples : 256;

		grown = realloc(r->samples, cap * sizeof *r->samples);
		if (grown == NULL)
			return fail(r, "out of memory");
		r->samples = grown;
		r->capsamples = cap;
	}
	r->samples[r->nsamples] = *smp;
	r->samples[r->nsamples].order = r->nsamples;
	r->nsamples++;
	r->last_time = smp->time;
	return 0;
}

static int add_sample(struct reader *r, struct span body)
{
	struct sample smp = { 0 };
	enum perf_skip why;

	switch (parse_sample(r, body, &smp, &why)) {
	case -1:
		r->skipped[why]++;
		return 0;
	case 0:
		return 0;
	}
	return keep(r, &smp);
}

/*
 * The sample_id fields that end a record other than a sample when its
 * event has sample_id_all: its time and CPU into out, where recorded
 * (true if the time was).  The event is found by its id as a sample's
 * is.  own: the bytes of the record's own fields, before them.
 */
static bool record_ids(const struct reader *r, struct span body, size_t own, struct sample *out)
{
	const struct attr *a = &r->attrs[0];
	uint64_t st = a->sample_type;
	size_t at, n, index;

	if (r->nattrs > 1) {
		/* IDENTIFIER is the last field; ID comes before STREAM_ID and CPU. */
		size_t from_end = (st & S_IDENTIFIER) ? 8 :
				  8 * (1 + !!(st & S_STREAM_ID) + !!(st & S_CPU));

		if (!(st & (S_IDENTIFIER | S_ID)) || body.left < own + from_end)
			return false;
		a = attr_of_id(r, rd64(body.p + body.left - from_end), &index);
		if (a == NULL)
			return false;
		st = a->sample_type;
	}
	n = 8 * (!!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ID) + !!(st & S_STREAM_ID) +
		 !!(st & S_CPU) + !!(st & S_IDENTIFIER));
	if (!a->sample_id_all || body.left < own + n)
		return false;
	at = body.left - n + 8 * !!(st & S_TID);
	if (st & S_TIME) {
		out->time = rd64(body.p + at);
		at += 8;
	}
	at += 8 * (!!(st & S_ID) + !!(st & S_STREAM_ID));
	if (st & S_CPU)
		out->lost_cpu = (int)(rd32(body.p + at) & 0x7fffffff);
	return (st & S_TIME) != 0;
}

/*
 * A PERF_RECORD_LOST (the kernel's: its ring buffer was full, for
 * records of any kind) or PERF_RECORD_LOST_SAMPLES, kept as a marker
 * among the samples.  Sorted by the time it was written where recorded
 * (the LOST before the next record of its buffer), else at the time of
 * the one before it in the file.  The LOST_SAMPLES with time 0 are the
 * totals perf 6.0 and later writes per event as recording ends (from
 * PERF_FORMAT_LOST): the same losses as the LOSTs, and those after the
 * last of them, which no LOST marks (the kernel writes one only once
 * its buffer has room again); summed, for read_data.
 */
static int add_lost(struct reader *r, uint32_t type, uint16_t misc, struct span body)
{
	struct sample lost = { .time = r->last_time, .lost_cpu = -1 };
	size_t own = type == PERF_RECORD_LOST ? 16 : 8;

	if (body.left < own) {
		r->skipped[PERF_SKIP_MALFORMED]++;
		return 0;
	}
	if (type == PERF_RECORD_LOST_SAMPLES && (misc & PERF_RECORD_MISC_LOST_SAMPLES_BPF))
		return 0;	/* filtered out on purpose */
	lost.lost = rd64(body.p + own - 8);
	if (lost.lost == 0)
		return 0;
	if (record_ids(r, body, own, &lost) && lost.time == 0 && type == PERF_RECORD_LOST_SAMPLES) {
		r->lost_totals += lost.lost;
		return 0;
	}
	if (type == PERF_RECORD_LOST)
		r->lost_records += lost.lost;
	return keep(r, &lost);
}

/* A compressed record's payload, fed to the file's one zstd stream. */
static void unzip_record(struct reader *r, uint32_t type, struct span body)
{
	uint64_t n = body.left;

	if (type == PERF_RECORD_COMPRESSED2 && (!take64(&body, &n) || n > body.left)) {
		r->skipped[PERF_SKIP_MALFORMED]++;
		return;
	}
	if (perf_unzip_feed(&r->unzip, body.p, (size_t)n) < 0)
		r->skipped[PERF_SKIP_UNZIP]++;
}

static bool known_type(uint32_t type)
{
	return (type >= 1 && type <= PERF_RECORD_KERNEL_LAST) ||
	       (type >= PERF_RECORD_USER_FIRST && type <= PERF_RECORD_USER_LAST);
}

/*
 * The records in p[0..len): the data section (outer), or what its
 * compressed records decompressed to.  Samples are collected; compressed
 * records (outer only) are decompressed into r->unzip; anything not
 * decoded is counted.  A record running past len ends the scan: its size
 * cannot be trusted, so neither can where the next would start.
 */
static int scan_records(struct reader *r, const uint8_t *p, size_t len, bool outer)
{
	size_t at = 0;

	while (at < len) {
		uint32_t type;
		uint16_t rsize, misc;
		struct span body;

		if (len - at < 8 || (rsize = (uint16_t)(p[at + 6] | p[at + 7] << 8)) > len - at) {
			/* Cut with the file (counted once, as the file's) or
			 * with a broken zstd stream (counted as that). */
			if (!r->cut && !(!outer && r->unzip.broken))
				r->skipped[PERF_SKIP_MALFORMED]++;
			return 0;
		}
		if (rsize < 8) {
			r->skipped[PERF_SKIP_MALFORMED]++;
			return 0;
		}
		type = rd32(p + at);
		misc = (uint16_t)(p[at + 4] | p[at + 5] << 8);
		body.p = p + at + 8;
		body.left = rsize - 8u;
		at += rsize;
		if (type == PERF_RECORD_SAMPLE) {
			if (add_sample(r, body) < 0)
				return -1;
		} else if (type == PERF_RECORD_LOST || type == PERF_RECORD_LOST_SAMPLES) {
			if (add_lost(r, type, misc, body) < 0)
				return -1;
		} else if (outer && (type == PERF_RECORD_COMPRESSED || type == PERF_RECORD_COMPRESSED2)) {
			unzip_record(r, type, body);
		} else if (!known_type(type) || type == PERF_RECORD_COMPRESSED ||
			   type == PERF_RECORD_COMPRESSED2) {
			/* (perf never compresses compressed records) */
			r->skipped[PERF_SKIP_UNKNOWN_TYPE]++;
		}
	}
	return 0;
}

static int read_data(struct reader *r, uint64_t off, uint64_t size, struct perf_data_info *info,
		     perf_data_cb cb, read_lost_cb lost, void *ctx)
{
	int rc = scan_records(r, r->p + off, size, true);
	uint64_t after;

	if (rc == 0 && r->unzip.len > 0)
		rc = scan_records(r, r->unzip.out, r->unzip.len, false);
	if (rc < 0)
		return rc;
	/* What perf's closing totals hold beyond the LOSTs: lost at the end. */
	after = r->lost_totals > r->lost_records ? r->lost_totals - r->lost_records : 0;

	for (size_t i = 0; i < r->nsamples; i++) {
		info->lost += r->samples[i].lost;
		info->samples += r->samples[i].lost == 0;
	}
	info->lost += after;
	if (r->nsamples > 0)	/* (qsort's base must not be NULL) */
		qsort(r->samples, r->nsamples, sizeof *r->samples, cmp_sample);
	for (size_t i = 0; i < r->nsamples && rc == 0; i++) {
		const struct sample *sm = &r->samples[i];
		const struct attr *a = &r->attrs[sm->attr];
		struct read_event ev;

		if (sm->lost != 0) {
			struct read_lost l = { .count = sm->lost, .cpu = sm->lost_cpu };

			rc = lost != NULL ? lost(&l, ctx) : 0;
			continue;
		}
		ev = (struct read_event){
			.tracepoint = a->tracepoint,
			.data = sm->raw + TRACE_COMMON_SIZE,
			.len = sm->raw_len - TRACE_COMMON_SIZE,
			.info = {
				.time_ns = sm->time,
				.has_time = (a->sample_type & S_TIME) != 0,
				.cpu = (int)sm->cpu,
				.has_cpu = (a->sample_type & S_CPU) != 0,
				.pid = sm->pid,
				.tid = sm->tid,
				.has_pid = (a->sample_type & S_TID) != 0,
			},
			.wall_ns = sm->time + (uint64_t)r->clock_offset,
			.has_wall = r->has_clock && (a->sample_type & S_TIME),
		};
		if (a->uprobe_group != NULL) {
			int got = uprobe_raw_record(a->uprobe_group, a->uprobe_event, sm->raw,
						    sm->raw_len, &r->scratch, &ev.tracepoint,
						    &ev.data, &ev.len);

			if (got < 0)
				return fail(r, "out of memory");
			if (got == 0) {
				r->skipped[PERF_SKIP_MALFORMED]++;
				continue;
			}
		}
		rc = cb(&ev, ctx);
	}
	if (rc == 0 && after > 0 && lost != NULL)
		rc = lost(&(struct read_lost){ .count = after, .cpu = -1 }, ctx);
	return rc;
}

int perf_data_read(const void *data, size_t len, struct perf_data_info *info,
		   perf_data_cb cb, read_lost_cb lost, void *ctx, char *err, size_t errlen)
{
	struct reader r = {
		.p = data, .len = len, .err = err, .errlen = errlen, .skipped = info->skipped,
	};
	uint64_t hsize, data_off, data_size;
	int rc;

	memset(info, 0, sizeof *info);
	if (len < 8 || memcmp(data, PERF_DATA_MAGIC, 8) != 0)
		return fail(&r, "not a perf.data file");
	if (len < 16)
		return fail(&r, "perf.data header truncated");
	hsize = rd64(r.p + 8);
	if (hsize == 16)
		return fail(&r, "perf.data in pipe mode is not supported (record to a file)");
	if (hsize < HEADER_SIZE || len < HEADER_SIZE)
		return fail(&r, "perf.data header truncated");
	data_off = rd64(r.p + 40);
	data_size = rd64(r.p + 48);
	if (data_off > len)
		return fail(&r, "the file ends before its data section (truncated?)");
	/* A file cut inside its data: the records up to the end of the file,
	 * no feature sections (they follow the data). */
	if (data_size > len - data_off) {
		r.cut = true;
		r.names_lost = true;
		data_size = len - data_off;
	}
	r.unzip.limit = perf_unzip_limit(len);
	rc = read_attrs(&r, rd64(r.p + 16), rd64(r.p + 24), rd64(r.p + 32));
	if (rc == 0 && !r.cut)
		rc = read_features(&r, r.p + 72, data_off + data_size, info);
	if (rc == 0)
		rc = read_data(&r, data_off, data_size, info, cb, lost, ctx);
	if (r.cut)
		info->skipped[PERF_SKIP_CUT]++;
	for (size_t i = 0; i < r.nnames; i++)
		free(r.names[i]);
	free(r.names);
	free(r.ids);
	free(r.attrs);
	free(r.samples);
	uprobe_scratch_free(&r.scratch);
	perf_unzip_free(&r.unzip);
	return rc;
}
