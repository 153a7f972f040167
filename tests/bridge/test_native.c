/* SPDX-License-Identifier: MIT */
/*
 * The native API of <ehsyslog.h> on the host (the bridge built for tests,
 * a capturing sink): ehs_event's exact bytes for every field type, u8
 * fields and how they decode, the errors, and ehs_event_cached / EHS_EVENT
 * writing the same bytes as ehs_event, whatever happens between calls
 * (other values, levels, openlog, other events through the same cache),
 * also while threads and a signal handler fill caches at once; EHS_EMIT
 * writing the same bytes as ehs_event for every type and refusal.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <syslog.h>

#include <ehsyslog.h>
#include <eventheader/eventheader.h>

#include "bridge/bridge.h"
#include "bridge/api/native_cache.h"
#include "capture.h"
#include "native_expect.h"

START_TEST(every_type_bytes)
{
	struct ehs_field f[] = {
		EHS_STRING("s", "hi"), EHS_INT64("i", -2), EHS_UINT64("u", 3),
		EHS_ERRNO("e", ENOENT), EHS_BOOL("b", 7), EHS_STRING("n", NULL),
	};
	errno = EBADF;
	ck_assert_int_eq(ehs_event(LOG_DAEMON | LOG_WARNING, "req;x", f, 6), 1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_uint_eq(cap.count, 1);
	expect_event(0, every_type, sizeof every_type - 1);
}
END_TEST

START_TEST(uint8_bytes)
{
	struct ehs_field f[] = { EHS_UINT8("code", 200), EHS_UINT8("low", 300) };
	ck_assert_int_eq(ehs_event(LOG_INFO, "web", f, 2), 1);
	expect_event(0, u8_event, sizeof u8_event - 1);

	/* Set by hand beyond 255: refused, as any bad argument. */
	f[0].v.u = 256;
	errno = 0;
	ck_assert_int_eq(ehs_event(LOG_INFO, "web", f, 2), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cap.count, 1);
}
END_TEST

START_TEST(uint8_decodes)
{
	struct ehs_field f[] = {
		EHS_STRING("path", "/"), EHS_UINT8("code", 200), EHS_UINT8("retries", 0),
	};
	ck_assert_int_eq(ehs_event(LOG_INFO, "web", f, 3), 1);
	char text[256], json[256];
	ck_assert_int_gt(eh_decode_text("Syslog_L4K2", cap.data[0], cap.len[0], NULL,
					EH_DECODE_NAME, text, sizeof text), 0);
	ck_assert_str_eq(text, "Syslog:web path=\"/\" code=200 retries=0");
	ck_assert_int_gt(eh_decode_json("Syslog_L4K2", cap.data[0], cap.len[0], NULL,
					EH_DECODE_NAME, json, sizeof json), 0);
	ck_assert_str_eq(json, "{\"n\":\"Syslog:web\",\"path\":\"/\",\"code\":200,\"retries\":0}");
}
END_TEST

/* ehs_event, or ehs_event_cached with a fresh cache each time. */
static int write_one(int cached, int pri, const char *name, const struct ehs_field *f, unsigned n)
{
	static struct ehs_event_cache c;
	memset(&c, 0, sizeof c);
	return cached ? ehs_event_cached(&c, pri, name, f, n) : ehs_event(pri, name, f, n);
}

static void expect_error(int cached, int err, const struct ehs_field *f, unsigned n)
{
	errno = 0;
	ck_assert_int_eq(write_one(cached, LOG_INFO, "bad", f, n), -1);
	ck_assert_int_eq(errno, err);
	ck_assert_uint_eq(cap.count, 0);
}

START_TEST(errors)
{
	int cached = _i;
	static char text[70000];
	memset(text, 'x', sizeof text - 1);
	struct ehs_field ok = EHS_UINT8("ok", 1);

	struct ehs_field f[] = { ok, EHS_STRING(NULL, "x") };
	expect_error(cached, EINVAL, f, 2);
	f[1].name = "";
	expect_error(cached, EINVAL, f, 2);
	f[1].name = "a;b";
	expect_error(cached, EINVAL, f, 2);
	f[1].name = "t";
	f[1].type = (enum ehs_field_type)99;
	expect_error(cached, EINVAL, f, 2);
	f[1] = EHS_STRING("t", text + sizeof text - 1 - 65536);	/* 65536 bytes */
	expect_error(cached, EINVAL, f, 2);
	expect_error(cached, EINVAL, NULL, 1);
	struct ehs_field many[EHS_FIELDS_MAX + 1];
	for (unsigned i = 0; i < EHS_FIELDS_MAX + 1; i++)
		many[i] = ok;
	expect_error(cached, EINVAL, many, EHS_FIELDS_MAX + 1);
	/* A bad argument is EINVAL even after the event stopped fitting. */
	struct ehs_field big_then_bad[] = { EHS_STRING("t", text + sizeof text - 1 - 5000), ok };
	big_then_bad[1].v.u = 999;
	expect_error(cached, EINVAL, big_then_bad, 2);

	/* Too big: values, or the whole event, over 4064 bytes. */
	f[1] = EHS_STRING("t", text + sizeof text - 1 - 5000);
	expect_error(cached, E2BIG, f, 2);
	/* Scalars after a string that filled the event, then a long one. */
	struct ehs_field past[] = {
		EHS_STRING("t", text + sizeof text - 1 - 4060), EHS_INT64("a", 1),
		EHS_INT64("b", 2), EHS_STRING("u", text + sizeof text - 1 - 60000),
	};
	expect_error(cached, E2BIG, past, 4);
	size_t fits = 4064 - 12 - sizeof "bad" - sizeof "t" - 1 - 2;
	f[0] = EHS_STRING("t", text + sizeof text - 1 - fits);
	ck_assert_int_eq(write_one(cached, LOG_INFO, "bad", f, 1), 1);
	ck_assert_uint_eq(cap.len[0], 4064);
	cap.count = 0;
	f[0].v.s--;
	expect_error(cached, E2BIG, f, 1);
	/* Metadata over 2048 bytes. */
	static char names[EHS_FIELDS_MAX][80];
	for (unsigned i = 0; i < EHS_FIELDS_MAX; i++) {
		snprintf(names[i], sizeof names[i], "%075u", i);
		many[i] = EHS_UINT8(names[i], 1);
	}
	expect_error(cached, E2BIG, many, EHS_FIELDS_MAX);
}
END_TEST

/* The call through cache writes the bytes ehs_event writes. */
static void same_as_uncached(struct ehs_event_cache *c, int pri, const char *name,
			     const struct ehs_field *f, unsigned n)
{
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(ehs_event(pri, name, f, n), 1);
	errno = EBADF;
	ck_assert_int_eq(ehs_event_cached(c, pri, name, f, n), 1);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_uint_eq(cap.count, 2);
	ck_assert_uint_eq(cap.len[1], cap.len[0]);
	ck_assert_mem_eq(cap.data[1], cap.data[0], cap.len[0]);
}

static const char *const a_name = "request", *const b_name = "reply";

static void fields_a(struct ehs_field f[4], unsigned i)
{
	static char path[32];
	snprintf(path, sizeof path, "/item/%u", i);
	f[0] = EHS_STRING("path", path);
	f[1] = EHS_UINT8("method", i);
	f[2] = EHS_INT64("size", -(int64_t)i * 1000);
	f[3] = EHS_BOOL("tls", i & 1);
}

static void fields_b(struct ehs_field f[2], unsigned i)
{
	f[0] = EHS_ERRNO("error", (int)i);
	f[1] = EHS_UINT64("bytes", (uint64_t)i << 40);
}

static bool holds(const struct ehs_event_cache *c, const char *name, unsigned n)
{
	return ehs_native_cache_get(c, name, n) != NULL;
}

START_TEST(cached_same_bytes)
{
	static struct ehs_event_cache ca, cb, cn;
	struct ehs_field a[4], b[2];
	char ident[16] = "first";

	/* Filled by the first call, then read: two events alternating,
	 * each with its own cache, every level. */
	for (unsigned i = 0; i < 10; i++) {
		int severity = (int)(i % 8);
		fields_a(a, i);
		same_as_uncached(&ca, severity, a_name, a, 4);
		ck_assert_uint_eq(cap.data[0][7], ehs_level(severity));
		fields_b(b, i);
		same_as_uncached(&cb, LOG_LOCAL1 | severity, b_name, b, 2);
		same_as_uncached(&cn, severity, NULL, b, 1);
		if (i == 4) {
			/* openlog: another ident and facility; the events
			 * keep their own names (the program's for NULL). */
			ehs_openlog(ident, 0, LOG_LOCAL5);
			strcpy(ident, "second");
			ehs_openlog(ident, 0, LOG_MAIL);
		}
	}
	ck_assert_str_eq((const char *)cap.data[1] + 12, program_invocation_short_name);
	ehs_closelog();
	ck_assert(holds(&ca, a_name, 4));
	ck_assert(holds(&cb, b_name, 2));
	ck_assert(holds(&cn, NULL, 1));

	/* The other event through a cache: written as ehs_event writes it,
	 * and the cache keeps its first event. */
	same_as_uncached(&ca, LOG_ERR, b_name, b, 2);
	ck_assert(holds(&ca, a_name, 4));
	same_as_uncached(&ca, LOG_ERR, a_name, a, 4);

	/* The same event but for another field name, a type changed, a
	 * field fewer, another event name. */
	a[0].name = "route";
	same_as_uncached(&ca, LOG_INFO, a_name, a, 4);
	a[0].name = "path";
	a[1] = EHS_UINT64("method", 3);
	same_as_uncached(&ca, LOG_INFO, a_name, a, 4);
	fields_a(a, 3);
	same_as_uncached(&ca, LOG_INFO, a_name, a, 3);
	same_as_uncached(&ca, LOG_INFO, "Request", a, 4);
	ck_assert(holds(&ca, a_name, 4));
	same_as_uncached(&ca, LOG_INFO, a_name, a, 4);
}
END_TEST

START_TEST(cache_edge_cases)
{
	/* No name (the program's), no fields, the macro's own cache. */
	static struct ehs_event_cache c0, c1;
	same_as_uncached(&c0, LOG_INFO, NULL, NULL, 0);
	same_as_uncached(&c0, LOG_INFO, NULL, NULL, 0);
	ck_assert(holds(&c0, NULL, 0));
	ck_assert_str_eq((const char *)cap.data[0] + 12, program_invocation_short_name);
	for (unsigned i = 0; i < 3; i++) {
		struct ehs_field f[] = { EHS_UINT8("n", i) };
		memset(&cap, 0, sizeof cap);
		ck_assert_int_eq(EHS_EVENT(LOG_INFO, "macro", f, 1), 1);
		ck_assert_int_eq(ehs_event(LOG_INFO, "macro", f, 1), 1);
		ck_assert_mem_eq(cap.data[0], cap.data[1], cap.len[1]);
	}

	/* A head too big to keep: written all the same, every time. */
	static char names[EHS_FIELDS_MAX][40];
	struct ehs_field many[EHS_FIELDS_MAX];
	for (unsigned i = 0; i < EHS_FIELDS_MAX; i++) {
		snprintf(names[i], sizeof names[i], "field_%u", i);
		many[i] = EHS_UINT8(names[i], i);
	}
	same_as_uncached(&c1, LOG_INFO, "many", many, EHS_FIELDS_MAX);
	same_as_uncached(&c1, LOG_INFO, "many", many, EHS_FIELDS_MAX);
	ck_assert(!holds(&c1, "many", EHS_FIELDS_MAX));
	/* And the cache is still free for one that fits. */
	same_as_uncached(&c1, LOG_INFO, "many", many, 2);
	ck_assert(holds(&c1, "many", 2));
}
END_TEST

/* Through a filled cache, the values ehs_event refuses are refused the
 * same way (nothing written, the same errno), the ones it rewrites (a
 * NULL string, a boolean set by hand beyond 1) are rewritten the same,
 * and the cache stays as it was. */
START_TEST(cached_refusals)
{
	static struct ehs_event_cache c;
	static char text[70000];
	memset(text, 'x', sizeof text - 1);
	struct ehs_field f[] = {
		EHS_STRING("s", "ok"), EHS_UINT8("u", 1), EHS_BOOL("b", 0), EHS_INT64("i", -5),
	};
	same_as_uncached(&c, LOG_INFO, "refusals", f, 4);
	ck_assert(holds(&c, "refusals", 4));

	struct {
		int field;
		struct ehs_field value;
		int err;
	} bad[] = {
		{ 1, EHS_UINT8("u", 0), EINVAL },	/* then set to 256 */
		{ 0, EHS_STRING("s", text + sizeof text - 1 - 65536), EINVAL },
		{ 0, EHS_STRING("s", text + sizeof text - 1 - 5000), E2BIG },
		{ 0, EHS_STRING("s", text + sizeof text - 1 - 4064), E2BIG },
	};
	bad[0].value.v.u = 256;
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ehs_field g[4];
		memcpy(g, f, sizeof g);
		g[bad[i].field] = bad[i].value;
		memset(&cap, 0, sizeof cap);
		for (int cached = 0; cached < 2; cached++) {
			errno = 0;
			ck_assert_int_eq(cached ? ehs_event_cached(&c, LOG_INFO, "refusals", g, 4)
						: ehs_event(LOG_INFO, "refusals", g, 4), -1);
			ck_assert_int_eq(errno, bad[i].err);
		}
		ck_assert_uint_eq(cap.count, 0);
	}

	/* A count no cache can hold, against a filled cache and an empty
	 * one, whose zeroes (a NULL name, no type) the call's look like. */
	static struct ehs_event_cache empty;
	static struct ehs_field zeroes[2];
	for (unsigned n = EHS_FIELDS_MAX + 1; n != 0; n = n == UINT_MAX ? 0 : UINT_MAX) {
		errno = 0;
		ck_assert_int_eq(ehs_event_cached(&c, LOG_INFO, "refusals", f, n), -1);
		ck_assert_int_eq(errno, EINVAL);
		errno = 0;
		ck_assert_int_eq(ehs_event_cached(&empty, LOG_INFO, NULL, zeroes, n), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	ck_assert_uint_eq(cap.count, 0);

	/* The largest string that fits, then one byte more. */
	size_t fits = 4064 - 12 - sizeof "refusals" - sizeof "s" - 1 - 2 - sizeof "u" - 1 -
		      sizeof "b" - 2 - sizeof "i" - 2 - 1 - 1 - 8;
	f[0].v.s = text + sizeof text - 1 - fits;
	same_as_uncached(&c, LOG_INFO, "refusals", f, 4);
	ck_assert_uint_eq(cap.len[1], 4064);
	f[0].v.s--;
	memset(&cap, 0, sizeof cap);
	errno = 0;
	ck_assert_int_eq(ehs_event_cached(&c, LOG_INFO, "refusals", f, 4), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_uint_eq(cap.count, 0);

	/* Rewritten values, then two strings around the scalars. */
	f[0].v.s = NULL;
	f[2].v.u = 7;
	same_as_uncached(&c, LOG_INFO, "refusals", f, 4);
	ck_assert_uint_eq(cap.data[1][cap.len[1] - 9], 1);
	ck_assert(holds(&c, "refusals", 4));
	static struct ehs_event_cache c2;
	struct ehs_field two[] = {
		EHS_STRING("a", ""), EHS_ERRNO("e", EIO), EHS_STRING("b", "tail"), EHS_STRING("c", "z"),
	};
	same_as_uncached(&c2, LOG_ERR, "two", two, 4);
	same_as_uncached(&c2, LOG_ERR, "two", two, 4);
	two[0].v.s = "front";
	same_as_uncached(&c2, LOG_DEBUG, "two", two, 4);
	ck_assert(holds(&c2, "two", 4));
}
END_TEST

/* EHS_EMIT with these fields writes what ehs_event writes for them and
 * leaves errno alone; through its own call site, priority and name. */
#define SAME_AS_EMIT(pri, name, ...) do { \
		const struct ehs_field f_[] = { __VA_ARGS__ }; \
		memset(&cap, 0, sizeof cap); \
		ck_assert_int_eq(ehs_event(pri, name, f_, sizeof f_ / sizeof f_[0]), 1); \
		errno = EBADF; \
		ck_assert_int_eq(EHS_EMIT(pri, name, __VA_ARGS__), 1); \
		ck_assert_int_eq(errno, EBADF); \
		ck_assert_uint_eq(cap.count, 2); \
		ck_assert_uint_eq(cap.len[1], cap.len[0]); \
		ck_assert_mem_eq(cap.data[1], cap.data[0], cap.len[0]); \
	} while (0)

/* Every type, at several priorities, the first call of each site
 * filling it and the others reading it, across openlog. */
START_TEST(emit_same_bytes)
{
	char ident[16] = "first", path[32];
	for (unsigned i = 0; i < 6; i++) {
		snprintf(path, sizeof path, "/item/%u", i);
		SAME_AS_EMIT(LOG_INFO, "request", EHS_STRING("path", path),
			     EHS_INT64("size", -(int64_t)i * 1000), EHS_UINT8("method", i * 60));
		SAME_AS_EMIT(LOG_LOCAL1 | LOG_ERR, "every", EHS_STRING("s", i & 1 ? NULL : "hi"),
			     EHS_INT64("i", INT64_MIN + i), EHS_UINT64("u", UINT64_MAX - i),
			     EHS_ERRNO("e", (int)i), EHS_BOOL("b", i), EHS_UINT8("n", 255 - i),
			     EHS_STRING("t", path));
		SAME_AS_EMIT(LOG_DEBUG, "one", EHS_UINT8("n", i));
		SAME_AS_EMIT(LOG_EMERG, "two", EHS_STRING("a", ""), EHS_STRING("b", path));
		if (i == 2) {
			ehs_openlog(ident, 0, LOG_LOCAL5);
			strcpy(ident, "second");
			ehs_openlog(ident, 0, LOG_MAIL);
		}
	}
	ehs_closelog();
	ck_assert_uint_eq(cap.data[1][7], ehs_level(LOG_EMERG));
}
END_TEST

/* The values ehs_event refuses, refused the same way by a site before
 * and after it is filled; the largest event that fits, then one byte
 * more; nothing from inside the library; no values evaluated when
 * untraced. */
static int emit_text(const char *text)
{
	return EHS_EMIT(LOG_INFO, "refusals", EHS_STRING("s", text), EHS_UINT8("u", 1));
}

START_TEST(emit_refusals)
{
	static char text[70000];
	memset(text, 'x', sizeof text - 1);
	const char *end = text + sizeof text - 1;
	size_t fits = 4064 - 12 - sizeof "refusals" - sizeof "s" - 1 - sizeof "u" - 1 - 2 - 1;
	const struct {
		const char *s;
		int r, err;
	} calls[] = {
		{ end - 65536, -1, EINVAL }, { end - 5000, -1, E2BIG }, { end - fits - 1, -1, E2BIG },
		{ end - fits, 1, 0 }, { end - 65536, -1, EINVAL }, { end - 5000, -1, E2BIG },
		{ end - fits - 1, -1, E2BIG }, { "ok", 1, 0 },
	};
	for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		struct ehs_field f[] = { EHS_STRING("s", calls[i].s), EHS_UINT8("u", 1) };
		memset(&cap, 0, sizeof cap);
		errno = 0;
		ck_assert_int_eq(ehs_event(LOG_INFO, "refusals", f, 2), calls[i].r);
		ck_assert_int_eq(errno, calls[i].err);
		errno = 0;
		ck_assert_int_eq(emit_text(calls[i].s), calls[i].r);
		ck_assert_int_eq(errno, calls[i].err);
		ck_assert_uint_eq(cap.count, calls[i].r == 1 ? 2 : 0);
		if (calls[i].r == 1)
			ck_assert_mem_eq(cap.data[1], cap.data[0], cap.len[0]);
	}
	ck_assert_uint_eq(cap.len[0], 3 + 2 + 12 + sizeof "refusals" + sizeof "s" + 1 + sizeof "u" + 1);

	/* From inside the library (a signal handler interrupting it). */
	memset(&cap, 0, sizeof cap);
	ehs_busy = 1;
	ck_assert_int_eq(emit_text("ok"), 0);
	ehs_busy = 0;
	ck_assert_uint_eq(cap.count, 0);

	/* Untraced (no sink; whether user_events is there or not, nobody
	 * records this tracepoint): the first call finds its tracepoint
	 * idle, the next ones read its word only. */
	ue_double_trace(NULL, NULL);
	unsigned evaluated = 0;
	for (unsigned i = 0; i < 3; i++)
		ck_assert_int_eq(EHS_EMIT(LOG_NOTICE, "idle", EHS_UINT8("n", ++evaluated)), 0);
	ck_assert_uint_eq(evaluated, 1);
}
END_TEST

/* The race: threads and a signal handler walk the same fresh caches, the
 * first to reach each filling it while the others read it or write their
 * own head.  The sink checks every event against the two possible. */
#define RACE_CACHES 20000
static struct ehs_event_cache *race_caches;
static struct capture race_want;
static atomic_uint race_seen[2], race_bad;
static const char *const race_names[2] = { "alpha", "a-much-longer-name" };

static void race_fields(struct ehs_field f[3], unsigned k)
{
	f[0] = EHS_STRING("text", "same");
	f[1] = EHS_UINT8(k ? "u8" : "another-u8", 9);
	f[2] = EHS_INT64("n", -1);
}

static int race_sink(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx;
	int k = capture_which(&race_want, iov, iovcnt);
	atomic_fetch_add(k < 0 ? &race_bad : &race_seen[k], 1);
	return 0;
}

static pthread_barrier_t race_start;

/* Every walker starts at the same cache, at the same time. */
static void race_walk(void)
{
	struct ehs_field f[3];
	pthread_barrier_wait(&race_start);
	for (unsigned c = 0; c < RACE_CACHES; c++) {
		unsigned k = c % 2;
		race_fields(f, k);
		ehs_event_cached(&race_caches[c], LOG_INFO, race_names[k], f, 3);
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	static atomic_uint next;
	int saved = errno;
	struct ehs_field f[3];
	unsigned c = atomic_fetch_add(&next, 7) % RACE_CACHES, k = c % 2;
	race_fields(f, k);
	ehs_event_cached(&race_caches[c], LOG_INFO, race_names[k], f, 3);
	errno = saved;
}

static void *race_logger(void *arg)
{
	(void)arg;
	race_walk();
	return NULL;
}

START_TEST(fill_races)
{
	memset(&race_want, 0, sizeof race_want);
	for (unsigned k = 0; k < 2; k++) {
		struct ehs_field f[3];
		race_fields(f, k);
		ue_double_trace(capture_sink, &race_want);
		ck_assert_int_eq(ehs_event(LOG_INFO, race_names[k], f, 3), 1);
	}
	ck_assert_uint_ne(race_want.len[0], race_want.len[1]);
	race_caches = calloc(RACE_CACHES, sizeof *race_caches);
	ck_assert_ptr_nonnull(race_caches);
	ue_double_trace(race_sink, NULL);

	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	struct itimerval every = { { 0, 200 }, { 0, 200 } };
	ck_assert_int_eq(setitimer(ITIMER_REAL, &every, NULL), 0);
	pthread_t t[3];
	ck_assert_int_eq(pthread_barrier_init(&race_start, NULL, 4), 0);
	for (unsigned i = 0; i < 3; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, race_logger, NULL), 0);
	race_walk();
	for (unsigned i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);

	unsigned bad = atomic_load(&race_bad);
	unsigned seen = atomic_load(&race_seen[0]) + atomic_load(&race_seen[1]);
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_ge(seen, 4 * RACE_CACHES);
	unsigned filled = 0;
	for (unsigned c = 0; c < RACE_CACHES; c++)
		filled += holds(&race_caches[c], race_names[c % 2], 3);
	ck_assert_uint_eq(filled, RACE_CACHES);
	free(race_caches);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge native");
	TCase *tc = tcase_create("native");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, every_type_bytes);
	tcase_add_test(tc, uint8_bytes);
	tcase_add_test(tc, uint8_decodes);
	tcase_add_loop_test(tc, errors, 0, 2);
	tcase_add_test(tc, cached_same_bytes);
	tcase_add_test(tc, cache_edge_cases);
	tcase_add_test(tc, cached_refusals);
	tcase_add_test(tc, emit_same_bytes);
	tcase_add_test(tc, emit_refusals);
	tcase_add_test(tc, fill_races);
	suite_add_tcase(s, tc);
	return check_run(s);
}
