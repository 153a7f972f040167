/* SPDX-License-Identifier: MIT */
/*
 * perf.data reader: the conformance capture reads back as the samples
 * perf recorded, and no truncation or corruption of it makes the reader
 * read outside the buffer or crash (run under valgrind or ASan to see
 * the former).
 */
#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/perf_data.h"

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
};

static int count(const struct read_event *ev, void *ctx)
{
	struct seen *s = ctx;

	if (s->n == 0) {
		snprintf(s->first, sizeof s->first, "%s", ev->tracepoint);
		s->first_info = ev->info;
		s->first_wall = ev->has_wall ? ev->wall_ns : 0;
	} else if (ev->info.time_ns < s->last_time) {
		s->sorted = false;
	}
	s->last_time = ev->info.time_ns;
	s->bytes += ev->len;
	s->n++;
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
	rc = perf_data_read(copy, len, &info, count, s, err, errlen);
	free(copy);
	return rc;
}

START_TEST(conformance_samples)
{
	struct perf_data_info info;
	struct seen s = { .sorted = true };
	char err[256] = "";

	ck_assert_int_eq(perf_data_read(golden, golden_len, &info, count, &s, err, sizeof err), 0);
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

/* Every cut leaves the feature table (after the data) outside the file:
 * always an error, never a sample delivered. */
START_TEST(truncated)
{
	struct seen s;
	char err[256];

	for (size_t len = 0; len < golden_len; len += len < 4096 ? 1 : 97) {
		err[0] = '\0';
		ck_assert_int_eq(read_copy(golden, len, &s, err, sizeof err), -1);
		ck_assert_uint_eq(s.n, 0);
		ck_assert(err[0] != '\0');
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
		int rc = perf_data_read(copy, golden_len, &info, count, &s, err, sizeof err);
		ck_assert(rc == 0 || rc == -1);
	}
	free(copy);
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
	tcase_add_test(tc, not_perf_data);
	tcase_add_test(tc, pipe_mode_refused);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, corrupted);
	suite_add_tcase(s, tc);
	failed = check_run(s);
	free(golden);
	return failed;
}
