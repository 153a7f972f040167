/* SPDX-License-Identifier: MIT */
/* Event bytes for a record, compared with bytes derived by hand from
 * the schema, and message splitting at exact boundaries. */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <stdlib.h>
#include <string.h>

#include "bridge/emit.h"
#include "capture.h"

static struct capture cap;

static const uint8_t app_hi[] = {
	0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,	/* LE64+ext, level 4 */
	0x29, 0x00, 0x01, 0x00,				/* metadata, 41 bytes */
	'a', 'p', 'p', 0,
	'm', 'e', 's', 's', 'a', 'g', 'e', 0, 0x0a,
	's', 'e', 'v', 'e', 'r', 'i', 't', 'y', 0, 0x02,
	'f', 'a', 'c', 'i', 'l', 'i', 't', 'y', 0, 0x02,
	'e', 'r', 'r', 'n', 'o', 0, 0x84, 0x04,
	0x02, 0x00, 'h', 'i',				/* message */
	0x06, 0x01,					/* severity, facility */
	0x02, 0x00, 0x00, 0x00,				/* errno */
};

static struct ehs_record rec(const char *msg)
{
	struct ehs_record r = {
		.name = "app", .level = 4, .severity = 6, .facility = 1, .err = 2,
		.msg = msg, .msg_len = strlen(msg),
	};
	return r;
}

START_TEST(single_event_bytes)
{
	struct ehs_record r = rec("hi");
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, EHS_EVENT_MAX), 1);
	ck_assert_uint_eq(cap.count, 1);
	ck_assert_uint_eq(cap.len[0], sizeof app_hi);
	ck_assert_mem_eq(cap.data[0], app_hi, sizeof app_hi);
}
END_TEST

START_TEST(error_at_line_bytes)
{
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
		0x35, 0x00, 0x01, 0x00,			/* 41 + 7 + 5 = 53 */
		'a', 'p', 'p', 0,
		'm', 'e', 's', 's', 'a', 'g', 'e', 0, 0x0a,
		's', 'e', 'v', 'e', 'r', 'i', 't', 'y', 0, 0x02,
		'f', 'a', 'c', 'i', 'l', 'i', 't', 'y', 0, 0x02,
		'e', 'r', 'r', 'n', 'o', 0, 0x84, 0x04,
		'f', 'i', 'l', 'e', 0, 0x0a,
		'l', 'i', 'n', 'e', 0, 0x04,
		0x01, 0x00, 'x',
		0x03, 0x17, 0xfe, 0xff, 0xff, 0xff,	/* ERR, LOCAL7, errno -2 */
		0x03, 0x00, 'a', '.', 'c',
		0x2a, 0x01, 0x00, 0x00,			/* line 298 */
	};
	struct ehs_record r = {
		.name = "app", .level = 2, .severity = 3, .facility = 23, .err = -2,
		.file = "a.c", .line = 298, .msg = "x", .msg_len = 1,
	};
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, EHS_EVENT_MAX), 1);
	ck_assert_uint_eq(cap.len[0], sizeof want);
	ck_assert_mem_eq(cap.data[0], want, sizeof want);
}
END_TEST

START_TEST(split_len)
{
	ck_assert_uint_eq(ehs_split_len("abcdef", 6, 10), 6);
	ck_assert_uint_eq(ehs_split_len("abcdef", 6, 6), 6);
	ck_assert_uint_eq(ehs_split_len("abcdef", 6, 4), 4);
	/* "ab" then U+20AC (3 bytes): never cut inside it */
	static const char euro[] = "ab\xe2\x82\xac" "cd";
	ck_assert_uint_eq(ehs_split_len(euro, 7, 3), 2);
	ck_assert_uint_eq(ehs_split_len(euro, 7, 4), 2);
	ck_assert_uint_eq(ehs_split_len(euro, 7, 5), 5);
	/* a 4-byte character */
	static const char clef[] = "a\xf0\x9d\x84\x9e" "b";
	ck_assert_uint_eq(ehs_split_len(clef, 6, 4), 1);
	/* a run of stray continuation bytes is cut where it must be */
	static const char junk[] = "\x80\x80\x80\x80\x80\x80";
	ck_assert_uint_eq(ehs_split_len(junk, 6, 4), 4);
}
END_TEST

/* Every byte but the text for an unsplit event of rec(): */
#define OVERHEAD_SINGLE (sizeof app_hi - 2)
/* ... and for one part: the metadata adds "part\0" 03 and "parts\0" 03,
 * the payload two u16. */
#define OVERHEAD_PART (OVERHEAD_SINGLE + 6 + 7 + 4)
#define META_PART_LEN (0x29 + 13)

static void check_part(unsigned i, const char *text, unsigned part, unsigned parts)
{
	const uint8_t *e = cap.data[i];
	size_t n = strlen(text);
	ck_assert_uint_eq(cap.len[i], OVERHEAD_PART + n);
	ck_assert_uint_eq(e[8] | e[9] << 8, META_PART_LEN);
	ck_assert_mem_eq(e + 12 + 0x29, "part\0\x03parts\0\x03", 13);
	const uint8_t *p = e + 12 + META_PART_LEN;
	ck_assert_uint_eq(p[0] | p[1] << 8, n);
	ck_assert_mem_eq(p + 2, text, n);
	p += 2 + n;
	ck_assert_mem_eq(p, "\x06\x01\x02\x00\x00\x00", 6);
	ck_assert_uint_eq(p[6] | p[7] << 8, part);
	ck_assert_uint_eq(p[8] | p[9] << 8, parts);
}

START_TEST(split_boundaries)
{
	/* exactly at the limit: one event */
	char msg[64];
	memset(msg, 'm', 30);
	msg[30] = '\0';
	struct ehs_record r = rec(msg);
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, OVERHEAD_SINGLE + 30), 1);
	ck_assert_uint_eq(cap.len[0], OVERHEAD_SINGLE + 30);

	/* one byte over: parts of 10 text bytes each */
	memset(&cap, 0, sizeof cap);
	r = rec("0123456789abcdefghijKLMNOPQRSTuvwxy");
	ck_assert_uint_gt(OVERHEAD_SINGLE + r.msg_len, OVERHEAD_PART + 10);
	ck_assert_int_eq(capture_emit(&cap, &r, OVERHEAD_PART + 10), 4);
	ck_assert_uint_eq(cap.count, 4);
	check_part(0, "0123456789", 1, 4);
	check_part(1, "abcdefghij", 2, 4);
	check_part(2, "KLMNOPQRST", 3, 4);
	check_part(3, "uvwxy", 4, 4);
	for (unsigned i = 0; i < 4; i++)
		ck_assert_uint_le(cap.len[i], OVERHEAD_PART + 10);

	/* a UTF-8 character straddling the boundary moves to the next part */
	memset(&cap, 0, sizeof cap);
	r = rec("aaaaaaaaa\xc3\xa9" "bbbbbbbbbbbbbbbbbbb");
	ck_assert_int_eq(capture_emit(&cap, &r, OVERHEAD_PART + 10), 4);
	check_part(0, "aaaaaaaaa", 1, 4);
	check_part(1, "\xc3\xa9" "bbbbbbbb", 2, 4);
	check_part(2, "bbbbbbbbbb", 3, 4);
	check_part(3, "b", 4, 4);
}
END_TEST

START_TEST(split_default_limit)
{
	/* 10000 bytes at the real limit: every part <= 4064, text intact */
	static char big[10001];
	for (unsigned i = 0; i < 10000; i++)
		big[i] = (char)('a' + i % 26);
	struct ehs_record r = rec(big);
	memset(&cap, 0, sizeof cap);
	int n = capture_emit(&cap, &r, EHS_EVENT_MAX);
	ck_assert_int_eq(n, 3);
	size_t room = EHS_EVENT_MAX - OVERHEAD_PART, at = 0;
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_uint_le(cap.len[i], EHS_EVENT_MAX);
		const uint8_t *p = cap.data[i] + 12 + META_PART_LEN;
		size_t len = p[0] | p[1] << 8;
		ck_assert_uint_eq(len, i < 2 ? room : 10000 - 2 * room);
		ck_assert_mem_eq(p + 2, big + at, len);
		at += len;
	}
	ck_assert_uint_eq(at, 10000);
}
END_TEST

START_TEST(impossible)
{
	struct ehs_record r = rec("a message far too long for three bytes a part");
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, OVERHEAD_PART + 3), -1);
	ck_assert_uint_eq(cap.count, 0);
	r.level = 0;
	ck_assert_int_eq(capture_emit(&cap, &r, EHS_EVENT_MAX), -1);
	ck_assert_uint_eq(cap.count, 0);
}
END_TEST

START_TEST(extra_fields_bytes)
{
	/* app_hi with two string fields after the schema's own. */
	static const uint8_t want[] = {
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
		0x39, 0x00, 0x01, 0x00,			/* 41 + 9 + 7 = 57 */
		'a', 'p', 'p', 0,
		'm', 'e', 's', 's', 'a', 'g', 'e', 0, 0x0a,
		's', 'e', 'v', 'e', 'r', 'i', 't', 'y', 0, 0x02,
		'f', 'a', 'c', 'i', 'l', 'i', 't', 'y', 0, 0x02,
		'e', 'r', 'r', 'n', 'o', 0, 0x84, 0x04,
		'U', 'N', 'I', 'T', '_', 'I', 'D', 0, 0x0a,
		'E', 'M', 'P', 'T', 'Y', 0, 0x0a,
		0x02, 0x00, 'h', 'i',
		0x06, 0x01,
		0x02, 0x00, 0x00, 0x00,
		0x03, 0x00, 'a', '=', 'b',		/* values may hold '=' */
		0x00, 0x00,
	};
	const struct ehs_extra extra[] = {
		{ "UNIT_ID", "a=b", 3, false }, { "EMPTY", "", 0, false },
	};
	struct ehs_record r = rec("hi");
	r.extra = extra;
	r.nextra = 2;
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, EHS_EVENT_MAX), 1);
	ck_assert_uint_eq(cap.len[0], sizeof want);
	ck_assert_mem_eq(cap.data[0], want, sizeof want);

	/* The plain event built next is unchanged by the extras before. */
	r = rec("hi");
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, EHS_EVENT_MAX), 1);
	ck_assert_mem_eq(cap.data[0], app_hi, sizeof app_hi);
}
END_TEST

START_TEST(extra_fields_in_every_part)
{
	const struct ehs_extra extra[] = { { "K", "vv", 2, false } };
	struct ehs_record r = rec("0123456789abcdefghijKLMNOPQRST");
	r.extra = extra;
	r.nextra = 1;
	/* "K\0" 0a in the metadata, 02 00 'v' 'v' in the payload */
	size_t x = 3 + 4;
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, OVERHEAD_PART + x + 10), 3);
	for (unsigned i = 0; i < 3; i++) {
		const uint8_t *e = cap.data[i];
		ck_assert_uint_eq(cap.len[i], OVERHEAD_PART + x + 10);
		ck_assert_uint_eq(e[8] | e[9] << 8, META_PART_LEN + 3);
		ck_assert_mem_eq(e + 12 + META_PART_LEN, "K\0\x0a", 3);
		/* part, parts, then the field */
		const uint8_t tail[] = { (uint8_t)(i + 1), 0, 3, 0, 2, 0, 'v', 'v' };
		ck_assert_mem_eq(e + cap.len[i] - sizeof tail, tail, sizeof tail);
	}
}
END_TEST

START_TEST(extra_fields_past_budget_left_out)
{
	/* Three fields of 600 value bytes: two fit in EHS_EXTRA_BYTES, the
	 * third is left out, and so is the small one after it. */
	static char big[600];
	memset(big, 'v', sizeof big);
	const struct ehs_extra extra[] = {
		{ "A", big, sizeof big, false }, { "B", big, sizeof big, false },
		{ "C", big, sizeof big, false }, { "D", "d", 1, false },
	};
	struct ehs_record r = rec("hi");
	r.extra = extra;
	r.nextra = 4;
	memset(&cap, 0, sizeof cap);
	ck_assert_int_eq(capture_emit(&cap, &r, EHS_EVENT_MAX), 1);
	ck_assert_uint_eq(cap.len[0], sizeof app_hi + 2 * (3 + 2 + sizeof big));
	ck_assert_uint_eq(cap.data[0][8] | cap.data[0][9] << 8, 0x29 + 6);
	ck_assert_mem_eq(cap.data[0] + 12 + 0x29, "A\0\x0a" "B\0\x0a", 6);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge emit");
	TCase *tc = tcase_create("emit");
	tcase_add_test(tc, single_event_bytes);
	tcase_add_test(tc, error_at_line_bytes);
	tcase_add_test(tc, split_len);
	tcase_add_test(tc, split_boundaries);
	tcase_add_test(tc, split_default_limit);
	tcase_add_test(tc, impossible);
	tcase_add_test(tc, extra_fields_bytes);
	tcase_add_test(tc, extra_fields_in_every_part);
	tcase_add_test(tc, extra_fields_past_budget_left_out);
	suite_add_tcase(s, tc);
	return check_run(s);
}
