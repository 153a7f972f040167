/* SPDX-License-Identifier: MIT */
/* Syslog datagrams as programs write them to /dev/log, taken apart. */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "bridge/api/journal.h"
#include "bridge/input/datagram.h"
#include "bridge/ident.h"
#include "capture.h"
#include "eventheader/eventheader.h"

static struct ehs_datagram d;

/* Every datagram here also checks that ehs_datagram_pri gives the
 * priority the parse takes. */
static void parse(const char *s, size_t n)
{
	ehs_datagram_parse(&d, s, n);
	ck_assert_int_eq(ehs_datagram_pri(s, n), d.j.facility << 3 | d.j.severity);
}

/* A string literal, its length without the literal's own NUL. */
#define PARSE(lit) parse(lit, sizeof lit - 1)

#define ck_bytes(p, n, want) do { \
	ck_assert_uint_eq((n), strlen(want)); \
	ck_assert(memcmp((p), (want), (n)) == 0); \
} while (0)

#define ck_msg(want) ck_bytes(d.j.msg, d.j.msg_len, want)
#define ck_ident(want) ck_bytes(d.j.ident, d.j.ident_len, want)

/* A datagram whose message is want, with no ident found. */
#define ck_untagged(lit, want) do { \
	PARSE(lit); \
	ck_assert_ptr_null(d.j.ident); \
	ck_msg(want); \
} while (0)

static void ck_pri(int severity, int facility)
{
	ck_assert_int_eq(d.j.severity, severity);
	ck_assert_int_eq(d.j.facility, facility);
}

static void ck_extra(unsigned i, const char *name, const char *value)
{
	ck_assert_uint_gt(d.j.nextra, i);
	ck_assert_str_eq(d.j.extra[i].name, name);
	ck_bytes(d.j.extra[i].value, d.j.extra[i].value_len, value);
	ck_assert(!d.j.extra[i].binary);
}

/* The event name the ident gives, by ehs_journal_log's way to it. */
static const char *event_name(void)
{
	static char name[EHS_EVENT_NAME_MAX + 1], id[EHS_EVENT_NAME_MAX + 1];
	size_t n = d.j.ident_len < EHS_EVENT_NAME_MAX ? d.j.ident_len : EHS_EVENT_NAME_MAX;
	for (size_t i = 0; i < n; i++)
		id[i] = d.j.ident[i] ? d.j.ident[i] : '_';
	id[n] = '\0';
	ehs_event_name(name, d.j.ident ? id : NULL);
	return name;
}

START_TEST(glibc)
{
	PARSE("<13>Nov 26 02:32:14 prog[123]: msg");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_3164);
	ck_pri(LOG_NOTICE, LOG_FAC(LOG_USER));
	ck_ident("prog");
	ck_msg("msg");
	ck_assert_uint_eq(d.j.nextra, 0);
	/* Without LOG_PID; a day under 10 padded with a space. */
	PARSE("<30>Nov  5 02:32:14 prog: a: b");
	ck_pri(LOG_INFO, LOG_FAC(LOG_DAEMON));
	ck_ident("prog");
	ck_msg("a: b");
	/* glibc over a stream socket sends the NUL too. */
	parse("<13>Nov 26 02:32:14 prog: msg", sizeof "<13>Nov 26 02:32:14 prog: msg");
	ck_msg("msg");
	/* An empty message. */
	PARSE("<13>Nov 26 02:32:14 prog: ");
	ck_ident("prog");
	ck_msg("");
	PARSE("<13>Nov 26 02:32:14 prog:");
	ck_ident("prog");
	ck_msg("");
}
END_TEST

START_TEST(logger)
{
	/* util-linux logger to /dev/log: timestamp, TAG[PID], no hostname. */
	PARSE("<13>Nov 26 02:32:14 root[4711]: hello world");
	ck_ident("root");
	ck_msg("hello world");
	/* logger -t name, without -i. */
	PARSE("<165>Nov 26 02:32:14 name: x");
	ck_pri(LOG_NOTICE, LOG_FAC(LOG_LOCAL4));
	ck_ident("name");
	ck_msg("x");
	/* logger --rfc3164 (util-linux 2.38) adds the hostname. */
	PARSE("<13>Nov 26 04:10:18 vm root: hello3");
	ck_ident("root");
	ck_msg("hello3");
	/* Only before a tag, and never empty. */
	ck_untagged("<13>Nov 26 04:10:18 vm hello", "vm hello");
	ck_untagged("<13>Nov 26 04:10:18  root: x", " root: x");
	ck_untagged("<13>vm root: x", "vm root: x");
}
END_TEST

START_TEST(rfc5424)
{
	/* As util-linux 2.38's logger --rfc5424 -t tag --sd-id ex@32473
	 * --sd-param 'a="b\\"c"' writes it, with a PROCID. */
	PARSE("<190>1 2026-11-26T02:32:14.123456+00:00 host tag 123 - "
	      "[timeQuality tzKnown=\"1\" isSynced=\"0\"][ex@32473 a=\"b\\\"c\"] msg");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_5424);
	ck_pri(LOG_INFO, LOG_FAC(LOG_LOCAL7));
	ck_ident("tag");
	ck_msg("msg");
	ck_assert_uint_eq(d.j.nextra, 4);
	ck_extra(0, "syslog.procid", "123");
	ck_extra(1, "syslog.timeQuality.tzKnown", "1");
	ck_extra(2, "syslog.timeQuality.isSynced", "0");
	ck_extra(3, "syslog.ex@32473.a", "b\"c");

	/* MSGID, every escape, nil fields, no structured data. */
	PARSE("<14>1 - - - - ID47 [x k=\"\\\\ \\] \\n\"] m");
	ck_assert_ptr_null(d.j.ident);
	ck_assert_str_eq(event_name(), program_invocation_short_name);
	ck_assert_uint_eq(d.j.nextra, 2);
	ck_extra(0, "syslog.msgid", "ID47");
	ck_extra(1, "syslog.x.k", "\\ ] \\n");
	ck_msg("m");

	PARSE("<14>1 - - app - - -");
	ck_ident("app");
	ck_msg("");
	ck_assert_uint_eq(d.j.nextra, 0);
	PARSE("<14>1 - - app - - - two  spaces ");
	ck_msg("two  spaces ");
	/* ';' is not allowed in EventHeader names. */
	PARSE("<14>1 - - app - - [a;b c;d=\"v\"]");
	ck_extra(0, "syslog.a_b.c_d", "v");
	ck_msg("");
}
END_TEST

START_TEST(bom)
{
	PARSE("<14>1 - - app - - - \xef\xbb\xbfh\xc3\xa9");
	ck_msg("h\xc3\xa9");
	/* Only at the start of MSG, and only in RFC 5424. */
	PARSE("<14>1 - - app - - - a\xef\xbb\xbf");
	ck_msg("a\xef\xbb\xbf");
	PARSE("<14>\xef\xbb\xbfm");
	ck_msg("\xef\xbb\xbfm");
}
END_TEST

START_TEST(python)
{
	/* SysLogHandler's default: PRI, message, NUL; no timestamp, no tag. */
	parse("<12>message", sizeof "<12>message");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_3164);
	ck_pri(LOG_WARNING, LOG_FAC(LOG_USER));
	ck_assert_ptr_null(d.j.ident);
	ck_msg("message");
	/* With an ident "app: " and a trailing newline from the formatter. */
	parse("<11>app: boom\n", sizeof "<11>app: boom\n");
	ck_pri(LOG_ERR, LOG_FAC(LOG_USER));
	ck_ident("app");
	ck_msg("boom");
	/* Only one newline and one NUL go. */
	parse("<11>a\n\n", sizeof "<11>a\n\n");
	ck_msg("a\n");
	parse("<11>a\0", sizeof "<11>a\0");
	ck_assert_uint_eq(d.j.msg_len, 2);
	ck_assert(memcmp(d.j.msg, "a\0", 2) == 0);
}
END_TEST

START_TEST(no_pri)
{
	PARSE("hello: world");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_PLAIN);
	ck_pri(LOG_NOTICE, LOG_FAC(LOG_USER));
	ck_assert_ptr_null(d.j.ident);
	ck_msg("hello: world");
	PARSE("<192>x");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_PLAIN);
	ck_pri(LOG_NOTICE, LOG_FAC(LOG_USER));
	ck_msg("<192>x");
	PARSE("<1234>x");
	ck_msg("<1234>x");
	PARSE("<>x");
	ck_msg("<>x");
	PARSE("<-1>x");
	ck_msg("<-1>x");
	parse("", 0);
	ck_msg("");
	parse(NULL, 0);
	ck_msg("");
	PARSE("<191>x");
	ck_pri(LOG_DEBUG, LOG_FAC(LOG_LOCAL7));
	PARSE("<0>x");
	ck_pri(LOG_EMERG, LOG_FAC(LOG_KERN));
	PARSE("<007>x");
	ck_pri(LOG_DEBUG, LOG_FAC(LOG_KERN));
	ck_msg("x");
	/* Without a valid PRI: user.notice. */
	ck_assert_int_eq(ehs_datagram_pri("<192>x", 6), LOG_USER | LOG_NOTICE);
	ck_assert_int_eq(ehs_datagram_pri(NULL, 0), LOG_USER | LOG_NOTICE);
	ck_assert_int_eq(ehs_datagram_pri("<7>", 3), LOG_KERN | LOG_DEBUG);
	ck_assert_int_eq(ehs_datagram_pri("<165>\n", 6), LOG_LOCAL4 | LOG_NOTICE);
}
END_TEST

START_TEST(truncated)
{
	PARSE("<13");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_PLAIN);
	ck_msg("<13");
	PARSE("<13>");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_3164);
	ck_pri(LOG_NOTICE, LOG_FAC(LOG_USER));
	ck_msg("");
	ck_untagged("<13>Nov 2", "Nov 2");
	PARSE("<13>Nov 26 02:32:14");
	ck_msg("Nov 26 02:32:14");
	PARSE("<13>Nov 26 02:32:14 ");
	ck_msg("");
	ck_untagged("<13>Nov 26 02:32:14 prog[12", "prog[12");
	ck_untagged("<13>Nov 26 02:32:14 prog[]: m", "prog[]: m");
	/* "Foo" is no month: no timestamp, and no tag before a space. */
	ck_untagged("<13>Foo 26 02:32:14 prog: m", "Foo 26 02:32:14 prog: m");
	PARSE("<190>1 ");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_3164);
	ck_msg("1 ");
	PARSE("<190>1 2026-11-26T02:32:14Z host app");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_3164);
	ck_msg("1 2026-11-26T02:32:14Z host app");
	/* Header whole, structured data cut: kept as the message. */
	PARSE("<190>1 - host app 1 - [a b=\"c");
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_5424);
	ck_ident("app");
	ck_assert_uint_eq(d.j.nextra, 1);
	ck_extra(0, "syslog.procid", "1");
	ck_msg("[a b=\"c");
	PARSE("<190>1 - host app 1 - [a b=\"c\"][d e=\"f\"]x");
	ck_assert_uint_eq(d.j.nextra, 1);
	ck_msg("[a b=\"c\"][d e=\"f\"]x");
	PARSE("<190>1 - host app 1 - [a b=c] m");
	ck_msg("[a b=c] m");
	PARSE("<190>1 - host app 1 - -x");
	ck_msg("-x");
	PARSE("<190>1 - host app 1 ID [] m");
	ck_extra(1, "syslog.msgid", "ID");
	ck_msg("[] m");
	/* An SD-ID longer than RFC 5424's 32 bytes. */
	PARSE("<190>1 - h a 1 - [abcdefghijklmnopqrstuvwxyz0123456 k=\"v\"] m");
	ck_msg("[abcdefghijklmnopqrstuvwxyz0123456 k=\"v\"] m");
	PARSE("<190>1 - h a 1 - [abcdefghijklmnopqrstuvwxyz012345 k=\"v\"] m");
	ck_extra(1, "syslog.abcdefghijklmnopqrstuvwxyz012345.k", "v");
	ck_msg("m");
}
END_TEST

START_TEST(nul_inside)
{
	static const char dg[] = "<13>Nov 26 02:32:14 pr\0g: a\0b";
	parse(dg, sizeof dg - 1);
	ck_assert_uint_eq(d.j.ident_len, 4);
	ck_assert(memcmp(d.j.ident, "pr\0g", 4) == 0);
	ck_assert_str_eq(event_name(), "pr_g");
	ck_assert_uint_eq(d.j.msg_len, 3);
	ck_assert(memcmp(d.j.msg, "a\0b", 3) == 0);
	static const char nul5424[] = "<14>1 - - app - - [a b=\"x\0y\"] m\0n";
	parse(nul5424, sizeof nul5424 - 1);
	ck_assert_uint_eq(d.j.nextra, 1);
	ck_assert_uint_eq(d.j.extra[0].value_len, 3);
	ck_assert(memcmp(d.j.extra[0].value, "x\0y", 3) == 0);
	ck_assert_uint_eq(d.j.msg_len, 3);
	ck_assert(memcmp(d.j.msg, "m\0n", 3) == 0);
}
END_TEST

START_TEST(tags)
{
	/* Bytes openlog's ident may hold; cleaned when the event is named. */
	PARSE("<13>Nov 26 02:32:14 a;b\x01\xc3\xa9: m");
	ck_ident("a;b\x01\xc3\xa9");
	ck_assert_str_eq(event_name(), "a_b___");
	ck_msg("m");

	/* A tag longer than an event name: whole here, cut when named. */
	static char dg[4 + 1000 + 8];
	memcpy(dg, "<13>", 4);
	memset(dg + 4, 't', 1000);
	memcpy(dg + 1004, "[1]: msg", 8);
	parse(dg, sizeof dg);
	ck_assert_uint_eq(d.j.ident_len, 1000);
	ck_assert_uint_eq(strlen(event_name()), EHS_EVENT_NAME_MAX);
	ck_msg("msg");

	/* A space ends a tag: no tag then, all message. */
	ck_untagged("<13>my prog: m", "my prog: m");
	PARSE("<13>prog[12345678901]: m");
	ck_assert_ptr_null(d.j.ident);
	ck_untagged("<13>: m", ": m");
}
END_TEST

START_TEST(huge)
{
	/* Any length: a 1 MiB message, then extras past EHS_EXTRA_BYTES. */
	size_t n = 1 << 20;
	char *dg = malloc(n);
	ck_assert_ptr_nonnull(dg);
	memcpy(dg, "<13>p: ", 7);
	memset(dg + 7, 'x', n - 7);
	parse(dg, n);
	ck_ident("p");
	ck_assert_uint_eq(d.j.msg_len, n - 7);
	ck_assert_ptr_eq(d.j.msg, dg + 7);

	/* 100 parameters of 40 bytes each: only those that fit go in,
	 * in order, and the message stays. */
	size_t len = 0;
	len += (size_t)sprintf(dg, "<14>1 - - app - - [id");
	for (int i = 0; i < 100; i++)
		len += (size_t)sprintf(dg + len, " p%02d=\"%040d\"", i, i);
	len += (size_t)sprintf(dg + len, "] tail");
	parse(dg, len);
	ck_assert_int_eq(d.kind, EHS_DATAGRAM_5424);
	ck_assert(d.j.full);
	ck_assert_uint_gt(d.j.nextra, 10);
	ck_assert_uint_lt(d.j.nextra, 100);
	ck_assert_uint_le(d.j.extra_bytes, EHS_EXTRA_BYTES);
	ck_extra(0, "syslog.id.p00", "0000000000000000000000000000000000000000");
	char last[32];
	snprintf(last, sizeof last, "syslog.id.p%02u", d.j.nextra - 1);
	ck_assert_str_eq(d.j.extra[d.j.nextra - 1].name, last);
	ck_msg("tail");

	/* A value with escapes too long for values[]: left out, the
	 * message stays. */
	len = (size_t)sprintf(dg, "<14>1 - - app - - [id v=\"");
	for (int i = 0; i < 2000; i++)
		len += (size_t)sprintf(dg + len, "\\]");
	len += (size_t)sprintf(dg + len, "\" w=\"1\"] tail");
	parse(dg, len);
	ck_assert_uint_eq(d.j.nextra, 0);
	ck_assert(d.j.full);
	ck_msg("tail");
	free(dg);
}
END_TEST

/* The event ehs_journal_log writes for a datagram: the schema's, as a
 * syslog() call makes it, with the extras after. */
START_TEST(as_event)
{
	static struct capture cap;
	char text[512];
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	ue_double_trace(capture_sink, &cap);
	PARSE("<14>1 - host t;x 12 ID7 [ex@1 a=\"b\\\"c\"] \xef\xbb\xbfhi");
	ehs_journal_log(&d.j, 0);
	ck_assert_uint_eq(cap.count, 1);
	ck_assert_int_gt(eh_decode_text("Syslog_L4K2", cap.data[0], cap.len[0], NULL,
					EH_DECODE_NAME, text, sizeof text), 0);
	ck_assert_str_eq(text, "Syslog:t_x message=\"hi\" severity=6 facility=1 errno=ERRNO(0) "
			       "syslog.procid=\"12\" syslog.msgid=\"ID7\" syslog.ex@1.a=\"b\\\"c\"");
	ue_double_trace(NULL, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge datagram");
	TCase *tc = tcase_create("datagram");
	tcase_add_test(tc, glibc);
	tcase_add_test(tc, logger);
	tcase_add_test(tc, rfc5424);
	tcase_add_test(tc, bom);
	tcase_add_test(tc, python);
	tcase_add_test(tc, no_pri);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, nul_inside);
	tcase_add_test(tc, tags);
	tcase_add_test(tc, huge);
	tcase_add_test(tc, as_event);
	suite_add_tcase(s, tc);
	return check_run(s);
}
