/* SPDX-License-Identifier: MIT */
/*
 * The event head ehs_emit keeps per ident (name NULL in the record): the
 * bytes equal those built from the sanitised name given explicitly, the
 * name follows openlog and closelog (a rewritten buffer passed again
 * included), and threads and a signal handler logging while another
 * thread calls openlog never see a head that mixes two idents.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "bridge/emit.h"
#include "bridge/ident.h"
#include "capture.h"

static struct capture cap, want;

static struct ehs_record rec(const char *name, const char *msg)
{
	struct ehs_record r = {
		.name = name, .level = 4, .severity = 6, .facility = 1, .err = 2,
		.msg = msg, .msg_len = strlen(msg),
	};
	return r;
}

/* The events of r with name NULL equal those with the ident's name
 * sanitised by hand; returns how many there were. */
static int same_as_named(struct ehs_record r, size_t limit, const char *ident)
{
	char name[EHS_EVENT_NAME_MAX + 1];
	ehs_event_name(name, ident);
	memset(&cap, 0, sizeof cap);
	memset(&want, 0, sizeof want);
	r.name = NULL;
	int n = capture_emit(&cap, &r, limit);
	r.name = name;
	ck_assert_int_eq(capture_emit(&want, &r, limit), n);
	ck_assert_uint_eq(cap.count, want.count);
	for (unsigned i = 0; i < cap.count; i++) {
		ck_assert_uint_eq(cap.len[i], want.len[i]);
		ck_assert_mem_eq(cap.data[i], want.data[i], want.len[i]);
	}
	return n;
}

START_TEST(name_follows_openlog)
{
	char buf[16] = "one;1";
	struct ehs_record r = rec(NULL, "hi");

	ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, NULL), 1);
	ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, NULL), 1);	/* kept */
	ehs_ident_openlog(buf, 0, 0);
	ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, "one;1"), 1);
	ck_assert_str_eq((const char *)cap.data[0] + 12, "one_1");
	/* The same buffer, rewritten and passed again. */
	strcpy(buf, "two");
	ehs_ident_openlog(buf, 0, 0);
	ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, "two"), 1);
	ehs_ident_openlog(NULL, 0, 0);	/* keeps the ident, as glibc does */
	ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, "two"), 1);
	ehs_ident_closelog();
	ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, NULL), 1);
	ck_assert_str_eq((const char *)cap.data[0] + 12, program_invocation_short_name);
}
END_TEST

START_TEST(levels_share_the_head)
{
	/* The kept head is patched with each call's level. */
	ehs_ident_openlog("lv", 0, 0);
	for (unsigned level = 1; level <= 5; level++) {
		struct ehs_record r = rec(NULL, "x");
		r.level = level;
		same_as_named(r, EHS_EVENT_MAX, "lv");
		ck_assert_uint_eq(cap.data[0][7], level);
	}
}
END_TEST

START_TEST(file_and_split_take_the_ident)
{
	ehs_ident_openlog("app", 0, 0);
	struct ehs_record r = rec(NULL, "x");
	r.file = "a.c";
	r.line = 7;
	ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, "app"), 1);
	/* 41 bytes of metadata without file and line: those add 12. */
	ck_assert_uint_eq(cap.data[0][8], 41 + 12);

	/* 32 bytes, 10 a part: prefix, metadata with part and parts (13
	 * bytes), the payload's 12 fixed bytes, the text. */
	r = rec(NULL, "a message cut into several parts");
	ck_assert_int_eq(same_as_named(r, 12 + 41 + 13 + 12 + 10, "app"), 4);
	/* And with file and line: 12 bytes more metadata, 2 + 3 + 4 more
	 * payload. */
	r.file = "b.c";
	ck_assert_int_eq(same_as_named(r, 12 + 41 + 13 + 12 + 12 + 9 + 10, "app"), 4);
}
END_TEST

START_TEST(idents_past_the_kept_ones)
{
	/* More idents than the library keeps heads for: those past the
	 * last kept one are built at each call, and the kept ones are
	 * found again when a program comes back to them. */
	char ids[20][8];
	for (unsigned round = 0; round < 2; round++) {
		for (unsigned k = 0; k < 20; k++) {
			snprintf(ids[k], sizeof ids[k], "id%u", k);
			ehs_ident_openlog(ids[k], 0, 0);
			for (unsigned level = 1; level <= 5; level += 4) {
				struct ehs_record r = rec(NULL, "x");
				r.level = level;
				ck_assert_int_eq(same_as_named(r, EHS_EVENT_MAX, ids[k]), 1);
				ck_assert_str_eq((const char *)cap.data[0] + 12, ids[k]);
				ck_assert_uint_eq(cap.data[0][7], level);
			}
		}
	}
}
END_TEST

/* The race: two idents whose heads differ in length and in bytes.  A
 * ue_double_fn compares every event with the two possible events. */
static const char *const idents[2] = { "alpha", "a-much-longer-name;beta" };
static struct capture expect;
static atomic_uint seen[2], bad;
static atomic_bool stop;

static int check_sink(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx;
	int k = capture_which(&expect, iov, iovcnt);
	atomic_fetch_add(k < 0 ? &bad : &seen[k], 1);
	return 0;
}

static void log_once(void)
{
	struct ehs_record r = rec(NULL, "racing");
	ehs_emit(&r, EHS_EVENT_MAX, &capture_tp);
}

static void on_alarm(int sig)
{
	(void)sig;
	int saved = errno;
	log_once();
	errno = saved;
}

static void *logger(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop))
		log_once();
	return NULL;
}

START_TEST(openlog_races_loggers_and_handlers)
{
	memset(&expect, 0, sizeof expect);
	for (unsigned k = 0; k < 2; k++) {
		struct ehs_record r = rec(NULL, "racing");
		char name[EHS_EVENT_NAME_MAX + 1];
		ehs_event_name(name, idents[k]);
		r.name = name;
		ck_assert_int_eq(capture_emit(&expect, &r, EHS_EVENT_MAX), 1);
	}
	ck_assert_uint_ne(expect.len[0], expect.len[1]);
	/* Before the timer is armed: a handler that ran before it would
	 * log under the program's name (or, without fork mode, the previous
	 * case's ident), which is neither event.  The first signal comes
	 * before a later openlog whenever this thread is held up for 200 us
	 * there, as on a loaded machine or an emulated CPU. */
	ehs_ident_openlog(idents[0], 0, 0);
	ue_double_trace(check_sink, NULL);

	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	struct itimerval every = { { 0, 200 }, { 0, 200 } };
	ck_assert_int_eq(setitimer(ITIMER_REAL, &every, NULL), 0);

	pthread_t t[2];
	for (unsigned i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, logger, NULL), 0);
	for (unsigned i = 0; i < 100000; i++) {
		ehs_ident_openlog(idents[i % 2], 0, 0);
		log_once();
	}
	atomic_store(&stop, true);
	for (unsigned i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);

	unsigned mixed = atomic_load(&bad), a = atomic_load(&seen[0]), b = atomic_load(&seen[1]);
	ck_assert_uint_eq(mixed, 0);
	ck_assert_uint_gt(a, 0);
	ck_assert_uint_gt(b, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge ident cache");
	TCase *tc = tcase_create("ident cache");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, name_follows_openlog);
	tcase_add_test(tc, levels_share_the_head);
	tcase_add_test(tc, file_and_split_take_the_ident);
	tcase_add_test(tc, idents_past_the_kept_ones);
	tcase_add_test(tc, openlog_races_loggers_and_handlers);
	suite_add_tcase(s, tc);
	return check_run(s);
}
