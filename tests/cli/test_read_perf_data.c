/* SPDX-License-Identifier: MIT */
/*
 * perf.data reader: the conformance capture reads back as the samples
 * perf recorded, also once its data is zstd-compressed as `perf record -z`
 * writes it; no truncation or corruption of it makes the reader read
 * outside the buffer or crash (run under valgrind or ASan to see the
 * former), and what it cannot read is counted as skipped.  Records of
 * lost samples reach the lost callback, in time order among the samples.
 */
#include <check.h>
#include <zstd.h>

#include "../check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/decode/perf_data.h"
#include "cli/decode/perf_unzip.h"

/* Every PERF_RECORD_SAMPLE of tests/data/perf.data, sched_switch's too. */
#define SAMPLES_ALL 539

static unsigned char *golden;
static size_t golden_len;

struct seen {
	unsigned long n;
	uint64_t last_time;
	bool sorted;
	size_t bytes;
	char first[300];
	struct eh_record_info first_info;
	uint64_t first_wall;
	const uint8_t *first_data;
	/* count_lost */
	unsigned long lost_calls;
	unsigned long long lost;
	int lost_cpu;
	unsigned long events_before_lost;
};

static int count(const struct read_event *ev, void *ctx)
{
	struct seen *s = ctx;

	if (s->n == 0) {
		snprintf(s->first, sizeof s->first, "%s", ev->tracepoint);
		s->first_info = ev->info;
		s->first_wall = ev->has_wall ? ev->wall_ns : 0;
		s->first_data = ev->data;
	} else if (ev->info.time_ns < s->last_time) {
		s->sorted = false;
	}
	s->last_time = ev->info.time_ns;
	s->bytes += ev->len;
	s->n++;
	return 0;
}

static int count_lost(const struct read_lost *lost, void *ctx)
{
	struct seen *s = ctx;

	s->lost_calls++;
	s->lost += lost->count;
	s->lost_cpu = lost->cpu;
	s->events_before_lost = s->n;
	return 0;
}

static void load(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/tests/data/perf.data", top ? top : ".");
	f = fopen(path, "rb");
	if (f == NULL) {
		printf("FAIL: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	golden = malloc((size_t)n);
	golden_len = fread(golden, 1, (size_t)n, f);
	fclose(f);
	if (golden_len != (size_t)n)
		abort();
}

/* A copy of the first len bytes in a buffer of exactly that size. */
static int read_copy(const unsigned char *src, size_t len, struct seen *s, char *err, size_t errlen)
{
	struct perf_data_info info;
	unsigned char *copy = malloc(len ? len : 1);
	int rc;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, src, len);
	memset(s, 0, sizeof *s);
	s->sorted = true;
	rc = perf_data_read(copy, len, &info, count, NULL, s, err, errlen);
	free(copy);
	return rc;
}

static uint64_t data_offset(void)
{
	uint64_t off;

	memcpy(&off, golden + 40, 8);
	return off;
}

static unsigned long total_skipped(const struct perf_data_info *info)
{
	unsigned long n = 0;

	for (int i = 0; i < PERF_SKIPS; i++)
		n += info->skipped[i];
	return n;
}

START_TEST(conformance_samples)
{
	struct perf_data_info info;
	struct seen s = { .sorted = true };
	char err[256] = "";

	ck_assert_int_eq(perf_data_read(golden, golden_len, &info, count, NULL, &s, err, sizeof err), 0);
	/* 254 EventHeader events, as perf-decode's JSON lists (sched_switch
	 * samples are not user_events and are left out). */
	ck_assert_uint_eq(s.n, 254);
	ck_assert_uint_eq(info.samples, 254);
	ck_assert(s.sorted);
	/* "Long_Provider_Name_" 200 X "0123456789_L5K0Gasdf" */
	ck_assert_uint_eq(strlen(s.first), 19 + 200 + 20);
	ck_assert_mem_eq(s.first, "Long_Provider_Name_XXXX", 23);
	ck_assert_uint_eq(strspn(s.first + 19, "X"), 200);
	ck_assert_str_eq(s.first + 219, "0123456789_L5K0Gasdf");
	ck_assert_int_eq(s.first_info.cpu, 16);
	ck_assert_uint_eq(s.first_info.pid, 2004);
	ck_assert_uint_eq(s.first_info.tid, 2004);
	/* perf-decode: "2024-03-28T00:45:14.788982451Z" */
	ck_assert_uint_eq(s.first_wall, UINT64_C(1711586714788982451));
}
END_TEST

/* A sample whose raw data claims more bytes than its record holds is
 * counted as malformed; the others are still delivered. */
START_TEST(malformed_sample)
{
	struct perf_data_info info;
	struct seen s = { .sorted = true };
	unsigned char *copy = malloc(golden_len);
	char err[256] = "";
	size_t raw_len_at;

	ck_assert_ptr_nonnull(copy);
	ck_assert_int_eq(perf_data_read(golden, golden_len, &info, count, NULL, &s, err, sizeof err), 0);
	/* u32 raw size, then the raw data: 8 bytes of common fields, then
	 * the EventHeader bytes handed to the callback. */
	raw_len_at = (size_t)(s.first_data - golden) - 8 - 4;
	memcpy(copy, golden, golden_len);
	memcpy(copy + raw_len_at, "\xf0\xff\0\0", 4);
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(perf_data_read(copy, golden_len, &info, count, NULL, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.n, 253);
	ck_assert_uint_eq(info.skipped[PERF_SKIP_MALFORMED], 1);
	ck_assert_uint_eq(total_skipped(&info), 1);
	free(copy);
}
END_TEST

START_TEST(not_perf_data)
{
	static const unsigned char junk[] = "PERFILE1 and then some more bytes than sixteen";
	struct seen s;
	char err[256] = "";

	ck_assert_int_eq(read_copy(junk, sizeof junk, &s, err, sizeof err), -1);
	ck_assert_str_eq(err, "not a perf.data file");
	ck_assert_int_eq(read_copy(junk, 0, &s, err, sizeof err), -1);
	ck_assert_uint_eq(s.n, 0);
}
END_TEST

START_TEST(pipe_mode_refused)
{
	unsigned char hdr[16] = "PERFILE2";
	struct seen s;
	char err[256] = "";

	hdr[8] = 16;
	ck_assert_int_eq(read_copy(hdr, sizeof hdr, &s, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "pipe mode"));
}
END_TEST

/* Every cut is either an error (in the header and attributes) or read
 * with the cut counted once as skipped; samples come out only if the
 * event names (a feature section) survived. */
START_TEST(truncated)
{
	struct perf_data_info info;
	struct seen s;
	char err[256];

	for (size_t len = 0; len < golden_len; len += len < 4096 ? 1 : 97) {
		unsigned char *copy = malloc(len ? len : 1);
		int rc;

		ck_assert_ptr_nonnull(copy);
		memcpy(copy, golden, len);
		memset(&s, 0, sizeof s);
		err[0] = '\0';
		rc = perf_data_read(copy, len, &info, count, NULL, &s, err, sizeof err);
		free(copy);
		if (rc == -1) {
			ck_assert(err[0] != '\0');
			ck_assert_uint_eq(s.n, 0);
			continue;
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(info.skipped[PERF_SKIP_CUT], 1);
		ck_assert_uint_eq(info.skipped[PERF_SKIP_MALFORMED], 0);
		/* Named and delivered, all of them, or unnamed and counted. */
		ck_assert(s.n == 0 || (s.n == 254 && info.skipped[PERF_SKIP_UNNAMED] == 0));
	}
}
END_TEST

/*
 * The conformance file as `perf record -z` would have written it: its
 * data section cut into 1000-byte pieces (records straddle them), each
 * compressed (flushed) into one compressed record of the file's single
 * zstd stream, a plain FINISHED_ROUND record after each; the feature
 * sections stay where they were.  type is 81 (COMPRESSED) or 83
 * (COMPRESSED2: a u64 payload size, the record padded to 8 bytes).
 */
static unsigned char *compressed_copy(uint32_t type, size_t *outlen, size_t *nrecords)
{
	uint64_t off = data_offset(), size = 0, nfeat = 0;
	unsigned char *out = malloc(golden_len), *w;
	ZSTD_CCtx *cctx = ZSTD_createCCtx();

	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(cctx);
	memcpy(&size, golden + 48, 8);
	for (int i = 72; i < 104; i++)
		nfeat += (uint64_t)__builtin_popcount(golden[i]);
	memcpy(out, golden, golden_len);
	w = out + off;
	*nrecords = 0;
	for (uint64_t at = 0; at < size; at += 1000) {
		ZSTD_inBuffer in = { golden + off + at, size - at < 1000 ? size - at : 1000, 0 };
		unsigned char *rec = w, *payload = w + (type == 83 ? 16 : 8);
		ZSTD_outBuffer zo = { payload, 4096, 0 };
		size_t left, rsize;

		do {
			left = ZSTD_compressStream2(cctx, &zo, &in, ZSTD_e_flush);
			ck_assert(!ZSTD_isError(left));
		} while (left != 0);
		rsize = (size_t)(payload - rec) + zo.pos;
		if (type == 83) {
			uint64_t n = zo.pos;

			memcpy(rec + 8, &n, 8);
			while (rsize % 8 != 0)
				rec[rsize++] = 0;
		}
		memcpy(rec, &type, 4);
		rec[4] = rec[5] = 0;
		rec[6] = (unsigned char)rsize;
		rec[7] = (unsigned char)(rsize >> 8);
		w += rsize;
		memcpy(w, "\x44\0\0\0\0\0\x08\0", 8);	/* PERF_RECORD_FINISHED_ROUND */
		w += 8;
		++*nrecords;
	}
	ZSTD_freeCCtx(cctx);
	/* The new data section, then the feature table after it, both
	 * within the old data section. */
	ck_assert_uint_le((uint64_t)(w - out) + 16 * nfeat, off + size);
	memcpy(w, golden + off + size, 16 * nfeat);
	size = (uint64_t)(w - (out + off));
	memcpy(out + 48, &size, 8);
	*outlen = golden_len;
	return out;
}

START_TEST(compressed)
{
	uint32_t types[] = { 81, 83 };

	for (size_t t = 0; t < 2; t++) {
		struct perf_data_info info;
		struct seen s = { .sorted = true }, plain = { .sorted = true };
		size_t len, nrec;
		unsigned char *z = compressed_copy(types[t], &len, &nrec);
		char err[256] = "";

		ck_assert_int_eq(perf_data_read(golden, golden_len, &info, count, NULL, &plain, err, sizeof err), 0);
		ck_assert_int_eq(perf_data_read(z, len, &info, count, NULL, &s, err, sizeof err), 0);
		ck_assert_uint_eq(total_skipped(&info), 0);
		ck_assert_uint_eq(s.n, 254);
		ck_assert(s.sorted);
		ck_assert_uint_eq(s.bytes, plain.bytes);
		ck_assert_str_eq(s.first, plain.first);
		ck_assert_uint_eq(s.first_wall, plain.first_wall);

		/* A broken frame header: no record decompresses, each is counted. */
		z[data_offset() + (types[t] == 83 ? 16 : 8)] ^= 0xff;
		memset(&s, 0, sizeof s);
		ck_assert_int_eq(perf_data_read(z, len, &info, count, NULL, &s, err, sizeof err), 0);
		ck_assert_uint_eq(s.n, 0);
		ck_assert_uint_eq(info.skipped[PERF_SKIP_UNZIP], nrec);
		ck_assert_uint_eq(total_skipped(&info), nrec);

		/* Random bytes in the compressed records: any count, no crash
		 * (nor, under valgrind or ASan, a bad read). */
		for (int round = 0; round < 200; round++) {
			unsigned seed = (unsigned)round;
			unsigned char *c = malloc(len);
			size_t dlen = *(const uint64_t *)(const void *)(z + 48);

			ck_assert_ptr_nonnull(c);
			memcpy(c, z, len);
			c[data_offset() + (types[t] == 83 ? 16 : 8)] ^= 0xff;	/* undo */
			for (int k = 0; k < 1 + round % 4; k++)
				c[data_offset() + (size_t)rand_r(&seed) % dlen] = (unsigned char)rand_r(&seed);
			memset(&s, 0, sizeof s);
			int rc = perf_data_read(c, len, &info, count, NULL, &s, err, sizeof err);
			ck_assert(rc == 0 || rc == -1);
			free(c);
		}
		free(z);
	}
}
END_TEST

/* Corrupted bytes: any result but a crash or an out-of-bounds read. */
START_TEST(corrupted)
{
	unsigned char *copy = malloc(golden_len);
	unsigned seed = 12345;
	struct perf_data_info info;
	struct seen s;
	char err[256];

	ck_assert_ptr_nonnull(copy);
	for (int round = 0; round < 400; round++) {
		memcpy(copy, golden, golden_len);
		for (int k = 0; k < 1 + round % 8; k++) {
			size_t at = (size_t)rand_r(&seed) % golden_len;

			/* Half the flips land in the header and attributes,
			 * where offsets and sizes live. */
			if (k % 2 == 0)
				at %= 4096;
			copy[at] = (unsigned char)rand_r(&seed);
		}
		memset(&s, 0, sizeof s);
		int rc = perf_data_read(copy, golden_len, &info, count, NULL, &s, err, sizeof err);
		ck_assert(rc == 0 || rc == -1);
	}
	free(copy);
}
END_TEST

/* Attributes without any sample id: with several of them no sample can
 * be matched to its event, so each counts as of an unknown id.  (The
 * empty id table once reached qsort as NULL: UBSan's report, under
 * scripts/test-sanitizers.) */
START_TEST(no_sample_ids)
{
	unsigned char *copy = malloc(golden_len);
	uint64_t attr_size, off, size;
	struct perf_data_info info;
	struct seen s = { .sorted = true };
	char err[256] = "";

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, golden, golden_len);
	memcpy(&attr_size, golden + 16, 8);
	memcpy(&off, golden + 24, 8);
	memcpy(&size, golden + 32, 8);
	ck_assert_uint_gt(size / attr_size, 1);
	/* Each perf_file_attr ends with its ids section: u64 offset, u64 size. */
	for (uint64_t at = off + attr_size - 8; at < off + size; at += attr_size)
		memset(copy + at, 0, 8);
	ck_assert_int_eq(perf_data_read(copy, golden_len, &info, count, NULL, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_uint_eq(info.skipped[PERF_SKIP_UNKNOWN_ID], SAMPLES_ALL);
	ck_assert_uint_eq(total_skipped(&info), SAMPLES_ALL);
	free(copy);
}
END_TEST

/*
 * A copy with the sample of the first event in time made into a record
 * of lost samples, in place: type 2 (PERF_RECORD_LOST: u64 id, u64 lost)
 * or 13 (PERF_RECORD_LOST_SAMPLES: u64 lost), with misc, ending with the
 * sample's own ids as the kernel writes them with sample_id_all (pid and
 * tid, time, cpu, identifier), but time 0 if closing (as perf writes its
 * closing totals).  Its sample's first event, cpu in *cpu.
 */
static unsigned char *lost_copy(uint32_t type, uint16_t misc, uint64_t lost, bool closing,
				int *cpu)
{
	struct perf_data_info info;
	struct seen s = { .sorted = true };
	unsigned char *copy = malloc(golden_len), *rec, *body, ids[32];
	char err[256] = "";
	uint16_t size;

	ck_assert_ptr_nonnull(copy);
	ck_assert_int_eq(perf_data_read(golden, golden_len, &info, count, NULL, &s, err, sizeof err), 0);
	*cpu = s.first_info.cpu;
	memcpy(copy, golden, golden_len);
	/* The sample: identifier, ip, pid and tid, time, cpu, period, then
	 * the u32 raw size and the raw data's 8 bytes of common fields. */
	body = copy + (s.first_data - golden) - 8 - 4 - 6 * 8;
	rec = body - 8;
	memcpy(&size, rec + 6, 2);
	ck_assert_uint_ge(size, 8 + 16 + sizeof ids);
	memcpy(ids, body + 16, 24);	/* pid and tid, time, cpu */
	memcpy(ids + 24, body, 8);	/* identifier */
	if (closing)
		memset(ids + 8, 0, 8);
	memcpy(rec, &type, 4);
	memcpy(rec + 4, &misc, 2);
	memcpy(body + (type == 2 ? 8 : 0), &lost, 8);
	memcpy(rec + size - sizeof ids, ids, sizeof ids);
	return copy;
}

/* Reads a lost_copy into s and info: every event but the
 * one made a record of loss. */
static void read_lost_copy(unsigned char *copy, bool with_cb, struct perf_data_info *info,
			   struct seen *s)
{
	char err[256] = "";

	memset(s, 0, sizeof *s);
	s->sorted = true;
	ck_assert_int_eq(perf_data_read(copy, golden_len, info, count, with_cb ? count_lost : NULL,
					s, err, sizeof err), 0);
	ck_assert_uint_eq(s->n, 253);
	ck_assert_uint_eq(info->samples, 253);
	ck_assert_uint_eq(total_skipped(info), 0);
}

/* PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES: the count and CPU, in
 * their sample's place in time (before every event); not a sample. */
START_TEST(lost_records)
{
	static const uint32_t types[] = { 2, 13 };

	for (size_t t = 0; t < 2; t++) {
		struct perf_data_info info;
		struct seen s;
		int cpu;
		unsigned char *copy = lost_copy(types[t], 0, 1234, false, &cpu);

		read_lost_copy(copy, true, &info, &s);
		ck_assert_uint_eq(s.lost_calls, 1);
		ck_assert_uint_eq(s.lost, 1234);
		ck_assert_uint_eq(info.lost, 1234);
		ck_assert_int_eq(s.lost_cpu, cpu);
		ck_assert_uint_eq(s.events_before_lost, 0);
		/* Without a lost callback: counted all the same. */
		read_lost_copy(copy, false, &info, &s);
		ck_assert_uint_eq(info.lost, 1234);
		free(copy);
	}
}
END_TEST

/* LOST_SAMPLES of a BPF filter (misc bit 15) are samples it dropped on
 * purpose, not lost; a count of 0 is no loss. */
START_TEST(lost_not_lost)
{
	static const uint16_t miscs[] = { 1u << 15, 0 };
	static const uint64_t counts[] = { 99, 0 };

	for (size_t i = 0; i < 2; i++) {
		struct perf_data_info info;
		struct seen s;
		int cpu;
		unsigned char *copy = lost_copy(13, miscs[i], counts[i], false, &cpu);

		read_lost_copy(copy, true, &info, &s);
		ck_assert_uint_eq(s.lost_calls, 0);
		ck_assert_uint_eq(info.lost, 0);
		free(copy);
	}
}
END_TEST

/* perf's closing total (LOST_SAMPLES at time 0) repeats what the LOST
 * records count: only what it holds beyond them is marked, at the end. */
START_TEST(lost_closing_total)
{
	struct perf_data_info info;
	struct seen s;
	int cpu;
	unsigned char *copy = lost_copy(13, 0, 99, true, &cpu);

	read_lost_copy(copy, true, &info, &s);
	ck_assert_uint_eq(s.lost_calls, 1);
	ck_assert_uint_eq(s.lost, 99);
	ck_assert_uint_eq(info.lost, 99);
	ck_assert_int_eq(s.lost_cpu, -1);
	ck_assert_uint_eq(s.events_before_lost, 253);
	free(copy);
}
END_TEST

/* Events recorded without sample_id_all: a LOST record has no time or
 * CPU, and takes the time of the record before it in the file. */
START_TEST(lost_without_ids)
{
	uint64_t attr_size, off, size, flags;
	struct perf_data_info info;
	struct seen s;
	int cpu;
	unsigned char *copy = lost_copy(2, 0, 5, false, &cpu);

	memcpy(&attr_size, golden + 16, 8);
	memcpy(&off, golden + 24, 8);
	memcpy(&size, golden + 32, 8);
	/* perf_event_attr's flags, bit 18: sample_id_all. */
	for (uint64_t at = off + 40; at < off + size; at += attr_size) {
		memcpy(&flags, copy + at, 8);
		flags &= ~(UINT64_C(1) << 18);
		memcpy(copy + at, &flags, 8);
	}
	read_lost_copy(copy, true, &info, &s);
	ck_assert_uint_eq(s.lost_calls, 1);
	ck_assert_uint_eq(s.lost, 5);
	ck_assert_int_eq(s.lost_cpu, -1);
	free(copy);
}
END_TEST

/* Output past the limit breaks the stream instead of eating memory. */
START_TEST(unzip_limit)
{
	static unsigned char zeros[1 << 20], packed[4096];
	struct perf_unzip z = { .limit = 300000 }, ok = { .limit = sizeof zeros };
	size_t n = ZSTD_compress(packed, sizeof packed, zeros, sizeof zeros, 1);

	ck_assert(!ZSTD_isError(n));
	ck_assert_int_eq(perf_unzip_feed(&ok, packed, n), 0);
	ck_assert_uint_eq(ok.len, sizeof zeros);
	ck_assert_int_eq(perf_unzip_feed(&z, packed, n), -1);
	ck_assert(z.broken);
	ck_assert_uint_le(z.len, 300000);
	ck_assert_int_eq(perf_unzip_feed(&z, packed, n), -1);
	perf_unzip_free(&ok);
	perf_unzip_free(&z);
}
END_TEST

/*
 * A perf.data of n tracepoint events, configs 1000 + i, each with one
 * sample id (its index) of its own unless shared_ids: then every event
 * claims the whole id section, of n ids.  Its HEADER_EVENT_DESC names
 * them user_events:evI in reverse order; its data one sample of the
 * last event.  Returned in a buffer of exactly *len bytes.
 */
enum { ATTR = 80, DESC = 64 + 4 + 4 + 24 };	/* bytes of each in many_events */

static unsigned char *many_events(uint32_t n, bool shared_ids, size_t *len)
{
	size_t ids_at = 104 + (size_t)n * ATTR, data_at = ids_at + 8 * (size_t)n;
	size_t sample = 8 + 8 + 4 + 12, feat_at = data_at + sample;
	size_t desc_at = feat_at + 16, total = desc_at + 8 + (size_t)n * DESC;
	unsigned char *f = calloc(1, total), *p;
	uint64_t v;
	uint32_t u;

	ck_assert_ptr_nonnull(f);
#define PUT64(at, x) (v = (x), memcpy(f + (at), &v, 8))
#define PUT32(at, x) (u = (x), memcpy(f + (at), &u, 4))
	memcpy(f, "PERFILE2", 8);
	PUT64(8, 104);
	PUT64(16, ATTR);
	PUT64(24, 104);
	PUT64(32, (uint64_t)n * ATTR);
	PUT64(40, data_at);
	PUT64(48, sample);
	f[72 + 12 / 8] |= 1 << (12 % 8);	/* HEADER_EVENT_DESC */
	for (uint32_t i = 0; i < n; i++) {
		size_t a = 104 + (size_t)i * ATTR;

		PUT32(a, 2);	/* PERF_TYPE_TRACEPOINT */
		PUT64(a + 8, 1000 + i);
		PUT64(a + 24, (1u << 16) | (1u << 10));	/* IDENTIFIER, RAW */
		PUT64(a + ATTR - 16, shared_ids ? ids_at : ids_at + 8 * i);
		PUT64(a + ATTR - 8, shared_ids ? 8 * (uint64_t)n : 8);
		PUT64(ids_at + 8 * i, i);
	}
	PUT32(data_at, 9);	/* PERF_RECORD_SAMPLE */
	f[data_at + 6] = (unsigned char)sample;
	PUT64(data_at + 8, n - 1);
	PUT32(data_at + 16, 12);	/* 8 common bytes, 4 of event */
	memcpy(f + data_at + 28, "abcd", 4);
	PUT64(feat_at, desc_at);
	PUT64(feat_at + 8, total - desc_at);
	PUT32(desc_at, n);
	PUT32(desc_at + 4, 64);
	p = f + desc_at + 8;
	for (uint32_t k = 0; k < n; k++, p += DESC) {
		uint32_t i = n - 1 - k;

		memcpy(p, &(uint32_t){ 2 }, 4);
		memcpy(p + 8, &(uint64_t){ 1000 + i }, 8);
		memcpy(p + 68, &(uint32_t){ 24 }, 4);
		snprintf((char *)p + 72, 24, "user_events:e%u", (unsigned)i);
	}
#undef PUT64
#undef PUT32
	*len = total;
	return f;
}

/* Names with many events: matched in n log n (n squared took seconds at
 * 65536), each event its own. */
/* Reads f[0..len), freed then. */
static int read_many(unsigned char *f, size_t len, struct seen *s, char *err, size_t errlen)
{
	struct perf_data_info info;
	int rc;

	*s = (struct seen){ .sorted = true };
	rc = perf_data_read(f, len, &info, count, NULL, s, err, errlen);
	free(f);
	return rc;
}

START_TEST(many_event_names)
{
	struct seen s;
	char err[256] = "";
	size_t len;
	unsigned char *f = many_events(65536, false, &len);

	ck_assert_int_eq(read_many(f, len, &s, err, sizeof err), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.first, "e65535");
	ck_assert_uint_eq(s.bytes, 4);
}
END_TEST

/* Events claiming the same ids would need n times the file's ids in
 * memory: refused.  More descriptions than events: refused. */
START_TEST(overlapping_ids)
{
	struct seen s;
	char err[256] = "";
	size_t len;
	unsigned char *f = many_events(4096, true, &len);
	uint32_t more = 5;

	ck_assert_int_eq(read_many(f, len, &s, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "overlap others'") != NULL, "%s", err);
	f = many_events(4, false, &len);
	memcpy(f + len - 8 - 4 * DESC, &more, 4);	/* the description count */
	ck_assert_int_eq(read_many(f, len, &s, err, sizeof err), -1);
	ck_assert_str_eq(err, "more event descriptions than events");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perf_data");
	TCase *tc = tcase_create("read");
	int failed;

	load();
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, conformance_samples);
	tcase_add_test(tc, malformed_sample);
	tcase_add_test(tc, not_perf_data);
	tcase_add_test(tc, pipe_mode_refused);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, compressed);
	tcase_add_test(tc, unzip_limit);
	tcase_add_test(tc, corrupted);
	tcase_add_test(tc, no_sample_ids);
	tcase_add_test(tc, lost_records);
	tcase_add_test(tc, lost_not_lost);
	tcase_add_test(tc, lost_without_ids);
	tcase_add_test(tc, lost_closing_total);
	suite_add_tcase(s, tc);
	/* Files crafted to cost time or memory.  The timeout is a bound
	 * for a loaded machine and a sanitizer build, not a measure. */
	tc = tcase_create("hostile");
	tcase_set_timeout(tc, 180);
	tcase_add_test(tc, many_event_names);
	tcase_add_test(tc, overlapping_ids);
	suite_add_tcase(s, tc);
	failed = check_run(s);
	free(golden);
	return failed;
}
