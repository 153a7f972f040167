/* SPDX-License-Identifier: MIT */
/* Datagrams to journald's native socket, taken apart. */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>

#include "bridge/api/journal.h"
#include "bridge/api/journal.h"
#include "bridge/input/journal_wire.h"
#include "capture.h"
#include "eventheader/eventheader.h"

static struct ehs_journal j;
static char wire[1 << 16];
static size_t wire_len;

/* A string literal as the whole datagram, without the literal's NUL. */
#define PARSE(lit) ehs_journal_wire_parse(&j, lit, sizeof lit - 1)

#define ck_bytes(p, n, want, want_n) do { \
	ck_assert_uint_eq((n), (want_n)); \
	ck_assert(memcmp((p), (want), (n)) == 0); \
} while (0)

/* Literals, which may hold NUL bytes. */
#define ck_msg(lit) ck_bytes(j.msg, j.msg_len, lit, sizeof lit - 1)
#define ck_extra(i, key, lit) do { \
	ck_assert_uint_gt(j.nextra, (i)); \
	ck_assert_str_eq(j.extra[i].name, key); \
	ck_bytes(j.extra[i].value, j.extra[i].value_len, lit, sizeof lit - 1); \
} while (0)

static void put(const void *p, size_t n)
{
	ck_assert_uint_le(n, sizeof wire - wire_len);
	memcpy(wire + wire_len, p, n);
	wire_len += n;
}

/* One "KEY=value" field as sd_journal_sendv writes it: binary when the
 * value holds a newline. */
static void field(const char *f, size_t n)
{
	const char *eq = memchr(f, '=', n);
	ck_assert_ptr_nonnull(eq);
	size_t key_len = (size_t)(eq - f), value_len = n - key_len - 1;
	if (!memchr(eq + 1, '\n', value_len)) {
		put(f, n);
		put("\n", 1);
		return;
	}
	unsigned char l[8];
	for (int i = 0; i < 8; i++)
		l[i] = (unsigned char)((uint64_t)value_len >> (8 * i));
	put(f, key_len);
	put("\n", 1);
	put(l, sizeof l);
	put(eq + 1, value_len);
	put("\n", 1);
}

#define FIELD(lit) field(lit, sizeof lit - 1)

/* A binary field's head: name, newline and a length that need not be
 * the truth. */
static void binary_head(const char *key, uint64_t l)
{
	put(key, strlen(key));
	put("\n", 1);
	for (int i = 0; i < 8; i++) {
		unsigned char b = (unsigned char)(l >> (8 * i));
		put(&b, 1);
	}
}

static int parse_wire(void)
{
	return ehs_journal_wire_parse(&j, wire, wire_len);
}

START_TEST(text)
{
	ck_assert_int_eq(PARSE("MESSAGE=hello world\nPRIORITY=3\nSYSLOG_FACILITY=4\n"
			       "SYSLOG_IDENTIFIER=app\nCODE_FILE=a.c\nCODE_LINE=12\n"
			       "CODE_FUNC=f\nERRNO=2\nFOO=bar=baz\nEMPTY=\n"), 0);
	ck_msg("hello world");
	ck_assert_int_eq(j.severity, LOG_ERR);
	ck_assert_int_eq(j.facility, LOG_FAC(LOG_AUTH));
	ck_bytes(j.ident, j.ident_len, "app", 3);
	ck_assert(j.has_file && j.has_line && j.has_errno);
	ck_assert_str_eq(j.file, "a.c");
	ck_assert_uint_eq(j.line, 12);
	ck_assert_int_eq(j.err, 2);
	ck_assert_uint_eq(j.nextra, 3);
	ck_extra(0, "CODE_FUNC", "f");
	ck_extra(1, "FOO", "bar=baz");
	ck_extra(2, "EMPTY", "");
	/* A text value may hold NUL bytes; the last MESSAGE counts. */
	ck_assert_int_eq(PARSE("MESSAGE=x\nMESSAGE=a\0b\n"), 0);
	ck_msg("a\0b");
	/* Values journal.h's rules refuse stay extras. */
	ck_assert_int_eq(PARSE("PRIORITY=9\nSYSLOG_FACILITY=100\nSYSLOG_IDENTIFIER=\n"), 0);
	ck_assert_int_eq(j.severity, LOG_INFO);
	ck_assert_int_eq(j.facility, -1);
	ck_assert_ptr_null(j.ident);
	ck_assert_uint_eq(j.nextra, 3);
	ck_extra(0, "PRIORITY", "9");
	ck_extra(1, "SYSLOG_FACILITY", "100");
	ck_extra(2, "SYSLOG_IDENTIFIER", "");
}
END_TEST

START_TEST(binary)
{
	wire_len = 0;
	FIELD("MESSAGE=line 1\nline\0 2\n");
	FIELD("PRIORITY=2");
	FIELD("SYSLOG_IDENTIFIER=a\nb");
	FIELD("X=\n");
	ck_assert_int_eq(parse_wire(), 0);
	ck_msg("line 1\nline\0 2\n");
	ck_assert_int_eq(j.severity, LOG_CRIT);
	ck_bytes(j.ident, j.ident_len, "a\nb", 3);
	ck_assert_uint_eq(j.nextra, 1);
	ck_extra(0, "X", "\n");
	/* The binary form for a value without a newline, and an empty one. */
	wire_len = 0;
	binary_head("MESSAGE", 3);
	put("a=b\n", 4);
	binary_head("E", 0);
	put("\n", 1);
	ck_assert_int_eq(parse_wire(), 0);
	ck_msg("a=b");
	ck_extra(0, "E", "");
}
END_TEST

/* "MESSAGE=kept", then a binary field whose length is l, less its last
 * drop bytes, then the n bytes at rest: the field is cut, and ends
 * parsing; only MESSAGE counts. */
static void ck_cut(uint64_t l, size_t drop, const char *rest, size_t n)
{
	wire_len = 0;
	FIELD("MESSAGE=kept");
	binary_head("X", l);
	wire_len -= drop;
	put(rest, n);
	ck_assert_int_eq(parse_wire(), 0);
	ck_msg("kept");
	ck_assert_int_eq(j.severity, LOG_INFO);
	ck_assert_uint_eq(j.nextra, 0);
}

START_TEST(truncated)
{
	/* The length cut. */
	ck_cut(5, 3, "", 0);
	/* Fewer bytes than the length, or no '\n' after the value: a later
	 * field is not read either. */
	ck_cut(100, 0, "abc\nPRIORITY=1\n", 15);
	ck_cut(3, 0, "abcPRIORITY=1\n", 14);
	/* Nothing before: nothing usable. */
	wire_len = 0;
	binary_head("MESSAGE", 5);
	put("ab", 2);
	ck_assert_int_eq(parse_wire(), -1);
	/* Bytes after the last newline are ignored. */
	ck_assert_int_eq(PARSE("MESSAGE=a\nPRIORITY=1"), 0);
	ck_msg("a");
	ck_assert_int_eq(j.severity, LOG_INFO);
	ck_assert_uint_eq(j.nextra, 0);
	ck_assert_int_eq(PARSE("MESSAGE=a"), -1);
}
END_TEST

START_TEST(invalid_names)
{
	/* Skipped, text and binary alike, and parsing goes on. */
	wire_len = 0;
	FIELD("_PID=1");
	FIELD("1A=x");
	FIELD("lower=x");
	FIELD("=x");
	FIELD("A-B=x");
	FIELD("_BIN=a\nb");
	FIELD("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=65");
	FIELD("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=64");
	FIELD("MESSAGE=m");
	ck_assert_int_eq(parse_wire(), 0);
	ck_msg("m");
	ck_assert_uint_eq(j.nextra, 1);
	ck_assert_uint_eq(strlen(j.extra[0].name), EHS_JOURNAL_KEY_MAX);
	ck_assert_int_eq(PARSE("_PID=1\nlower=x\n"), -1);
	/* Control lines and comments are skipped too. */
	ck_assert_int_eq(PARSE(".ctl\n# note=x\nMESSAGE=m\n"), 0);
	ck_msg("m");
	ck_assert_uint_eq(j.nextra, 0);
	ck_assert_int_eq(PARSE("#MESSAGE=m\n"), -1);
}
END_TEST

START_TEST(no_message)
{
	/* What journald records: an entry with an empty message. */
	ck_assert_int_eq(PARSE("PRIORITY=2\nFOO=x\n"), 0);
	ck_assert_uint_eq(j.msg_len, 0);
	ck_assert_int_eq(j.severity, LOG_CRIT);
	ck_extra(0, "FOO", "x");
}
END_TEST

START_TEST(entries)
{
	/* An empty line ends the entry; a second is not read. */
	ck_assert_int_eq(PARSE("MESSAGE=a\n\nMESSAGE=b\nFOO=x\n"), 0);
	ck_msg("a");
	ck_assert_uint_eq(j.nextra, 0);
	ck_assert_int_eq(PARSE("\nMESSAGE=b\n"), -1);
	ck_assert_int_eq(PARSE(""), -1);
	ck_assert_int_eq(ehs_journal_wire_parse(&j, NULL, 0), -1);
	ck_assert_int_eq(ehs_journal_wire_parse(&j, NULL, 5), -1);
}
END_TEST

START_TEST(dropped)
{
	/* journald drops the whole entry for a length over its limit, even
	 * one that is not there. */
	wire_len = 0;
	FIELD("MESSAGE=m");
	binary_head("X", (uint64_t)EHS_JOURNAL_WIRE_DATA_MAX + 1);
	put("\n", 1);
	ck_assert_int_eq(parse_wire(), -1);
	wire_len = 0;
	FIELD("MESSAGE=m");
	binary_head("X", UINT64_MAX);
	/* Not weighed until a byte could follow it. */
	ck_assert_int_eq(parse_wire(), 0);
	put("x", 1);
	ck_assert_int_eq(parse_wire(), -1);
	/* One that fits the limit but not the datagram is a cut field. */
	wire_len = 0;
	FIELD("MESSAGE=m");
	binary_head("X", EHS_JOURNAL_WIRE_DATA_MAX);
	put("\n", 1);
	ck_assert_int_eq(parse_wire(), 0);
	ck_msg("m");

	/* 1025 fields are kept; a field line after them drops the entry. */
	wire_len = 0;
	for (unsigned i = 0; i <= EHS_JOURNAL_WIRE_FIELDS_MAX; i++)
		FIELD("A=");
	ck_assert_int_eq(parse_wire(), 0);
	ck_assert(j.full);
	ck_assert_uint_eq(j.nextra, EHS_JOURNAL_EXTRA_MAX);
	FIELD("lower=x");
	ck_assert_int_eq(parse_wire(), -1);
}
END_TEST

/* The event for a datagram sd_journal_sendv writes is, byte for byte,
 * the one its fields make through ehs_journal_add (the interposer's
 * way), and decodes as the schema says. */
START_TEST(as_event)
{
	static struct capture cap;
	static const char *const fields[] = {
		"MESSAGE=two\nlines", "PRIORITY=4", "SYSLOG_FACILITY=3",
		"SYSLOG_IDENTIFIER=t;x", "CODE_FILE=f.c", "CODE_LINE=7", "K=v",
	};
	struct ehs_journal sent;
	char shown[512];
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	ue_double_trace(capture_sink, &cap);
	wire_len = 0;
	ehs_journal_init(&sent);
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
		field(fields[i], strlen(fields[i]));
		ck_assert_int_eq(ehs_journal_add(&sent, fields[i], strlen(fields[i])), 0);
	}
	ehs_journal_log(&sent, 0);
	ck_assert_int_eq(parse_wire(), 0);
	ehs_journal_log(&j, 0);
	ck_assert_uint_eq(cap.count, 2);
	ck_assert_uint_eq(cap.len[1], cap.len[0]);
	ck_assert(memcmp(cap.data[1], cap.data[0], cap.len[0]) == 0);
	ck_assert_int_gt(eh_decode_text("Syslog_L3K2", cap.data[1], cap.len[1], NULL,
					EH_DECODE_NAME, shown, sizeof shown), 0);
	ck_assert_str_eq(shown, "Syslog:t_x message=\"two\\nlines\" severity=4 facility=3 "
			       "errno=ERRNO(0) file=\"f.c\" line=7 K=\"v\"");
	ue_double_trace(NULL, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge journal wire");
	TCase *tc = tcase_create("wire");
	tcase_add_test(tc, text);
	tcase_add_test(tc, binary);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, invalid_names);
	tcase_add_test(tc, no_message);
	tcase_add_test(tc, entries);
	tcase_add_test(tc, dropped);
	tcase_add_test(tc, as_event);
	suite_add_tcase(s, tc);
	return check_run(s);
}
