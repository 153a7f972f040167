/* SPDX-License-Identifier: MIT */
/*
 * The scratch slots (scratch.h) a traced call's big buffers take: how
 * they are handed out, and that every path that takes one writes the
 * same events when none is free (its buffers then on the stack).
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <ehsyslog.h>

#include "bridge/bridge.h"
#include "bridge/api/glib.h"
#include "bridge/scratch.h"
#include "capture.h"

static void *held[EHS_SCRATCH_SLOTS];

static void take_all(void)
{
	for (unsigned k = 0; k < EHS_SCRATCH_SLOTS; k++) {
		held[k] = ehs_scratch_take();
		ck_assert_ptr_nonnull(held[k]);
	}
	ck_assert_ptr_null(ehs_scratch_take());
}

static void give_all(void)
{
	for (unsigned k = 0; k < EHS_SCRATCH_SLOTS; k++)
		ehs_scratch_give(held[k]);
}

START_TEST(slots)
{
	take_all();
	for (unsigned k = 0; k < EHS_SCRATCH_SLOTS; k++) {
		memset(held[k], (int)k, EHS_SCRATCH_SIZE);
		for (unsigned j = 0; j < k; j++) {
			char *a = held[j], *b = held[k];
			ck_assert(a + EHS_SCRATCH_SIZE <= b || b + EHS_SCRATCH_SIZE <= a);
		}
	}
	/* A slot given back is the next one taken. */
	ehs_scratch_give(held[3]);
	ck_assert_ptr_eq(ehs_scratch_take(), held[3]);
	give_all();
	/* The lowest free first: the fewest pages touched. */
	void *first = ehs_scratch_take();
	ck_assert_ptr_eq(first, held[0]);
	ehs_scratch_give(first);
	ehs_scratch_give(NULL);
}
END_TEST

/* What a run's fn saw: its buffer, and a use of all of it. */
struct seen {
	void *buf;
	size_t need;
};

static int note_buffer(void *buf, void *ctx)
{
	struct seen *s = ctx;
	s->buf = buf;
	memset(buf, 0xa5, s->need);	/* the whole of it is fn's */
	return 7;
}

static bool in_a_slot(const void *p)
{
	const char *all = ehs_scratch_slots;
	return all && (const char *)p >= all &&
	       (const char *)p < all + (size_t)EHS_SCRATCH_SLOTS * EHS_SCRATCH_STRIDE;
}

/* fn runs on a slot, given back after; with none free, on the stack,
 * for every size a caller may ask for; fn's answer either way. */
START_TEST(run_slot_else_stack)
{
	static const size_t needs[] = { 1, 1024, 1025, 2048, 4096, 4097, EHS_SCRATCH_SIZE };
	for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++) {
		struct seen s = { NULL, needs[i] };
		ck_assert_int_eq(ehs_scratch_run(needs[i], note_buffer, &s), 7);
		ck_assert(in_a_slot(s.buf));
		void *again = ehs_scratch_take();
		ck_assert_ptr_eq(again, s.buf);	/* given back: the lowest free */
		ehs_scratch_give(again);

		take_all();
		s.buf = NULL;
		ck_assert_int_eq(ehs_scratch_run(needs[i], note_buffer, &s), 7);
		ck_assert_ptr_nonnull(s.buf);
		ck_assert(!in_a_slot(s.buf));
		ck_assert_uint_eq((uintptr_t)s.buf % _Alignof(max_align_t), 0);
		ck_assert_ptr_null(ehs_scratch_take());	/* none taken by the run */
		give_all();
	}
}
END_TEST

static void vsyslog_of(int pri, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ehs_vsyslog(pri, 0, fmt, ap);
	va_end(ap);
}

static void report_of(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ehs_report(LOG_ERR, 0, 2, "t.c", 7, fmt, ap);
	va_end(ap);
}

/* A GLib structured call's fields, its message formatted from fmt. */
static void glib_structured_of(const struct ehs_glog_field *fields, size_t n,
			       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ehs_glib_structured(EHS_G_LOG_LEVEL_WARNING, 0, fields, n, fmt, &ap);
	va_end(ap);
}

/* Calls down every path that takes a slot: the syslog text, one too
 * long for it, a formatted event with a file, a datagram (its record,
 * extras and named head), a stream's frames, a journal entry, a GLib
 * structured call's fields (its MESSAGE's, and formatted) and a native
 * event's head. */
static void calls(struct capture *c)
{
	static const char dg[] = "<14>1 - host t 12 ID7 [ex@1 a=\"b\"] hi";
	static const char frames[] = "<11>a: x\n<12>b: y\n";
	static const char entry[] = "MESSAGE=hi\nPRIORITY=3\nCODE_FILE=f.c\nCODE_LINE=9\nX=1\n";
	static char big[3 * EHS_EVENT_MAX];
	memset(big, 'x', sizeof big - 1);
	memset(c, 0, sizeof *c);
	ue_double_trace(capture_sink, c);
	vsyslog_of(LOG_USER | LOG_ERR, "request %d failed: %m", 42);
	vsyslog_of(LOG_USER | LOG_ERR, "%s.", big);
	report_of("with %s", "a file");
	ehs_datagram_log(dg, sizeof dg - 1, 0);
	ehs_stream_log(frames, sizeof frames - 1, 0);
	ehs_journal_wire_log(entry, sizeof entry - 1, 0);
	const struct ehs_glog_field gf[] = {
		{ "MESSAGE", "hi", -1 }, { "PRIORITY", "4", -1 }, { "GLIB_DOMAIN", "dom", -1 },
		{ "CODE_FILE", "f.c", -1 }, { "CODE_LINE", "9", -1 }, { "X", "\x01\x02", 2 },
	};
	ehs_glib_structured(EHS_G_LOG_LEVEL_WARNING, 0, gf, 6, NULL, NULL);
	glib_structured_of(gf + 1, 5, "request %d", 42);
	const struct ehs_field fields[] = { EHS_STRING("who", "me"), EHS_INT64("n", -3) };
	ehs_event(LOG_USER | LOG_ERR, "native", fields, 2);
	ue_double_trace(NULL, NULL);
}

START_TEST(same_events_without_a_slot)
{
	static struct capture with, without;
	calls(&with);
	take_all();
	calls(&without);
	give_all();
	/* 1 + 4 parts + 1 + 1 + 2 + 1 + 2 + 1 */
	ck_assert_uint_eq(with.count, 13);
	ck_assert_uint_eq(without.count, with.count);
	for (unsigned k = 0; k < with.count; k++) {
		ck_assert_uint_eq(without.len[k], with.len[k]);
		ck_assert_mem_eq(without.data[k], with.data[k], with.len[k]);
	}
}
END_TEST

int main(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	Suite *s = suite_create("bridge scratch");
	TCase *tc = tcase_create("scratch");
	tcase_add_test(tc, slots);
	tcase_add_test(tc, run_slot_else_stack);
	tcase_add_test(tc, same_events_without_a_slot);
	suite_add_tcase(s, tc);
	return check_run(s);
}
