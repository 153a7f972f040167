/* SPDX-License-Identifier: MIT */
/*
 * Metadata builder: every expected byte below is derived by hand from the
 * EventHeader format (eventheader.h in Microsoft's LinuxTracepoints,
 * https://github.com/microsoft/LinuxTracepoints): "name\0", u8 encoding
 * (0x80 = a format byte follows), [u8 format (0x80 = a u16 tag follows)],
 * [u16 tag], [u16 count if encoding & 0x20], little-endian.
 */
#include <string.h>

#include "eventheader/eventheader.h"
#include "suite_main.h"

static uint8_t mem[4096];
static struct eh_meta m;

static void start(const char *name)
{
	memset(mem, 0xee, sizeof(mem));
	ck_assert_int_eq(eh_meta_init(&m, mem, sizeof(mem), name), 0);
}

static void expect(const uint8_t *want, size_t len)
{
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_uint_eq(m.buf.len, len);
	ck_assert_mem_eq(m.buf.data, want, len);
}

#define EXPECT(a) expect(a, sizeof(a))

START_TEST(every_encoding)
{
	static const uint8_t want[] = {
		'E', 0,			/* event name */
		'a', 0, 0x02,		/* value8, default format: no format byte */
		'b', 0, 0x03,		/* value16 */
		'c', 0, 0x04,		/* value32 */
		'd', 0, 0x05,		/* value64 */
		'e', 0, 0x06,		/* value128 */
		'f', 0, 0x07,		/* zstring_char8 */
		'g', 0, 0x08,		/* zstring_char16 */
		'h', 0, 0x09,		/* zstring_char32 */
		'i', 0, 0x0a,		/* string_length16_char8 */
		'j', 0, 0x0b,		/* string_length16_char16 */
		'k', 0, 0x0c,		/* string_length16_char32 */
		'l', 0, 0x0d,		/* binary_length16_char8 */
	};
	static const char *names[] = { "a", "b", "c", "d", "e", "f", "g", "h",
				       "i", "j", "k", "l" };

	start("E");
	for (unsigned i = 0; i < 12; i++)
		ck_assert_int_eq(eh_meta_field(&m, names[i], EH_ENC_VALUE8 + i, 0, 0, 0), 0);
	EXPECT(want);
}
END_TEST

START_TEST(every_format)
{
	static const uint8_t want[] = {
		'E', 0,
		'a', 0, 0x04,		/* value32, format 0 = default: no chain */
		'b', 0, 0x84, 0x01,	/* 0x04|0x80 chain, unsigned_int */
		'c', 0, 0x84, 0x02,	/* signed_int */
		'd', 0, 0x84, 0x03,	/* hex_int */
		'e', 0, 0x84, 0x04,	/* errno */
		'f', 0, 0x84, 0x05,	/* pid */
		'g', 0, 0x84, 0x06,	/* time */
		'h', 0, 0x84, 0x07,	/* boolean */
		'i', 0, 0x84, 0x08,	/* float */
		'j', 0, 0x84, 0x09,	/* hex_bytes */
		'k', 0, 0x84, 0x0a,	/* string8 */
		'l', 0, 0x84, 0x0b,	/* string_utf */
		'm', 0, 0x84, 0x0c,	/* string_utf_bom */
		'n', 0, 0x84, 0x0d,	/* string_xml */
		'o', 0, 0x84, 0x0e,	/* string_json */
		'p', 0, 0x84, 0x0f,	/* uuid */
		'q', 0, 0x84, 0x10,	/* port */
		'r', 0, 0x84, 0x11,	/* ip_address */
	};
	static const char *names[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i",
				       "j", "k", "l", "m", "n", "o", "p", "q", "r" };

	start("E");
	for (unsigned f = 0; f < 18; f++)
		ck_assert_int_eq(eh_meta_field(&m, names[f], EH_ENC_VALUE32, f, 0, 0), 0);
	EXPECT(want);
}
END_TEST

/* One field of each common kind, its bytes worked out by hand from the
 * format's rules above. */
START_TEST(facts_examples)
{
	static const uint8_t want[] = {
		'E', 'v', 0,
		'm', 's', 'g', 0, 0x0a,		/* UTF-8 counted string */
		'z', 0, 0x07,			/* UTF-8 NUL-terminated */
		'e', 'r', 'r', 0, 0x84, 0x04,	/* errno int32 */
		'i', 0, 0x84, 0x02,		/* signed int32 */
		'u', 0, 0x04,			/* u32 */
		'p', 'i', 'd', 0, 0x84, 0x05,	/* pid */
		't', 0, 0x85, 0x06,		/* time int64 */
	};

	start("Ev");
	ck_assert_int_eq(eh_meta_field(&m, "msg", EH_ENC_STRING_LENGTH16_CHAR8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "z", EH_ENC_ZSTRING_CHAR8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "err", EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "i", EH_ENC_VALUE32, EH_FMT_SIGNED_INT, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "u", EH_ENC_VALUE32, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "pid", EH_ENC_VALUE32, EH_FMT_PID, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "t", EH_ENC_VALUE64, EH_FMT_TIME, 0, 0), 0);
	EXPECT(want);
}
END_TEST

START_TEST(tags)
{
	static const uint8_t want[] = {
		'E', 0,
		'a', 0, 0x84, 0x80, 0x34, 0x12,	/* tag only: default format 0|0x80, tag 0x1234 LE */
		'b', 0, 0x84, 0x83, 0xcd, 0xab,	/* hex_int 3|0x80, tag 0xabcd */
		'c', 0, 0xa3, 0x81, 0x01, 0x00, 0x05, 0x00,
						/* 0x03|0x20|0x80, unsigned|0x80, tag 1, count 5 */
		'd', 0, 0xca, 0x8b, 0xff, 0xff,	/* 0x0a|0x40 varray|0x80, utf|0x80, tag 0xffff */
	};

	start("E");
	ck_assert_int_eq(eh_meta_field(&m, "a", EH_ENC_VALUE32, 0, 0x1234, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "b", EH_ENC_VALUE32, EH_FMT_HEX_INT, 0xabcd, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "c", EH_ENC_VALUE16 | EH_ENC_CARRAY,
				       EH_FMT_UNSIGNED_INT, 1, 5), 0);
	ck_assert_int_eq(eh_meta_field(&m, "d", EH_ENC_STRING_LENGTH16_CHAR8 | EH_ENC_VARRAY,
				       EH_FMT_STRING_UTF, 0xffff, 0), 0);
	EXPECT(want);
}
END_TEST

START_TEST(arrays)
{
	static const uint8_t want[] = {
		'E', 0,
		'a', 0, 0x23, 0x03, 0x00,	/* value16|carray, count 3 */
		'b', 0, 0xa3, 0x01, 0xff, 0xff,	/* value16|carray|chain, unsigned, count 65535 */
		'c', 0, 0x22, 0x01, 0x00,	/* value8|carray, count 1 */
		'd', 0, 0x47,			/* zstring_char8|varray */
		'e', 0, 0xca, 0x0e,		/* string_length16_char8|varray|chain, json */
		'f', 0, 0x4d,			/* binary_length16_char8 0x0d|varray 0x40 */
	};

	start("E");
	ck_assert_int_eq(eh_meta_field(&m, "a", EH_ENC_VALUE16 | EH_ENC_CARRAY, 0, 0, 3), 0);
	ck_assert_int_eq(eh_meta_field(&m, "b", EH_ENC_VALUE16 | EH_ENC_CARRAY,
				       EH_FMT_UNSIGNED_INT, 0, 65535), 0);
	ck_assert_int_eq(eh_meta_field(&m, "c", EH_ENC_VALUE8 | EH_ENC_CARRAY, 0, 0, 1), 0);
	ck_assert_int_eq(eh_meta_field(&m, "d", EH_ENC_ZSTRING_CHAR8 | EH_ENC_VARRAY, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "e", EH_ENC_STRING_LENGTH16_CHAR8 | EH_ENC_VARRAY,
				       EH_FMT_STRING_JSON, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "f", EH_ENC_BINARY_LENGTH16_CHAR8 | EH_ENC_VARRAY,
				       0, 0, 0), 0);
	EXPECT(want);
}
END_TEST

/* Two levels of structs, a constant-length struct array with a tag and a
 * variable-length struct array. */
START_TEST(nested_structs)
{
	static const uint8_t want[] = {
		'S', 0,
		'o', 'u', 't', 'e', 'r', 0, 0x81, 0x03,	/* struct|chain, 3 members: x, inner, w */
		'x', 0, 0x02,
		'i', 'n', 'n', 'e', 'r', 0, 0xa1, 0x82, 0x02, 0x01, 0x02, 0x00,
			/* struct|carray|chain, 2 members|0x80 tag, tag 0x0102, count 2 */
		'y', 0, 0x03,
		'z', 0, 0x84, 0x03,
		'w', 0, 0x05,
		'l', 'i', 's', 't', 0, 0xc1, 0x01,	/* struct|varray|chain, 1 member */
		'v', 0, 0x02,
	};

	start("S");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "outer", 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "x", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_struct_begin(&m, "inner", 0x0102, EH_ENC_CARRAY, 2), 0);
	ck_assert_int_eq(eh_meta_field(&m, "y", EH_ENC_VALUE16, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "z", EH_ENC_VALUE32, EH_FMT_HEX_INT, 0, 0), 0);
	ck_assert_int_eq(eh_meta_struct_end(&m), 0);
	ck_assert_int_eq(eh_meta_field(&m, "w", EH_ENC_VALUE64, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_struct_end(&m), 0);
	ck_assert_int_eq(eh_meta_struct_begin(&m, "list", 0, EH_ENC_VARRAY, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "v", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_struct_end(&m), 0);
	EXPECT(want);
}
END_TEST

START_TEST(attributes_escaped)
{
	static const uint8_t want[] = {
		'E', 'v',
		';', 'k', '=', 'a', ';', ';', 'b',	/* "a;b": the ';' doubled */
		';', 'e', '=',				/* empty value */
		';', 'x', '=', ';', ';', ';', ';', 0,	/* ";;" -> four */
		'f', 0, 0x02,
	};

	start("Ev");
	ck_assert_int_eq(eh_meta_attr(&m, "k", "a;b"), 0);
	ck_assert_int_eq(eh_meta_attr(&m, "e", ""), 0);
	ck_assert_int_eq(eh_meta_attr(&m, "x", ";;"), 0);
	ck_assert_int_eq(eh_meta_field(&m, "f", EH_ENC_VALUE8, 0, 0, 0), 0);
	EXPECT(want);
}
END_TEST

START_TEST(no_fields)
{
	static const uint8_t want[] = { 'O', 'n', 'l', 'y', ';', 'a', '=', 'b', 0 };

	start("Only");
	ck_assert_int_eq(eh_meta_attr(&m, "a", "b"), 0);
	EXPECT(want);
	/* A second finish changes nothing. */
	EXPECT(want);
}
END_TEST

/* 127 members is the most a struct holds: format byte 0x7f. */
START_TEST(struct_127_members)
{
	static const uint8_t head[] = { 'E', 0, 's', 0, 0x81, 0x7f };
	static const uint8_t member[] = { 'm', 0, 0x02 };

	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, 0, 0), 0);
	for (int i = 0; i < 127; i++)
		ck_assert_int_eq(eh_meta_field(&m, "m", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_struct_end(&m), 0);
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_uint_eq(m.buf.len, sizeof(head) + 127 * sizeof(member));
	ck_assert_mem_eq(m.buf.data, head, sizeof(head));
	for (int i = 0; i < 127; i++)
		ck_assert_mem_eq(m.buf.data + sizeof(head) + 3 * i, member, 3);
}
END_TEST

START_TEST(struct_128_members)
{
	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, 0, 0), 0);
	for (int i = 0; i < 127; i++)
		ck_assert_int_eq(eh_meta_field(&m, "m", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "m", EH_ENC_VALUE8, 0, 0, 0), EH_E_STRUCT);
	ck_assert_int_eq(eh_meta_struct_end(&m), EH_E_STRUCT);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_STRUCT);
}
END_TEST

START_TEST(struct_empty)
{
	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_struct_end(&m), EH_E_STRUCT);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_STRUCT);
}
END_TEST

START_TEST(struct_depth)
{
	static const char *names[] = { "a", "b", "c", "d", "e", "f", "g", "h" };

	start("E");
	for (int i = 0; i < EH_STRUCT_DEPTH_MAX; i++)
		ck_assert_int_eq(eh_meta_struct_begin(&m, names[i], 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_struct_begin(&m, "i", 0, 0, 0), EH_E_DEPTH);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_DEPTH);

	/* The deepest level the builder allows really works. */
	start("E");
	for (int i = 0; i < EH_STRUCT_DEPTH_MAX; i++)
		ck_assert_int_eq(eh_meta_struct_begin(&m, names[i], 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "v", EH_ENC_VALUE8, 0, 0, 0), 0);
	for (int i = 0; i < EH_STRUCT_DEPTH_MAX; i++)
		ck_assert_int_eq(eh_meta_struct_end(&m), 0);
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	/* "E\0" then 8 x "n\0" 0x81 0x01, then "v\0" 0x02 */
	ck_assert_uint_eq(m.buf.len, 2 + 8 * 4 + 3);
	ck_assert_uint_eq(m.buf.data[2 + 7 * 4 + 3], 0x01);
}
END_TEST

START_TEST(struct_state)
{
	start("E");
	ck_assert_int_eq(eh_meta_struct_end(&m), EH_E_STATE);

	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_field(&m, "v", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_STATE);
}
END_TEST

/* One bad argument per call, each on a fresh metadata. */
static void bad_field(unsigned encoding, unsigned format, uint16_t count)
{
	size_t len;

	start("E");
	len = m.buf.len;
	ck_assert_int_eq(eh_meta_field(&m, "f", encoding, format, 0, count), EH_E_INVAL);
	ck_assert_uint_eq(m.buf.len, len);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_INVAL);
}

START_TEST(bad_encodings)
{
	bad_field(EH_ENC_INVALID, 0, 0);
	bad_field(EH_ENC_STRUCT, 0, 0);		/* needs eh_meta_struct_begin */
	bad_field(EH_ENC_MAX, 0, 0);
	bad_field(EH_ENC_VALUE_MASK, 0, 0);
	bad_field(EH_ENC_VALUE32 | EH_ENC_CHAIN, 0, 0);	/* chain is computed */
	bad_field(0x100 | EH_ENC_VALUE32, 0, 0);
	bad_field(EH_ENC_VALUE32 | EH_ENC_CARRAY | EH_ENC_VARRAY, 0, 1);
	bad_field(EH_ENC_VALUE32 | EH_ENC_CARRAY, 0, 0);	/* empty constant array */
	bad_field(EH_ENC_VALUE32 | EH_ENC_VARRAY, 0, 3);	/* count belongs in the payload */
	bad_field(EH_ENC_VALUE32, 0, 3);			/* count without array */
	bad_field(EH_ENC_VALUE32, EH_FMT_MAX, 0);
	bad_field(EH_ENC_VALUE32, EH_FMT_CHAIN | EH_FMT_SIGNED_INT, 0);
}
END_TEST

START_TEST(bad_struct_arrays)
{
	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, EH_ENC_CARRAY, 0), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, EH_ENC_ARRAY_MASK, 1), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, EH_ENC_CHAIN, 0), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, 0, 2), EH_E_INVAL);
}
END_TEST

START_TEST(bad_names)
{
	ck_assert_int_eq(eh_meta_init(&m, mem, sizeof(mem), NULL), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_init(&m, mem, sizeof(mem), ""), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_init(&m, mem, sizeof(mem), "a;b=c"), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_init(NULL, mem, sizeof(mem), "E"), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_init(&m, NULL, 10, "E"), EH_E_INVAL);

	start("E");
	ck_assert_int_eq(eh_meta_field(&m, NULL, EH_ENC_VALUE8, 0, 0, 0), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_field(&m, "", EH_ENC_VALUE8, 0, 0, 0), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_field(&m, "f;tag=1", EH_ENC_VALUE8, 0, 0, 0), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s;", 0, 0, 0), EH_E_INVAL);

	start("E");
	ck_assert_int_eq(eh_meta_attr(&m, "", "v"), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_attr(&m, "a=b", "v"), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_attr(&m, "a;b", "v"), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_attr(&m, "a", NULL), EH_E_INVAL);
	start("E");
	ck_assert_int_eq(eh_meta_attr(&m, NULL, "v"), EH_E_INVAL);
}
END_TEST

START_TEST(out_of_order)
{
	start("E");
	ck_assert_int_eq(eh_meta_field(&m, "f", EH_ENC_VALUE8, 0, 0, 0), 0);
	ck_assert_int_eq(eh_meta_attr(&m, "a", "b"), EH_E_STATE);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_STATE);

	start("E");
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_int_eq(eh_meta_field(&m, "f", EH_ENC_VALUE8, 0, 0, 0), EH_E_STATE);
	start("E");
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, 0, 0), EH_E_STATE);
	start("E");
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_int_eq(eh_meta_attr(&m, "a", "b"), EH_E_STATE);
	start("E");
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	ck_assert_int_eq(eh_meta_struct_end(&m), EH_E_STATE);
}
END_TEST

/* After the first error nothing is appended and every call repeats it. */
START_TEST(sticky_error)
{
	size_t len;

	start("E");
	ck_assert_int_eq(eh_meta_field(&m, "f", EH_ENC_MAX, 0, 0, 0), EH_E_INVAL);
	len = m.buf.len;
	ck_assert_int_eq(eh_meta_field(&m, "g", EH_ENC_VALUE8, 0, 0, 0), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_struct_begin(&m, "s", 0, 0, 0), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_struct_end(&m), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_attr(&m, "a", "b"), EH_E_INVAL);
	ck_assert_int_eq(eh_meta_finish(&m), EH_E_INVAL);
	ck_assert_uint_eq(m.buf.len, len);
}
END_TEST

/*
 * Every capacity short of the full metadata: the build fails with
 * EH_E_NOSPACE whichever call meets the end first, what was written is a
 * prefix of the real metadata, and nothing lands past the capacity.
 */
static const uint8_t full[] = {
	'E', 'v', ';', 'k', '=', 'a', ';', ';', 'b', 0,
	's', 0, 0xa1, 0x82, 0x07, 0x00, 0x02, 0x00,	/* struct carray, 2 members, tag 7, count 2 */
	'a', 0, 0x84, 0x02,
	'b', 0, 0x0a,
	'c', 0, 0x44,
};

static int build(uint8_t *buf, size_t cap)
{
	struct eh_meta t;

	eh_meta_init(&t, buf, cap, "Ev");
	eh_meta_attr(&t, "k", "a;b");
	eh_meta_struct_begin(&t, "s", 7, EH_ENC_CARRAY, 2);
	eh_meta_field(&t, "a", EH_ENC_VALUE32, EH_FMT_SIGNED_INT, 0, 0);
	eh_meta_field(&t, "b", EH_ENC_STRING_LENGTH16_CHAR8, 0, 0, 0);
	eh_meta_struct_end(&t);
	eh_meta_field(&t, "c", EH_ENC_VALUE32 | EH_ENC_VARRAY, 0, 0, 0);
	ck_assert_uint_le(t.buf.len, cap);
	/* The struct's member count (byte 13) is only or-ed in by a
	 * successful eh_meta_struct_end: until then it is 0x80 (tag flag). */
	ck_assert_mem_eq(buf, full, t.buf.len < 13 ? t.buf.len : 13);
	if (t.buf.len > 13) {
		ck_assert(buf[13] == 0x80 || buf[13] == 0x82);
		ck_assert_mem_eq(buf + 14, full + 14, t.buf.len - 14);
	}
	return eh_meta_finish(&t);
}

START_TEST(nospace_every_stage)
{
	uint8_t buf[sizeof(full) + 8];

	for (size_t cap = 0; cap < sizeof(full); cap++) {
		memset(buf, 0xee, sizeof(buf));
		ck_assert_int_eq(build(buf, cap), EH_E_NOSPACE);
		for (size_t i = cap; i < sizeof(buf); i++)
			ck_assert_uint_eq(buf[i], 0xee);
	}
	ck_assert_int_eq(build(buf, sizeof(full)), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("eventheader metadata builder");
	TCase *t = tcase_create("vectors");

	tcase_add_test(t, every_encoding);
	tcase_add_test(t, every_format);
	tcase_add_test(t, facts_examples);
	tcase_add_test(t, tags);
	tcase_add_test(t, arrays);
	tcase_add_test(t, nested_structs);
	tcase_add_test(t, attributes_escaped);
	tcase_add_test(t, no_fields);
	tcase_add_test(t, struct_127_members);
	suite_add_tcase(s, t);

	t = tcase_create("errors");
	tcase_add_test(t, struct_128_members);
	tcase_add_test(t, struct_empty);
	tcase_add_test(t, struct_depth);
	tcase_add_test(t, struct_state);
	tcase_add_test(t, bad_encodings);
	tcase_add_test(t, bad_struct_arrays);
	tcase_add_test(t, bad_names);
	tcase_add_test(t, out_of_order);
	tcase_add_test(t, sticky_error);
	tcase_add_test(t, nospace_every_stage);
	suite_add_tcase(s, t);
	return s;
}
