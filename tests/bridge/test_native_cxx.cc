/* SPDX-License-Identifier: MIT */
/*
 * The native API of <ehsyslog.h> used from C++, built once per standard
 * (test_native_cxx11, test_native_cxx23: tests/bridge/local.mk) with
 * -Wall -Wextra -pedantic -Werror, over the writer's double as
 * test_native.c is.  Every field type through each form (ehs_event,
 * ehs_event_cached, EHS_EVENT, EHS_EMIT), each event checked byte for byte
 * against the bytes test_native.c knows ehs_event writes, and decoded;
 * the C++ field macros converting values as the C ones do; call sites in
 * templates (one site per instantiation: their field types differ),
 * lambdas and an inline function; the refusals; an untraced EHS_EMIT
 * evaluating no field.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <syslog.h>

#include <ehsyslog.h>
#include <eventheader/eventheader.h>

/* The bridge's and the tests' own headers are C's. */
extern "C" {
#include "bridge/bridge.h"
#include "capture.h"
}
#include "native_expect.h"

/* Event i decoded as text and as JSON, read from tracepoint tp. */
static void expect_decoded(unsigned i, const char *tp, const char *text, const char *json)
{
	char got[512];
	ck_assert_uint_gt(cap.count, i);
	ck_assert_int_gt(eh_decode_text(tp, cap.data[i], cap.len[i], NULL, EH_DECODE_NAME,
					got, sizeof got), 0);
	ck_assert_str_eq(got, text);
	ck_assert_int_gt(eh_decode_json(tp, cap.data[i], cap.len[i], NULL, EH_DECODE_NAME,
					got, sizeof got), 0);
	ck_assert_str_eq(got, json);
}

static const char every_text[] = "Syslog:req_x s=\"hi\" i=-2 u=3 e=ENOENT(2) b=true n=\"\"";
static const char every_json[] =
	"{\"n\":\"Syslog:req_x\",\"s\":\"hi\",\"i\":-2,\"u\":3,\"e\":\"ENOENT(2)\",\"b\":true,\"n\":\"\"}";

/* The same fields as C++ builds them: a NULL string, a boolean of 7,
 * values of other integer types that convert as in C. */
#define EVERY_FIELDS(hi) \
	EHS_STRING("s", hi), EHS_INT64("i", -2), EHS_UINT64("u", 3u), \
	EHS_ERRNO("e", ENOENT), EHS_BOOL("b", 7), EHS_STRING("n", NULL)

enum form { EVENT, CACHED, MACRO, EMIT, FORMS };

static int every(enum form how)
{
	static struct ehs_event_cache cache;
	const std::string hi("hi");
	const struct ehs_field f[] = { EVERY_FIELDS(hi.c_str()) };
	switch (how) {
	case EVENT:
		return ehs_event(LOG_DAEMON | LOG_WARNING, "req;x", f, 6);
	case CACHED:
		return ehs_event_cached(&cache, LOG_DAEMON | LOG_WARNING, "req;x", f, 6);
	case MACRO:
		return EHS_EVENT(LOG_DAEMON | LOG_WARNING, "req;x", f, 6);
	case EMIT:
		/* A temporary's string: it lives until the event is written. */
		return EHS_EMIT(LOG_DAEMON | LOG_WARNING, "req;x",
				EVERY_FIELDS(std::string("hi").c_str()));
	case FORMS:
		break;
	}
	return -1;
}

/* Each form three times (the first call filling a cache or site, the
 * others reading it): ehs_event's bytes every time, errno kept. */
START_TEST(every_type_every_form)
{
	for (int how = EVENT; how < FORMS; how++)
		for (unsigned i = 0; i < 3; i++) {
			memset(&cap, 0, sizeof cap);
			errno = EBADF;
			ck_assert_int_eq(every(static_cast<enum form>(how)), 1);
			ck_assert_int_eq(errno, EBADF);
			ck_assert_uint_eq(cap.count, 1);
			expect_event(0, every_type, sizeof every_type - 1);
			expect_decoded(0, "Syslog_L3K8", every_text, every_json);
		}
}
END_TEST

/* UINT8, with test_native.c's bytes: 300 cut to 8 bits as C's cast does. */
static int u8(enum form how)
{
	static struct ehs_event_cache cache;
	const int low = 300;
	const struct ehs_field f[] = { EHS_UINT8("code", 200), EHS_UINT8("low", low) };
	switch (how) {
	case EVENT:
		return ehs_event(LOG_INFO, "web", f, 2);
	case CACHED:
		return ehs_event_cached(&cache, LOG_INFO, "web", f, 2);
	case MACRO:
		return EHS_EVENT(LOG_INFO, "web", f, 2);
	case EMIT:
		return EHS_EMIT(LOG_INFO, "web", EHS_UINT8("code", 200), EHS_UINT8("low", low));
	case FORMS:
		break;
	}
	return -1;
}

START_TEST(uint8_every_form)
{
	for (int how = EVENT; how < FORMS; how++)
		for (unsigned i = 0; i < 2; i++) {
			memset(&cap, 0, sizeof cap);
			ck_assert_int_eq(u8(static_cast<enum form>(how)), 1);
			expect_event(0, u8_event, sizeof u8_event - 1);
			expect_decoded(0, "Syslog_L4K2", "Syslog:web code=200 low=44",
				       "{\"n\":\"Syslog:web\",\"code\":200,\"low\":44}");
		}
}
END_TEST

/* The C++ field macros give the struct the C initialisers give. */
START_TEST(field_values)
{
	const char *none = nullptr;
	const struct ehs_field f[] = {
		EHS_STRING("s", "x"), EHS_INT64("i", INT64_MIN), EHS_UINT64("u", -1),
		EHS_ERRNO("e", -EIO), EHS_BOOL("b", std::string("t").size()),
		EHS_BOOL("f", none), EHS_UINT8("n", 511), EHS_UINT8("c", 'A'),
	};
	ck_assert_str_eq(f[0].name, "s");
	ck_assert_int_eq(f[0].type, EHS_FIELD_STRING);
	ck_assert_str_eq(f[0].v.s, "x");
	ck_assert_int_eq(f[1].type, EHS_FIELD_INT64);
	ck_assert(f[1].v.i == INT64_MIN);
	ck_assert_int_eq(f[2].type, EHS_FIELD_UINT64);
	ck_assert(f[2].v.u == UINT64_MAX);
	ck_assert_int_eq(f[3].type, EHS_FIELD_ERRNO);
	ck_assert(f[3].v.i == -EIO);
	ck_assert_int_eq(f[4].type, EHS_FIELD_BOOL);
	ck_assert(f[4].v.u == 1);
	ck_assert(f[5].v.u == 0);
	ck_assert_int_eq(f[6].type, EHS_FIELD_UINT8);
	ck_assert(f[6].v.u == 255);
	ck_assert(f[7].v.u == 65);
}
END_TEST

/* Sites in other places C++ puts code: a template's instantiations each
 * have their own, here with other field types (one shared site would
 * write one instantiation's values under another's head); a lambda's;
 * an inline function's, one for all its callers. */
static struct ehs_field value_field(long long v)
{
	return EHS_INT64("v", v);
}

static struct ehs_field value_field(const char *v)
{
	return EHS_STRING("v", v);
}

static struct ehs_field value_field(bool v)
{
	return EHS_BOOL("v", v);
}

template <typename T> static int emit_value(T v)
{
	return EHS_EMIT(LOG_NOTICE, "value", value_field(v), EHS_UINT8("k", sizeof(T)));
}

template <typename T> static int event_value(T v)
{
	const struct ehs_field f[] = { value_field(v), EHS_UINT8("k", sizeof(T)) };
	return EHS_EVENT(LOG_NOTICE, "value", f, 2);
}

inline int emit_inline(unsigned n)
{
	return EHS_EMIT(LOG_ERR, "inline", EHS_UINT64("n", n));
}

/* ehs_event's bytes for the value v, then what call writes. */
template <typename T, typename F> static void same_as_event(T v, F call)
{
	const struct ehs_field f[] = { value_field(v), EHS_UINT8("k", sizeof(T)) };
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(ehs_event(LOG_NOTICE, "value", f, 2), 1);
	ck_assert_int_eq(call(v), 1);
	ck_assert_uint_eq(cap.count, 2);
	ck_assert_uint_eq(cap.len[1], cap.len[0]);
	ck_assert_mem_eq(cap.data[1], cap.data[0], cap.len[0]);
}

START_TEST(sites)
{
	for (unsigned i = 0; i < 3; i++) {
		same_as_event(-1000LL * i, emit_value<long long>);
		same_as_event("text", emit_value<const char *>);
		same_as_event(i == 1, emit_value<bool>);
		same_as_event(-1000LL * i, event_value<long long>);
		same_as_event("text", event_value<const char *>);
		same_as_event(i == 1, event_value<bool>);
		same_as_event(7LL, [](long long v) {
			return EHS_EMIT(LOG_NOTICE, "value", EHS_INT64("v", v),
					EHS_UINT8("k", sizeof v));
		});
		same_as_event("lambda", [](const char *v) {
			const struct ehs_field f[] = { EHS_STRING("v", v), EHS_UINT8("k", sizeof v) };
			return EHS_EVENT(LOG_NOTICE, "value", f, 2);
		});
	}
	expect_decoded(1, "Syslog_L4K4", "Syslog:value v=\"lambda\" k=8",
		       "{\"n\":\"Syslog:value\",\"v\":\"lambda\",\"k\":8}");

	/* The inline function's one site, across openlog. */
	char ident[16] = "first";
	for (unsigned i = 0; i < 4; i++) {
		memset(&cap, 0, sizeof cap);
		ck_assert_int_eq(emit_inline(i), 1);
		ck_assert_int_eq(emit_inline(i + 100), 1);
		char text[64], json[64];
		snprintf(text, sizeof text, "Syslog:inline n=%u", i + 100);
		snprintf(json, sizeof json, "{\"n\":\"Syslog:inline\",\"n\":%u}", i + 100);
		ck_assert_uint_eq(cap.data[1][7], 2);	/* LOG_ERR's level */
		expect_decoded(1, "Syslog_L2K2", text, json);
		if (i == 1) {
			ehs_openlog(ident, 0, LOG_LOCAL5);
			strcpy(ident, "second");
		}
	}
	ehs_closelog();
}
END_TEST

/* The values ehs_event refuses, refused by EHS_EMIT and EHS_EVENT the
 * same way; an untraced EHS_EMIT evaluates no field. */
static int emit_text(const char *s)
{
	return EHS_EMIT(LOG_INFO, "refusals", EHS_STRING("s", s), EHS_UINT8("u", 1));
}

static int event_text(const char *s)
{
	const struct ehs_field f[] = { EHS_STRING("s", s), EHS_UINT8("u", 1) };
	return EHS_EVENT(LOG_INFO, "refusals", f, 2);
}

START_TEST(refusals_and_untraced)
{
	static char text[70000];
	memset(text, 'x', sizeof text - 1);
	const char *end = text + sizeof text - 1;
	const struct {
		const char *s;
		int r, err;
	} calls[] = {
		{ end - 65536, -1, EINVAL }, { end - 5000, -1, E2BIG }, { "ok", 1, 0 },
		{ end - 65536, -1, EINVAL }, { end - 5000, -1, E2BIG }, { "ok", 1, 0 },
	};
	for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++)
		for (int how = 0; how < 2; how++) {
			memset(&cap, 0, sizeof cap);
			errno = 0;
			ck_assert_int_eq(how ? event_text(calls[i].s) : emit_text(calls[i].s),
					 calls[i].r);
			ck_assert_int_eq(errno, calls[i].err);
			ck_assert_uint_eq(cap.count, calls[i].r == 1 ? 1 : 0);
		}

	ue_double_trace(NULL, NULL);
	ck_assert(!ehs_enabled(LOG_NOTICE));
	unsigned evaluated = 0;
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_int_eq(EHS_EMIT(LOG_NOTICE, "idle", EHS_UINT8("n", ++evaluated)), 0);
		const struct ehs_field f[] = { EHS_UINT8("n", i) };
		ck_assert_int_eq(EHS_EVENT(LOG_NOTICE, "idle", f, 1), 0);
	}
	ck_assert_uint_eq(evaluated, 1);
	ue_double_trace(capture_sink, &cap);
	ck_assert(ehs_enabled(LOG_NOTICE));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge native C++");
	TCase *tc = tcase_create("native_cxx");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, every_type_every_form);
	tcase_add_test(tc, uint8_every_form);
	tcase_add_test(tc, field_values);
	tcase_add_test(tc, sites);
	tcase_add_test(tc, refusals_and_untraced);
	suite_add_tcase(s, tc);
	return check_run(s);
}
