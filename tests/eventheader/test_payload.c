/* SPDX-License-Identifier: MIT */
/*
 * Payload values and the bounded buffer.  Expected bytes are written out
 * by hand: integers little-endian, zero-terminated strings with their
 * terminating unit, counted strings and binary as a u16 count of code
 * units followed by the units.
 */
#include <string.h>

#include "eventheader/eventheader.h"
#include "suite_main.h"

static uint8_t mem[70000];
static struct eh_buf b;

static void start(void)
{
	memset(mem, 0xee, sizeof(mem));
	eh_buf_init(&b, mem, sizeof(mem));
}

#define EXPECT(a) do { \
	ck_assert_int_eq(b.err, 0); \
	ck_assert_uint_eq(b.len, sizeof(a)); \
	ck_assert_mem_eq(b.data, a, sizeof(a)); \
} while (0)

START_TEST(integers)
{
	static const uint8_t want[] = {
		0xab,					/* u8 */
		0x34, 0x12,				/* u16 0x1234 */
		0x78, 0x56, 0x34, 0x12,			/* u32 0x12345678 */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* u64 0x0102030405060708 */
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, /* u128: bytes as given */
		0x02, 0x01,				/* array count 0x0102 */
		0xff, 0xff, 0xff, 0xff,			/* u32 (uint32_t)-1 */
	};
	static const uint8_t v128[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
					  0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };

	start();
	ck_assert_int_eq(eh_payload_u8(&b, 0xab), 0);
	ck_assert_int_eq(eh_payload_u16(&b, 0x1234), 0);
	ck_assert_int_eq(eh_payload_u32(&b, 0x12345678), 0);
	ck_assert_int_eq(eh_payload_u64(&b, 0x0102030405060708ull), 0);
	ck_assert_int_eq(eh_payload_u128(&b, v128), 0);
	ck_assert_int_eq(eh_payload_count(&b, 0x0102), 0);
	ck_assert_int_eq(eh_payload_u32(&b, (uint32_t)-1), 0);
	EXPECT(want);
}
END_TEST

START_TEST(zero_terminated)
{
	static const uint8_t want[] = {
		'h', 'i', 0x00,				/* zstr8 "hi" */
		0x00,					/* zstr8 "" */
		0x68, 0x00, 0xac, 0x20, 0x00, 0x00,	/* zstr16 'h' U+20AC then 0 */
		0x00, 0xf6, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, /* zstr32 U+1F600 then 0 */
		0x00, 0x00,				/* zstr16 empty */
	};
	static const uint16_t s16[] = { 0x68, 0x20ac, 0 };
	static const uint32_t s32[] = { 0x1f600, 0 };
	static const uint16_t e16[] = { 0 };

	start();
	ck_assert_int_eq(eh_payload_zstr8(&b, "hi"), 0);
	ck_assert_int_eq(eh_payload_zstr8(&b, ""), 0);
	ck_assert_int_eq(eh_payload_zstr16(&b, s16), 0);
	ck_assert_int_eq(eh_payload_zstr32(&b, s32), 0);
	ck_assert_int_eq(eh_payload_zstr16(&b, e16), 0);
	EXPECT(want);
}
END_TEST

START_TEST(counted)
{
	static const uint8_t want[] = {
		0x03, 0x00, 'a', 'b', 'c',		/* str8 "abc" */
		0x03, 0x00, 'a', 0x00, 'b',		/* str8 with an embedded NUL */
		0x02, 0x00, 0x41, 0x00, 0xac, 0x20,	/* str16: 2 units 'A' U+20AC */
		0x01, 0x00, 0x48, 0x03, 0x01, 0x00,	/* str32: 1 unit U+10348 */
		0x02, 0x00, 0xde, 0xad,			/* binary 2 bytes */
		0x00, 0x00,				/* binary empty, NULL data */
		0x00, 0x00,				/* str8 empty */
	};
	static const uint16_t s16[] = { 0x41, 0x20ac };
	static const uint32_t s32[] = { 0x10348 };
	static const uint8_t bin[] = { 0xde, 0xad };

	start();
	ck_assert_int_eq(eh_payload_str8(&b, "abc", 3), 0);
	ck_assert_int_eq(eh_payload_str8(&b, "a\0b", 3), 0);
	ck_assert_int_eq(eh_payload_str16(&b, s16, 2), 0);
	ck_assert_int_eq(eh_payload_str32(&b, s32, 1), 0);
	ck_assert_int_eq(eh_payload_binary(&b, bin, 2), 0);
	ck_assert_int_eq(eh_payload_binary(&b, NULL, 0), 0);
	ck_assert_int_eq(eh_payload_str8(&b, "", 0), 0);
	EXPECT(want);
}
END_TEST

/* 65535 units is the longest a u16 count holds; one more is refused
 * before anything is written, and stays refused. */
START_TEST(counted_limit)
{
	static char text[65536];

	memset(text, 'x', sizeof(text));
	start();
	ck_assert_int_eq(eh_payload_str8(&b, text, 65535), 0);
	ck_assert_uint_eq(b.len, 2 + 65535);
	ck_assert_uint_eq(b.data[0], 0xff);
	ck_assert_uint_eq(b.data[1], 0xff);
	ck_assert_uint_eq(b.data[2 + 65534], 'x');

	start();
	ck_assert_int_eq(eh_payload_str8(&b, text, 65536), EH_E_INVAL);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(eh_payload_u8(&b, 1), EH_E_INVAL);
	ck_assert_uint_eq(b.len, 0);

	start();
	ck_assert_int_eq(eh_payload_str16(&b, (const uint16_t *)text, 65536), EH_E_INVAL);
	start();
	ck_assert_int_eq(eh_payload_str32(&b, (const uint32_t *)text, 70000), EH_E_INVAL);
	start();
	ck_assert_int_eq(eh_payload_binary(&b, text, 65536), EH_E_INVAL);
	ck_assert_int_eq(b.err, EH_E_INVAL);
}
END_TEST

START_TEST(null_arguments)
{
	start();
	ck_assert_int_eq(eh_payload_zstr8(&b, NULL), EH_E_INVAL);
	start();
	ck_assert_int_eq(eh_payload_zstr16(&b, NULL), EH_E_INVAL);
	start();
	ck_assert_int_eq(eh_payload_zstr32(&b, NULL), EH_E_INVAL);
	start();
	ck_assert_int_eq(eh_payload_str8(&b, NULL, 1), EH_E_INVAL);
	start();
	ck_assert_int_eq(eh_payload_u128(&b, NULL), EH_E_INVAL);
	start();
	ck_assert_int_eq(eh_buf_append(&b, NULL, 1), EH_E_INVAL);
	ck_assert_int_eq(b.err, EH_E_INVAL);
	ck_assert_int_eq(eh_payload_u8(NULL, 1), EH_E_INVAL);
	ck_assert_int_eq(eh_buf_append(NULL, "x", 1), EH_E_INVAL);

	/* A capacity without memory is a bug, caught at once. */
	eh_buf_init(&b, NULL, 5);
	ck_assert_int_eq(b.err, EH_E_INVAL);
	ck_assert_uint_eq(b.cap, 0);
	ck_assert_int_eq(eh_payload_u8(&b, 1), EH_E_INVAL);
	/* No memory and no capacity is merely full. */
	eh_buf_init(&b, NULL, 0);
	ck_assert_int_eq(b.err, 0);
	ck_assert_int_eq(eh_buf_append(&b, NULL, 0), 0);
	ck_assert_int_eq(eh_payload_u8(&b, 1), EH_E_NOSPACE);
}
END_TEST

/* Once full, even a value that would fit is refused. */
START_TEST(nospace_sticky)
{
	uint8_t small[8];

	memset(small, 0xee, sizeof(small));
	eh_buf_init(&b, small, 3);
	ck_assert_int_eq(eh_payload_u16(&b, 0x0201), 0);
	ck_assert_int_eq(eh_payload_u16(&b, 0x0403), EH_E_NOSPACE);
	ck_assert_uint_eq(b.len, 2);
	ck_assert_int_eq(eh_payload_u8(&b, 5), EH_E_NOSPACE);
	ck_assert_int_eq(eh_buf_append(&b, "", 0), EH_E_NOSPACE);
	ck_assert_uint_eq(b.len, 2);
	ck_assert_int_eq(b.err, EH_E_NOSPACE);
	ck_assert_uint_eq(small[0], 0x01);
	ck_assert_uint_eq(small[1], 0x02);
	ck_assert_uint_eq(small[2], 0xee);
}
END_TEST

/* Each value type against a buffer one byte too small for it: refused,
 * nothing written; with the exact size: written. */
static const uint16_t ab16[] = { 0x41, 0 };
static const uint32_t ab32[] = { 0x41, 0 };
static const uint8_t v128[16];

static int put_u8(struct eh_buf *p) { return eh_payload_u8(p, 1); }
static int put_u16(struct eh_buf *p) { return eh_payload_u16(p, 1); }
static int put_u32(struct eh_buf *p) { return eh_payload_u32(p, 1); }
static int put_u64(struct eh_buf *p) { return eh_payload_u64(p, 1); }
static int put_u128(struct eh_buf *p) { return eh_payload_u128(p, v128); }
static int put_z8(struct eh_buf *p) { return eh_payload_zstr8(p, "ab"); }
static int put_z16(struct eh_buf *p) { return eh_payload_zstr16(p, ab16); }
static int put_z32(struct eh_buf *p) { return eh_payload_zstr32(p, ab32); }
static int put_s8(struct eh_buf *p) { return eh_payload_str8(p, "ab", 2); }
static int put_ab16(struct eh_buf *p) { return eh_payload_str16(p, ab16, 2); }
static int put_ab32(struct eh_buf *p) { return eh_payload_str32(p, ab32, 2); }
static int put_bin(struct eh_buf *p) { return eh_payload_binary(p, "ab", 2); }

static const struct {
	size_t need;	/* bytes the value takes */
	int (*put)(struct eh_buf *);
} kinds[] = {
	{ 1, put_u8 }, { 2, put_u16 }, { 4, put_u32 }, { 8, put_u64 },
	{ 16, put_u128 },
	{ 3, put_z8 },		/* "ab" NUL */
	{ 4, put_z16 },		/* 'A' and the 0 unit, 2 bytes each */
	{ 8, put_z32 },		/* 'A' and the 0 unit, 4 bytes each */
	{ 4, put_s8 },		/* count 2 + "ab" */
	{ 6, put_ab16 },		/* count 2 + 2 units of 2 */
	{ 10, put_ab32 },	/* count 2 + 2 units of 4 */
	{ 4, put_bin },		/* count 2 + 2 bytes */
};

START_TEST(nospace_each_kind)
{
	uint8_t small[32];
	size_t need = kinds[_i].need;

	memset(small, 0xee, sizeof(small));
	eh_buf_init(&b, small, need - 1);
	ck_assert_int_eq(kinds[_i].put(&b), EH_E_NOSPACE);
	ck_assert_uint_le(b.len, need - 1);
	for (size_t i = need - 1; i < sizeof(small); i++)
		ck_assert_uint_eq(small[i], 0xee);
	eh_buf_init(&b, small, need);
	ck_assert_int_eq(kinds[_i].put(&b), 0);
	ck_assert_uint_eq(b.len, need);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("eventheader payload builder");
	TCase *t = tcase_create("payload");

	tcase_add_test(t, integers);
	tcase_add_test(t, zero_terminated);
	tcase_add_test(t, counted);
	tcase_add_test(t, counted_limit);
	tcase_add_test(t, null_arguments);
	tcase_add_test(t, nospace_sticky);
	tcase_add_loop_test(t, nospace_each_kind, 0, sizeof(kinds) / sizeof(kinds[0]));
	suite_add_tcase(s, t);
	return s;
}
