/* SPDX-License-Identifier: MIT */
/*
 * Bad input from the program: every call either becomes its exact event
 * (split into parts when long) or is refused silently; nothing crashes.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <ehsyslog/user_events.h>

#include "reliability/reader.h"
#include "reliability/reliab.h"

#define BIG (1u << 20)

/* The messages of ev from us on tracepoint tp, in order, concatenated. */
static size_t joined(const struct revs *ev, const char *tp, char *out, size_t cap,
		     unsigned *parts)
{
	size_t n = 0;

	*parts = 0;
	for (size_t i = 0; i < ev->n; i++) {
		const struct rev *e = &ev->v[i];
		if (strcmp(e->name, tp) != 0 || e->pid != getpid())
			continue;
		ck_assert_msg(e->msg && e->decoded, "event %zu does not decode", i);
		ck_assert_uint_le(n + e->msg_len, cap);
		memcpy(out + n, e->msg, e->msg_len);
		n += e->msg_len;
		(*parts)++;
	}
	return n;
}

static const struct rev *only(const struct revs *ev, const char *tp)
{
	const struct rev *found = NULL;

	for (size_t i = 0; i < ev->n; i++) {
		if (strcmp(ev->v[i].name, tp) == 0) {
			ck_assert_msg(!found, "two events on %s", tp);
			found = &ev->v[i];
		}
	}
	ck_assert_msg(found != NULL, "no event on %s", tp);
	ck_assert(found->decoded);
	return found;
}

static void drain(struct reader *r, struct revs *ev)
{
	revs_free(ev);
	reader_drain(r, revs_collect, ev);
	revs_sort(ev);
}

START_TEST(bad_input)
{
	static const char *const tps[] = {
		TP_LOCAL0, "Syslog_L2K10", "Syslog_L4K0", TP_LOCAL7,
	};
	struct reader r;
	struct revs ev = { 0 };
	char *big = malloc(BIG + 1), *back = malloc(2 * BIG);
	unsigned parts;
	char ident[5000];

	ck_assert_ptr_nonnull(big);
	ck_assert_ptr_nonnull(back);
	/* Register everything first: the internal complaint goes to
	 * LOG_AUTH|LOG_ERR, facility 100 to the keyword-0 tracepoint. */
	reg(LOG_LOCAL0 | LOG_INFO);
	reg(LOG_AUTH | LOG_ERR);
	reg((100 << 3) | LOG_INFO);
	reg(LOG_LOCAL7 | LOG_INFO);
	reader_open(&r, "reliab_input", 8192);
	for (size_t i = 0; i < sizeof tps / sizeof tps[0]; i++)
		reader_enable(&r, tps[i]);
	drain(&r, &ev);

	/* NULL and empty ident: the program's own name. */
	openlog(NULL, 0, 0);
	syslog(LOG_LOCAL0 | LOG_INFO, "null ident");
	openlog("", 0, 0);
	syslog(LOG_LOCAL0 | LOG_INFO, "empty ident");
	drain(&r, &ev);
	ck_assert_uint_eq(revs_count(&ev, getpid(), "null ident"), 1);
	ck_assert_uint_eq(revs_count(&ev, getpid(), "empty ident"), 1);

	/* Garbage bits: glibc's complaint first, then the masked priority. */
	syslog(0x7000000 | LOG_LOCAL7 | LOG_INFO, "garbage bits");
	drain(&r, &ev);
	ck_assert_uint_eq(revs_count(&ev, getpid(), "garbage bits"), 1);
	ck_assert_uint_eq(revs_count(&ev, getpid(),
				     "syslog: unknown facility/priority: 70000be"), 1);
	ck_assert_uint_eq(only(&ev, "Syslog_L2K10")->facility, 4);

	/* Facility 100: beyond LOG_LOCAL7, within LOG_FACMASK. */
	syslog((100 << 3) | LOG_INFO, "facility 100");
	drain(&r, &ev);
	ck_assert_uint_eq(only(&ev, "Syslog_L4K0")->facility, 100);
	ck_assert_uint_eq(revs_count(&ev, getpid(), "facility 100"), 1);

	/* 1 MB: split, nothing cut, reassembled exactly. */
	for (unsigned i = 0; i < BIG; i++)
		big[i] = (char)('a' + i % 26);
	big[BIG] = '\0';
	syslog(LOG_LOCAL0 | LOG_INFO, "%s", big);
	drain(&r, &ev);
	ck_assert_uint_eq(joined(&ev, TP_LOCAL0, back, 2 * BIG, &parts), BIG);
	ck_assert_mem_eq(back, big, BIG);
	ck_assert_uint_ge(parts, BIG / 4064);
	unsigned big_parts = parts;

	/* Invalid UTF-8, a NUL through %c, a newline-only message. */
	static const char bad_utf8[] = "\xc3\x28 \xff\xfe \xe2\x82";
	syslog(LOG_LOCAL0 | LOG_INFO, "%s", bad_utf8);
	drain(&r, &ev);
	ck_assert_uint_eq(revs_count(&ev, getpid(), bad_utf8), 1);
	syslog(LOG_LOCAL0 | LOG_INFO, "a%cb", 0);
	drain(&r, &ev);
	ck_assert_uint_eq(joined(&ev, TP_LOCAL0, back, 2 * BIG, &parts), 3);
	ck_assert_mem_eq(back, "a\0b", 3);
	syslog(LOG_LOCAL0 | LOG_INFO, "\n");
	drain(&r, &ev);
	ck_assert_uint_eq(joined(&ev, TP_LOCAL0, back, 2 * BIG, &parts), 0);
	ck_assert_uint_eq(parts, 1);

	/* An ident of 4999 bytes: the event name is cut, the event goes. */
	memset(ident, 'i', sizeof ident - 1);
	ident[sizeof ident - 1] = '\0';
	openlog(ident, 0, 0);
	syslog(LOG_LOCAL0 | LOG_INFO, "long ident");
	closelog();
	drain(&r, &ev);
	ck_assert_uint_eq(revs_count(&ev, getpid(), "long ident"), 1);

	reader_close(&r);
	revs_free(&ev);
	free(big);
	free(back);
	report("bad_input", "one call per input",
	       "-", "NULL and empty ident; priority 0x70000be (garbage bits); facility 100; "
	       "a 1 MB message; invalid UTF-8; a NUL via %c; \"\\n\" only; a 4999-byte ident",
	       "every call became its exact event(s); the 1 MB message arrived whole in %u "
	       "parts; glibc's complaint for the garbage bits arrived too", big_parts);
}
END_TEST

/* A provider from the environment at the length limit (200) is used; one
 * byte over is refused and the default provider used instead. */
START_TEST(long_provider)
{
	static char name200[201], name201[202], tpname[256];
	static struct ue_tracepoint tp;
	struct reader r;
	struct revs ev = { 0 };
	int st;
	pid_t a, b;

	memset(name200, 'P', 200);
	memset(name201, 'P', 201);
	snprintf(tpname, sizeof tpname, "%s_L4K800000", name200);
	tp = (struct ue_tracepoint)UE_TRACEPOINT_INIT(tpname);
	ck_assert_int_eq(ue_tracepoint_register(&tp, 0), 0);
	reg(LOG_LOCAL7 | LOG_INFO);
	reader_open(&r, "reliab_provider", 0);
	reader_enable(&r, tpname);
	reader_enable(&r, TP_LOCAL7);
	unlink("/tmp/reliab-provider-out");
	setenv("EHSYSLOG_PROVIDER", name200, 1);
	a = run_subject(&st, "/tmp/reliab-provider-out",
			(char *[]){ (char *)"log", (char *)"provider", (char *)"1", (char *)"7", NULL });
	ck_assert_int_eq(st, 0);
	setenv("EHSYSLOG_PROVIDER", name201, 1);
	b = run_subject(&st, "/tmp/reliab-provider-out",
			(char *[]){ (char *)"log", (char *)"provider", (char *)"1", (char *)"7", NULL });
	ck_assert_int_eq(st, 0);
	ck_assert_int_eq(file_size("/tmp/reliab-provider-out"), 0);
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	ck_assert_uint_eq(ev.n, 2);
	for (size_t i = 0; i < ev.n; i++)
		ck_assert_msg(ev.v[i].decoded, "%s from %d does not decode", ev.v[i].name,
			      ev.v[i].pid);
	ck_assert_uint_eq(revs_count(&ev, a, "provider 0"), 1);
	ck_assert_uint_eq(revs_count(&ev, b, "provider 0"), 1);
	for (size_t i = 0; i < ev.n; i++)
		ck_assert_str_eq(ev.v[i].name, ev.v[i].pid == a ? tpname : TP_LOCAL7);
	revs_free(&ev);
	report("long_provider", "one call per provider", "-",
	       "provider names of 200 (the limit) and 201 bytes from the environment",
	       "200: used (tracepoint name of 211 bytes); 201: refused, default provider used");
}
END_TEST

Suite *input_suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("input");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, long_provider);
	suite_add_tcase(s, tc);
	return s;
}
