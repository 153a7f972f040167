/* SPDX-License-Identifier: MIT */
/*
 * 16 threads log at once while a reader drains the trace buffer: every
 * event the tracer does not report lost arrives once, whole, and decodes;
 * the program's own output is untouched.  Messages per thread: 100,000
 * (about 50 s in the emulated guest), or EHSYSLOG_LOAD_COUNT (the
 * sanitizer run uses fewer).
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "reliability/reader.h"
#include "reliability/reliab.h"

#define THREADS 16
#define LOAD_FULL 100000
/* Per CPU: room for most of the load, in the guest's 1 GB. */
#define BUFFER_KB 65536
/* Each thread also writes every OUT_EVERY-th message number to its file. */
#define OUT_EVERY 100

static unsigned count;
static uint8_t *seen;		/* [THREADS][count] */
static unsigned long received, dups, broken;
static int done;

static void *writer(void *arg)
{
	unsigned t = (unsigned)(uintptr_t)arg;
	char path[64];
	int fd;

	snprintf(path, sizeof path, "/tmp/reliab-load-%u", t);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return (void *)1;
	for (unsigned i = 0; i < count; i++) {
		syslog(LOG_LOCAL0 | LOG_INFO, "load t%u n%u", t, i);
		if (i % OUT_EVERY == 0)
			dprintf(fd, "t%u n%u\n", t, i);
	}
	close(fd);
	return NULL;
}

static void tally(const struct rev *ev, void *ctx)
{
	unsigned t, i;
	char text[64];
	int len;

	(void)ctx;
	if (!ev->msg || !ev->decoded || ev->severity != LOG_INFO || ev->facility != 16) {
		broken++;
		return;
	}
	len = ev->msg_len < sizeof text ? (int)ev->msg_len : (int)sizeof text - 1;
	memcpy(text, ev->msg, (size_t)len);
	text[len] = '\0';
	if (sscanf(text, "load t%u n%u", &t, &i) != 2 || t >= THREADS || i >= count) {
		broken++;
		return;
	}
	/* Whole: the text must be exactly what the thread formatted. */
	char want[64];
	snprintf(want, sizeof want, "load t%u n%u", t, i);
	if (strcmp(text, want) != 0 || ev->msg_len != strlen(want)) {
		broken++;
		return;
	}
	if (seen[(size_t)t * count + i]++)
		dups++;
	else
		received++;
}

static void *drainer(void *arg)
{
	struct reader *r = arg;

	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		if (reader_drain(r, tally, NULL) == 0)
			usleep(20000);
	}
	while (reader_drain(r, tally, NULL) > 0)
		;
	return NULL;
}

/* The file each thread wrote holds exactly its own lines. */
static void check_output(unsigned t)
{
	char path[64], want[64];
	FILE *f;
	char line[128];
	unsigned i = 0;

	snprintf(path, sizeof path, "/tmp/reliab-load-%u", t);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f)) {
		snprintf(want, sizeof want, "t%u n%u\n", t, i);
		ck_assert_str_eq(line, want);
		i += OUT_EVERY;
	}
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(i, (count + OUT_EVERY - 1) / OUT_EVERY * OUT_EVERY);
}

START_TEST(threads_under_load)
{
	const char *env = getenv("EHSYSLOG_LOAD_COUNT");
	pthread_t th[THREADS], rd;
	struct reader r;
	struct timespec t0, t1;
	unsigned long long lost;
	char load[64];

	count = env ? (unsigned)strtoul(env, NULL, 10) : LOAD_FULL;
	ck_assert_uint_gt(count, 0);
	seen = calloc((size_t)THREADS * count, 1);
	ck_assert_ptr_nonnull(seen);
	reg(LOG_LOCAL0 | LOG_INFO);
	reader_open(&r, "reliab_load", BUFFER_KB);
	reader_enable(&r, TP_LOCAL0);
	ck_assert_int_eq(pthread_create(&rd, NULL, drainer, &r), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned t = 0; t < THREADS; t++)
		ck_assert_int_eq(pthread_create(&th[t], NULL, writer, (void *)(uintptr_t)t), 0);
	for (unsigned t = 0; t < THREADS; t++) {
		void *ret;
		ck_assert_int_eq(pthread_join(th[t], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	ck_assert_int_eq(pthread_join(rd, NULL), 0);
	lost = reader_lost(&r);
	reader_close(&r);
	for (unsigned t = 0; t < THREADS; t++)
		check_output(t);

	unsigned long sent = (unsigned long)THREADS * count;
	ck_assert_uint_eq(broken, 0);
	ck_assert_uint_eq(dups, 0);
	ck_assert_uint_gt(received, 0);
	/* Nothing vanishes without the tracer saying so. */
	ck_assert_uint_eq(received + lost, sent);
	snprintf(load, sizeof load, "%d threads x %u messages", THREADS, count);
	report("threads_under_load", load, "reader draining concurrently", "-",
	       "sent %lu, received %lu, tracer-reported lost %llu, duplicates 0, "
	       "broken 0, %.1f s", sent, received, lost,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	free(seen);
}
END_TEST

Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("load");

	tcase_set_timeout(tc, 3600);
	tcase_add_test(tc, threads_under_load);
	suite_add_tcase(s, tc);
	return s;
}
