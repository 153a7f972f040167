/* SPDX-License-Identifier: MIT */
/* Syslog messages framed on a stream (RFC 6587), taken apart. */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <string.h>

#include "bridge/input/syslog_stream.h"

static const char *buf, *msg;
static size_t buf_len, pos, msg_len;

/* A string literal as one send, without the literal's own NUL. */
#define SEND(lit) send_bytes(lit, sizeof lit - 1)

static void send_bytes(const char *p, size_t n)
{
	buf = p;
	buf_len = n;
	pos = 0;
}

/* The next frame takes want_used bytes and its message is the n bytes
 * at want. */
static void ck_frame(size_t want_used, const char *want, size_t n)
{
	size_t used = ehs_syslog_frame(buf + pos, buf_len - pos, &msg, &msg_len);
	ck_assert_uint_eq(used, want_used);
	ck_assert_uint_eq(msg_len, n);
	ck_assert(memcmp(msg, want, n) == 0);
	ck_assert(msg >= buf + pos && msg + msg_len <= buf + pos + used);
	pos += used;
}

/* The message a string literal, which may hold NUL bytes. */
#define CK_FRAME(used, lit) ck_frame(used, lit, sizeof lit - 1)

/* Nothing left in the send. */
static void ck_end(void)
{
	ck_assert_uint_eq(pos, buf_len);
	ck_assert_uint_eq(ehs_syslog_frame(buf + pos, 0, &msg, &msg_len), 0);
	ck_assert_uint_eq(msg_len, 0);
}

START_TEST(octet_counted)
{
	SEND("11 <13>hello\nx");
	CK_FRAME(14, "<13>hello\nx");
	ck_end();
	/* Several in one send; the count may cover '\n' and NUL. */
	SEND("5 <13>a3 \0\n\n10 <14>b\nc\0d\n");
	CK_FRAME(7, "<13>a");
	CK_FRAME(5, "\0\n\n");
	CK_FRAME(13, "<14>b\nc\0d\n");
	ck_end();
	/* The count is exact: the byte after it starts the next frame. */
	SEND("1 ab");
	CK_FRAME(3, "a");
	CK_FRAME(1, "b");
	ck_end();
	/* Leading zeros after the first digit are digits. */
	SEND("10 0123456789");
	CK_FRAME(13, "0123456789");
	ck_end();
}
END_TEST

START_TEST(newline_framed)
{
	SEND("<13>one\n<14>two\n<15>three\n");
	CK_FRAME(8, "<13>one");
	CK_FRAME(8, "<14>two");
	CK_FRAME(10, "<15>three");
	ck_end();
	/* An empty line is an empty message. */
	SEND("\n\n");
	CK_FRAME(1, "");
	CK_FRAME(1, "");
	ck_end();
	/* Some clients end a message with NUL instead. */
	static const char nul[] = "<13>a\0<13>b\0";
	send_bytes(nul, sizeof nul - 1);
	CK_FRAME(6, "<13>a");
	CK_FRAME(6, "<13>b");
	ck_end();
	/* Whichever comes first. */
	SEND("<13>a\0b\nc");
	CK_FRAME(6, "<13>a");
	CK_FRAME(2, "b");
	CK_FRAME(1, "c");
	ck_end();
}
END_TEST

START_TEST(no_terminator)
{
	/* The rest is one message: a split send makes two. */
	SEND("<13>hel");
	CK_FRAME(7, "<13>hel");
	ck_end();
	SEND("lo\n<13>x");
	CK_FRAME(3, "lo");
	CK_FRAME(5, "<13>x");
	ck_end();
	SEND("x");
	CK_FRAME(1, "x");
	ck_end();
}
END_TEST

START_TEST(bad_count)
{
	/* "0 " is no octet count (RFC 6587: NONZERO-DIGIT first). */
	SEND("0 <13>a\nb");
	CK_FRAME(8, "0 <13>a");
	CK_FRAME(1, "b");
	ck_end();
	/* Digits without a space, or not first: newline framing. */
	SEND("12<13>a\n");
	CK_FRAME(8, "12<13>a");
	ck_end();
	SEND("12");
	CK_FRAME(2, "12");
	ck_end();
	SEND(" 3 abc\n");
	CK_FRAME(7, " 3 abc");
	ck_end();
	SEND("-3 abc\n");
	CK_FRAME(7, "-3 abc");
	ck_end();
	/* A count past the end: the rest, count and all, is the message. */
	SEND("20 <13>short\nnext\n");
	CK_FRAME(18, "20 <13>short\nnext\n");
	ck_end();
	SEND("1 ");
	CK_FRAME(2, "1 ");
	ck_end();
	/* One that does not even fit a size_t. */
	SEND("99999999999999999999999999 x");
	CK_FRAME(28, "99999999999999999999999999 x");
	ck_end();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge syslog stream");
	TCase *tc = tcase_create("frame");
	tcase_add_test(tc, octet_counted);
	tcase_add_test(tc, newline_framed);
	tcase_add_test(tc, no_terminator);
	tcase_add_test(tc, bad_count);
	suite_add_tcase(s, tc);
	return check_run(s);
}
