/* SPDX-License-Identifier: MIT */
/*
 * Decoder tests: hand-made event bytes decoded to exact JSON and text,
 * every malformation its exact error, every truncation refused, random
 * corruption never crashing.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>

#include "../check_run.h"
#include <stdlib.h>
#include <string.h>

#include "eventheader/eventheader.h"

static char out[8192];

#define JSON(name, bytes, expected) \
	check_json(name, bytes, sizeof(bytes), NULL, expected)

static void check_json(const char *name, const uint8_t *b, size_t n,
		       const struct eh_record_info *info, const char *expected)
{
	long r = eh_decode_json(name, b, n, info, EH_DECODE_DEFAULT, out, sizeof out);

	ck_assert_msg(r >= 0, "decode failed: %ld (%s)", r, eh_strerror((int)r));
	ck_assert_str_eq(out, expected);
	ck_assert_int_eq(r, (long)strlen(expected));
}

static long decode(const char *name, const uint8_t *b, size_t n)
{
	return eh_decode_json(name, b, n, NULL, EH_DECODE_DEFAULT, out, sizeof out);
}

/* ---- well-formed events ------------------------------------------------ */

/* The event ehsyslog's bridge writes. */
static const uint8_t syslog_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 4,	/* flags LE64+ext, version, id, tag, opcode, level 4 */
	26, 0, 0x01, 0x00,		/* metadata block, 26 bytes, last */
	'a', 'p', 'p', 0,		/* event name */
	'm', 'e', 's', 's', 'a', 'g', 'e', 0, 0x0a,	/* counted UTF-8 string */
	's', 'e', 'v', 0, 0x02,	/* u8 */
	'e', 'r', 'r', 'n', 'o', 0, 0x84, 0x04,	/* int32, errno format */
	5, 0, 'h', 'e', 'l', 'l', 'o',	/* message */
	6,				/* sev */
	2, 0, 0, 0,			/* errno ENOENT */
};

START_TEST(test_syslog_event)
{
	JSON("Syslog_L4K2", syslog_event,
	     "{\"n\":\"Syslog:app\",\"message\":\"hello\",\"sev\":6,"
	     "\"errno\":\"ENOENT(2)\",\"meta\":{\"level\":4,\"keyword\":\"0x2\"}}");
}
END_TEST

/* Trailing pad bytes (ftrace, perf) are not fields. */
START_TEST(test_trailing_pad)
{
	uint8_t b[sizeof syslog_event + 7];

	memcpy(b, syslog_event, sizeof syslog_event);
	memset(b + sizeof syslog_event, 0xee, 7);
	for (size_t pad = 0; pad <= 7; pad++) {
		ck_assert_int_gt(decode("Syslog_L4K2", b, sizeof syslog_event + pad), 0);
		ck_assert_str_eq(out, "{\"n\":\"Syslog:app\",\"message\":\"hello\",\"sev\":6,"
			"\"errno\":\"ENOENT(2)\",\"meta\":{\"level\":4,\"keyword\":\"0x2\"}}");
	}
}
END_TEST

/* Header attributes, activity ids, record info, event attributes. */
static const uint8_t header_event[] = {
	0x07, 3, 0x02, 0x01, 0xcd, 0xab, 1, 2,	/* version 3, id 0x102, tag 0xabcd, opcode 1, level 2 */
	32, 0, 0x02, 0x80,		/* activity block, 32 bytes, more follow */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,	/* activity id */
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,	/* related id */
	2, 0, 0x7f, 0x80,		/* unknown kind 0x7f, 2 bytes, more follow: skipped */
	0xff, 0xff,
	7, 0, 0x01, 0x00,		/* metadata, 7 bytes, last */
	'E', 'v', ';', 'k', '=', 'v', 0,	/* name with an attribute, no fields */
};

START_TEST(test_header_items)
{
	struct eh_record_info info = {
		.time_ns = 1711586714789582652ull, .has_time = true,
		.cpu = 16, .has_cpu = true, .pid = 2004, .tid = 2005, .has_pid = true,
	};
	struct eh_event_view ev;

	check_json("P_L2Kf123456789abcdefGgroup", header_event, sizeof header_event, &info,
		   "{\"n\":\"P:Ev;k=v\",\"meta\":{\"time\":\"2024-03-28T00:45:14.789582652Z\","
		   "\"cpu\":16,\"pid\":2004,\"tid\":2005,\"id\":258,\"version\":3,\"level\":2,"
		   "\"keyword\":\"0xF123456789ABCDEF\",\"opcode\":1,\"tag\":\"0xABCD\","
		   "\"activity\":\"01020304-0506-0708-090a-0b0c0d0e0f10\","
		   "\"relatedActivity\":\"a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf\"}}");
	ck_assert_int_eq(eh_event_open(&ev, "P_L2K5", header_event, sizeof header_event), 0);
	ck_assert_int_eq((int)ev.name_len, 2);
	ck_assert_int_eq((int)ev.attributes_len, 4);
	ck_assert_int_eq(memcmp(ev.attributes, ";k=v", 4), 0);
	ck_assert_int_eq((int)ev.provider_len, 1);
	ck_assert_uint_eq(ev.keyword, 5);
	ck_assert_ptr_eq(ev.activity_id, header_event + 12);
	ck_assert_ptr_eq(ev.related_id, header_event + 12 + 16);
}
END_TEST

/* Every format on the integer encodings. */
static const uint8_t formats_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 5,
	91, 0, 0x01, 0x00,		/* metadata, 91 bytes */
	'F', 0,
	'u', 0, 0x84, 0x01,		/* value32 unsigned */
	's', 0, 0x84, 0x02,		/* value32 signed */
	'h', 0, 0x84, 0x03,		/* value32 hex */
	'e', 0, 0x84, 0x04,		/* value32 errno, unknown number */
	'p', 0, 0x84, 0x05,		/* value32 pid */
	't', 0, 0x85, 0x06,		/* value64 time */
	'b', 0, 0x82, 0x07,		/* value8 boolean */
	'B', 0, 0x83, 0x07,		/* value16 boolean, not 0/1 */
	'f', 0, 0x84, 0x08,		/* value32 float */
	'd', 0, 0x85, 0x08,		/* value64 float */
	'x', 0, 0x84, 0x09,		/* value32 hex bytes */
	'c', 0, 0x82, 0x0a,		/* value8 string8 (Latin-1) */
	'w', 0, 0x83, 0x0b,		/* value16 UTF-16 unit */
	'g', 0, 0x86, 0x0f,		/* value128 uuid */
	'o', 0, 0x83, 0x10,		/* value16 port (big-endian) */
	'4', 0, 0x84, 0x11,		/* value32 IPv4 */
	'6', 0, 0x86, 0x11,		/* value128 IPv6 */
	'q', 0, 0x85, 0x04,		/* value64 errno: not a size errno has */
	'z', 0, 0x86, 0x00,		/* value128 default: hex bytes */
	'n', 0, 0x84, 0x08,		/* value32 float NaN */
	'T', 0, 0x84, 0x86, 0x34, 0x12,	/* value32 time, field tag 0x1234 */
	'v', 0, 0x05,			/* value64 default: unsigned */
	/* payload */
	0xff, 0xff, 0xff, 0xff,	/* u */
	0xfe, 0xff, 0xff, 0xff,	/* s: -2 */
	0xef, 0xbe, 0xad, 0xde,	/* h */
	0x39, 0x30, 0x00, 0x00,	/* e: 12345 */
	0xd2, 0x04, 0x00, 0x00,	/* p: 1234 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* t: 0 */
	0x01,			/* b */
	0x02, 0x00,		/* B */
	0x00, 0x00, 0xc0, 0x3f,	/* f: 1.5 */
	0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f,	/* d: 0.1 */
	0x01, 0x02, 0x03, 0x04,	/* x */
	0xe9,			/* c: e acute */
	0xac, 0x20,		/* w: euro sign */
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,	/* g */
	0x01, 0xbb,		/* o: 443 */
	192, 168, 0, 1,		/* 4 */
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,	/* 6 */
	0x02, 0, 0, 0, 0, 0, 0, 0,	/* q */
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,	/* z */
	0x00, 0x00, 0xc0, 0x7f,	/* n */
	0x80, 0x51, 0x01, 0x00,	/* T: 86400 */
	0x2a, 0, 0, 0, 0, 0, 0, 0,	/* v */
};

START_TEST(test_formats)
{
	JSON("P_L5K0", formats_event,
	     "{\"n\":\"P:F\",\"u\":4294967295,\"s\":-2,\"h\":\"0xDEADBEEF\","
	     "\"e\":\"ERRNO(12345)\",\"p\":1234,\"t\":\"1970-01-01T00:00:00\","
	     "\"b\":true,\"B\":2,\"f\":1.5,\"d\":0.1,\"x\":\"01 02 03 04\","
	     "\"c\":\"\xc3\xa9\",\"w\":\"\xe2\x82\xac\","
	     "\"g\":\"00112233-4455-6677-8899-aabbccddeeff\",\"o\":443,"
	     "\"4\":\"192.168.0.1\",\"6\":\"2001:db8::1\",\"q\":2,"
	     "\"z\":\"00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\","
	     "\"n\":\"nan\",\"T;tag=0x1234\":\"1970-01-02T00:00:00\",\"v\":42,"
	     "\"meta\":{\"level\":5}}");
}
END_TEST

/* Strings: every width, BOMs, bad UTF-8, escaping. */
static const uint8_t strings_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 5,
	34, 0, 0x01, 0x00,		/* metadata, 34 bytes */
	'S', 0,
	'a', 0, 0x07,			/* zstring char8, default UTF-8 */
	'b', 0, 0x08,			/* zstring char16 */
	'c', 0, 0x09,			/* zstring char32 */
	'd', 0, 0x8b, 0x0c,		/* counted char16, UTF BOM format */
	'e', 0, 0x8a, 0x0a,		/* counted char8, Latin-1 */
	'f', 0, 0x8c, 0x09,		/* counted char32, hex bytes */
	'g', 0, 0x8d, 0x01,		/* binary, unsigned format, 0 bytes: null */
	'h', 0, 0x0d,			/* binary default: hex bytes */
	'i', 0, 0x8d, 0x04,		/* binary errno format, 4 bytes */
	/* payload */
	'q', '"', '\\', 0x01, '\n', 0xff, 0xc3, 0xa9, 0,	/* a: bad byte 0xff, then e acute */
	0x3d, 0xd8, 0x00, 0xde, 0x00, 0xd8, 'x', 0, 0, 0,	/* b: U+1F600, lone surrogate, x */
	0x00, 0xf6, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,	/* c: U+1F600 */
	3, 0, 0xfe, 0xff, 0x00, 'h', 0x00, 'i',	/* d: BOM big-endian "hi" */
	2, 0, 0xe9, 0x7f,		/* e: Latin-1 e acute, DEL */
	1, 0, 0x41, 0, 0, 0,		/* f */
	0, 0,				/* g */
	2, 0, 0xab, 0xcd,		/* h */
	4, 0, 0x01, 0, 0, 0,		/* i: EPERM */
};

START_TEST(test_strings)
{
	JSON("P_L5K0", strings_event,
	     "{\"n\":\"P:S\",\"a\":\"q\\\"\\\\\\u0001\\n\xc3\xbf\xc3\xa9\","
	     "\"b\":\"\xf0\x9f\x98\x80\xef\xbf\xbdx\",\"c\":\"\xf0\x9f\x98\x80\","
	     "\"d\":\"hi\",\"e\":\"\xc3\xa9\\u007f\",\"f\":\"41 00 00 00\",\"g\":null,"
	     "\"h\":\"ab cd\",\"i\":\"EPERM(1)\",\"meta\":{\"level\":5}}");
}
END_TEST

/* Top-level fields shown otherwise: a value in place of the event's,
 * escaped as any string; one left out; a name the event lacks. */
START_TEST(test_json_with)
{
	static const struct eh_field_value fields[] = {
		{ "message", "joined \"whole\"\n", 15 },
		{ "sev", NULL, 0 },
		{ "absent", NULL, 0 },
	};
	static const char expected[] =
		"{\"n\":\"Syslog:app\",\"message\":\"joined \\\"whole\\\"\\n\","
		"\"errno\":\"ENOENT(2)\",\"meta\":{\"level\":4,\"keyword\":\"0x2\"}}";
	long r = eh_decode_json_with("Syslog_L4K2", syslog_event, sizeof syslog_event, NULL,
				     EH_DECODE_DEFAULT, fields, 3, out, sizeof out);

	ck_assert_str_eq(out, expected);
	ck_assert_int_eq(r, (long)strlen(expected));
	/* None: eh_decode_json's line. */
	r = eh_decode_json_with("Syslog_L4K2", syslog_event, sizeof syslog_event, NULL,
				EH_DECODE_DEFAULT, NULL, 0, out, sizeof out);
	ck_assert_int_gt(r, 0);
	ck_assert_str_eq(out, "{\"n\":\"Syslog:app\",\"message\":\"hello\",\"sev\":6,"
			 "\"errno\":\"ENOENT(2)\",\"meta\":{\"level\":4,\"keyword\":\"0x2\"}}");
}
END_TEST

START_TEST(test_text_form)
{
	long r = eh_decode_text("P_L5K0", strings_event, sizeof strings_event, NULL,
				EH_DECODE_DEFAULT, out, sizeof out);

	ck_assert_int_gt(r, 0);
	ck_assert_str_eq(out,
		"P:S a=\"q\\\"\\\\\\x01\\n\\xff\xc3\xa9\" b=\"\xf0\x9f\x98\x80\xef\xbf\xbdx\" "
		"c=\"\xf0\x9f\x98\x80\" d=\"hi\" e=\"\xc3\xa9\\x7f\" f=41 00 00 00 g=null "
		"h=ab cd i=EPERM(1) [level=5]");
	r = eh_decode_text("Syslog_L4K2", syslog_event, sizeof syslog_event, NULL,
			   EH_DECODE_META, out, sizeof out);
	ck_assert_str_eq(out, "message=\"hello\" sev=6 errno=ENOENT(2) [level=4 keyword=0x2]");
	ck_assert_int_eq(r, (long)strlen(out));
}
END_TEST

/* Arrays of every kind, structs nested and in arrays, tags. */
static const uint8_t arrays_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 5,
	47, 0, 0x01, 0x00,		/* metadata, 47 bytes */
	'A', 0,
	'c', 0, 0xa3, 0x03, 2, 0,	/* u16 carray of 2, hex */
	'v', 0, 0x47,			/* zstring8 varray */
	's', 0, 0xc1, 0x82, 0x07, 0x00,	/* struct varray, 2 members, tag 7 */
	'x', 0, 0x02,			/*   u8 */
	'n', 0, 0x81, 0x01,		/*   struct, 1 member */
	'y', 0, 0x84, 0x02,		/*     int32 signed */
	'e', 0, 0xc1, 0x01,		/* struct varray, 1 member, empty */
	'z', 0, 0x02,			/*   u8 */
	'k', 0, 0xa1, 0x01, 1, 0,	/* struct carray of 1, 1 member */
	'w', 0, 0x02,			/*   u8 */
	'l', 0, 0x02,			/* u8 */
	/* payload */
	0x34, 0x12, 0xcd, 0xab,	/* c */
	2, 0, 'a', 0, 0,		/* v: "a", "" */
	2, 0,				/* s: 2 elements */
	1, 0xff, 0xff, 0xff, 0xff,	/*   x=1, n.y=-1 */
	2, 0x02, 0x00, 0x00, 0x00,	/*   x=2, n.y=2 */
	0, 0,				/* e: none */
	5,				/* k[0].w */
	9,				/* l */
};

START_TEST(test_arrays_structs)
{
	JSON("P_L5K0", arrays_event,
	     "{\"n\":\"P:A\",\"c\":[\"0x1234\",\"0xABCD\"],\"v\":[\"a\",\"\"],"
	     "\"s;tag=0x7\":[{\"x\":1,\"n\":{\"y\":-1}},{\"x\":2,\"n\":{\"y\":2}}],"
	     "\"e\":[],\"k\":[{\"w\":5}],\"l\":9,\"meta\":{\"level\":5}}");
	ck_assert_int_gt(eh_decode_text("P_L5K0", arrays_event, sizeof arrays_event, NULL, 0,
					out, sizeof out), 0);
	ck_assert_str_eq(out, "c=[0x1234,0xABCD] v=[\"a\",\"\"] s;tag=0x7=[{x=1 n={y=-1}},"
			 "{x=2 n={y=2}}] e=[] k=[{w=5}] l=9");
}
END_TEST

/* The cursor's items for a struct array and a scalar array. */
START_TEST(test_cursor_items)
{
	static const uint8_t b[] = {
		0x07, 0, 0, 0, 0, 0, 0, 5,
		14, 0, 0x01, 0x00,
		'C', 0,
		'a', 0, 0xc1, 0x01,	/* struct varray, 1 member */
		'x', 0, 0x02,		/*   u8 */
		'b', 0, 0x22, 2, 0,	/* u8 carray of 2 */
		1, 0, 7, 8, 9,		/* a: 1 element x=7; b: 8, 9 */
	};
	static const struct { enum eh_item_kind kind; const char *name; unsigned depth; bool elem; int v; } want[] = {
		{ EH_ITEM_ARRAY_BEGIN, "a", 0, false, -1 },
		{ EH_ITEM_STRUCT_BEGIN, "a", 0, true, -1 },
		{ EH_ITEM_VALUE, "x", 1, false, 7 },
		{ EH_ITEM_STRUCT_END, "a", 0, true, -1 },
		{ EH_ITEM_ARRAY_END, "a", 0, false, -1 },
		{ EH_ITEM_ARRAY_BEGIN, "b", 0, false, -1 },
		{ EH_ITEM_VALUE, "b", 0, true, 8 },
		{ EH_ITEM_VALUE, "b", 0, true, 9 },
		{ EH_ITEM_ARRAY_END, "b", 0, false, -1 },
	};
	struct eh_event_view ev;
	struct eh_cursor c;
	struct eh_item it;

	ck_assert_int_eq(eh_event_open(&ev, "P_L5K0", b, sizeof b), 0);
	ck_assert_int_eq((int)ev.name_len, 1);
	eh_cursor_init(&c, &ev);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		ck_assert_int_eq(eh_cursor_next(&c, &it), 1);
		ck_assert_int_eq(it.kind, want[i].kind);
		ck_assert_str_eq(it.name, want[i].name);
		ck_assert_uint_eq(it.depth, want[i].depth);
		ck_assert_int_eq(it.is_element, want[i].elem);
		if (want[i].v >= 0) {
			ck_assert_uint_eq(it.value_len, 1);
			ck_assert_int_eq(it.value[0], want[i].v);
		}
	}
	ck_assert_int_eq(eh_cursor_next(&c, &it), 0);
}
END_TEST

/* A struct declaring more members than the metadata holds ends with the
 * metadata (Microsoft's encoder writes such events; see conformance). */
START_TEST(test_struct_count_past_metadata)
{
	static const uint8_t b[] = {
		0x07, 0, 0, 0, 0, 0, 0, 5,
		9, 0, 0x01, 0x00,
		'E', 0,
		's', 0, 0x81, 20,	/* struct of 20 members */
		'a', 0, 0x02,		/* only one present */
		3,
	};
	JSON("P_L5K0", b, "{\"n\":\"P:E\",\"s\":{\"a\":3},\"meta\":{\"level\":5}}");
}
END_TEST

/* ---- malformed events: each its exact error ------------------------------ */

struct bad {
	const char *what;
	const char *name;
	uint8_t bytes[48];
	size_t len;
	int err;
};

static const struct bad bad_events[] = {
	{ "header cut", "P_L5K0", { 0x07, 0, 0, 0, 0, 0, 0 }, 7, EH_E_TRUNCATED },
	{ "empty", "P_L5K0", { 0 }, 0, EH_E_TRUNCATED },
	{ "flags 0x00", "P_L5K0", { 0x00, 0, 0, 0, 0, 0, 0, 5 }, 8, EH_E_FLAGS },
	{ "flags without little-endian", "P_L5K0",
	  { 0x05, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_FLAGS },
	{ "flags without pointer64", "P_L5K0",
	  { 0x06, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_FLAGS },
	{ "unknown flag bit", "P_L5K0",
	  { 0x0f, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_FLAGS },
	{ "no extension at all", "P_L5K0", { 0x03, 0, 0, 0, 0, 0, 0, 5, 1, 2 }, 10, EH_E_NO_METADATA },
	{ "extension header cut", "P_L5K0", { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1 }, 11, EH_E_EXTENSION },
	{ "extension size past the end", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 3, 0, 1, 0, 'E', 0 }, 14, EH_E_EXTENSION },
	{ "chain flag with nothing after", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0x80, 'E', 0 }, 14, EH_E_EXTENSION },
	{ "only an activity block", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 16, 0, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
	  28, EH_E_NO_METADATA },
	{ "two metadata blocks", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0x80, 'E', 0, 2, 0, 1, 0, 'F', 0 }, 20, EH_E_NO_METADATA },
	{ "activity block of 8", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 8, 0, 2, 0x80, 1, 2, 3, 4, 5, 6, 7, 8, 2, 0, 1, 0, 'E', 0 },
	  26, EH_E_ACTIVITY },
	{ "event name unterminated", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 'v' }, 14, EH_E_UNTERMINATED },
	{ "field name unterminated", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 4, 0, 1, 0, 'E', 0, 'f', 'g' }, 16, EH_E_UNTERMINATED },
	{ "field without encoding", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 4, 0, 1, 0, 'E', 0, 'f', 0 }, 16, EH_E_TRUNCATED },
	{ "encoding 0", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 'f', 0, 0x00 }, 17, EH_E_ENCODING },
	{ "encoding 14", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 'f', 0, 0x0e, 1 }, 18, EH_E_ENCODING },
	{ "both array flags", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 7, 0, 1, 0, 'E', 0, 'f', 0, 0x62, 1, 0, 0, 0, 1 }, 22, EH_E_ENCODING },
	{ "carray of 0", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 7, 0, 1, 0, 'E', 0, 'f', 0, 0x22, 0, 0 }, 19, EH_E_ENCODING },
	{ "struct of 0 fields", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 6, 0, 1, 0, 'E', 0, 's', 0, 0x81, 0x00 }, 18, EH_E_STRUCT },
	{ "struct without format", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 's', 0, 0x01 }, 17, EH_E_STRUCT },
	{ "carray count past the end", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 7, 0, 1, 0, 'E', 0, 'f', 0, 0x24, 3, 0, 1, 0, 0, 0, 2, 0, 0, 0 },
	  27, EH_E_ARRAY },
	{ "varray count past the end", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 'f', 0, 0x43, 3, 0, 1, 0, 2, 0 }, 23, EH_E_ARRAY },
	{ "varray count cut", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 'f', 0, 0x43, 3 }, 18, EH_E_ARRAY },
	{ "string length past the end", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 'f', 0, 0x0a, 5, 0, 'a', 'b' }, 21, EH_E_TRUNCATED },
	{ "zstring without NUL", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 'f', 0, 0x08, 'a', 0, 'b' }, 20, EH_E_TRUNCATED },
	{ "value cut", "P_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 5, 0, 1, 0, 'E', 0, 'f', 0, 0x05, 1, 2, 3 }, 20, EH_E_TRUNCATED },
	{ "level differs from the name", "P_L4K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_LEVEL_MISMATCH },
	{ "name without level", "P_K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_NAME_SYNTAX },
	{ "name without keyword", "P_L5",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_NAME_SYNTAX },
	{ "empty provider", "_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_PROVIDER_EMPTY },
	{ "provider with ':'", "a:b_L5K0",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_PROVIDER_CHAR },
	{ "bad option", "P_L5K0g",
	  { 0x07, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, 'E', 0 }, 14, EH_E_OPTION_CHAR },
};

START_TEST(test_malformed)
{
	const struct bad *b = &bad_events[_i];
	long r = decode(b->name, b->bytes, b->len);

	ck_assert_msg(r == b->err, "%s: got %ld, want %d", b->what, r, b->err);
	ck_assert_str_eq(out, "");
	r = eh_decode_text(b->name, b->bytes, b->len, NULL, EH_DECODE_DEFAULT, out, sizeof out);
	ck_assert_msg(r == b->err, "%s (text): got %ld, want %d", b->what, r, b->err);
}
END_TEST

START_TEST(test_bad_arguments)
{
	ck_assert_int_eq(decode(NULL, syslog_event, sizeof syslog_event), EH_E_INVAL);
	ck_assert_int_eq(decode("Syslog_L4K2", NULL, 8), EH_E_INVAL);
	ck_assert_int_eq(eh_decode_json("Syslog_L4K2", syslog_event, sizeof syslog_event,
					NULL, 0, NULL, 8), EH_E_INVAL);
}
END_TEST

/* Nesting: EH_STRUCT_DEPTH_MAX structs decode, one more is refused. */
static size_t nested_event(uint8_t *b, unsigned depth)
{
	size_t n = 0, meta_at;

	memcpy(b, (const uint8_t[]){ 0x07, 0, 0, 0, 0, 0, 0, 5 }, 8);
	n = 8;
	meta_at = n;
	n += 4;
	b[n++] = 'E';
	b[n++] = 0;
	for (unsigned i = 0; i < depth; i++) {
		b[n++] = 's';
		b[n++] = 0;
		b[n++] = 0x81;
		b[n++] = 1;
	}
	b[n++] = 'v';
	b[n++] = 0;
	b[n++] = 0x02;
	b[meta_at] = (uint8_t)(n - meta_at - 4);
	b[meta_at + 1] = 0;
	b[meta_at + 2] = 1;
	b[meta_at + 3] = 0;
	b[n++] = 42;
	return n;
}

START_TEST(test_depth)
{
	uint8_t b[128];
	size_t n = nested_event(b, EH_STRUCT_DEPTH_MAX);

	ck_assert_int_gt(decode("P_L5K0", b, n), 0);
	ck_assert_str_eq(out, "{\"n\":\"P:E\",\"s\":{\"s\":{\"s\":{\"s\":{\"s\":{\"s\":{\"s\":{\"s\":"
			 "{\"v\":42}}}}}}}},\"meta\":{\"level\":5}}");
	n = nested_event(b, EH_STRUCT_DEPTH_MAX + 1);
	ck_assert_int_eq(decode("P_L5K0", b, n), EH_E_DEPTH);
}
END_TEST

/* The output buffer: exact fit works, one byte less is EH_E_NOSPACE. */
START_TEST(test_nospace)
{
	char small[128];
	long full = decode("Syslog_L4K2", syslog_event, sizeof syslog_event);

	ck_assert_int_gt(full, 0);
	ck_assert_int_eq(eh_decode_json("Syslog_L4K2", syslog_event, sizeof syslog_event, NULL,
					EH_DECODE_DEFAULT, small, (size_t)full + 1), full);
	ck_assert_str_eq(small, out);
	for (size_t cap = 0; cap <= (size_t)full; cap++) {
		memset(small, 'x', sizeof small);
		ck_assert_int_eq(eh_decode_json("Syslog_L4K2", syslog_event, sizeof syslog_event,
						NULL, EH_DECODE_DEFAULT, small, cap), EH_E_NOSPACE);
		if (cap)
			ck_assert_int_eq(small[0], '\0');
		ck_assert_int_eq(small[cap], 'x');	/* nothing written past cap */
	}
}
END_TEST

/* Cutting a valid event anywhere before its end is refused cleanly. */
START_TEST(test_every_truncation)
{
	static const uint8_t *const events[] = {
		syslog_event, formats_event, strings_event, arrays_event, header_event,
	};
	static const size_t lens[] = {
		sizeof syslog_event, sizeof formats_event, sizeof strings_event,
		sizeof arrays_event, sizeof header_event,
	};
	static const char *const names[] = { "Syslog_L4K2", "P_L5K0", "P_L5K0", "P_L5K0", "P_L2K0" };

	for (size_t e = 0; e < 5; e++) {
		const char *name = names[e];

		ck_assert_int_gt(decode(name, events[e], lens[e]), 0);

		for (size_t cut = 0; cut < lens[e]; cut++) {
			uint8_t *copy = malloc(cut ? cut : 1);	/* exact size: ASan sees overreads */

			memcpy(copy, events[e], cut);
			long r = decode(name, copy, cut);
			ck_assert_msg(r < 0, "event %zu cut at %zu decoded: %s", e, cut, out);
			r = eh_decode_text(name, copy, cut, NULL, EH_DECODE_DEFAULT, out, sizeof out);
			ck_assert_msg(r < 0, "event %zu cut at %zu decoded as text", e, cut);
			free(copy);
		}
	}
}
END_TEST

/* Random corruption: any result, but a consistent one and no crash. */
START_TEST(test_random_flips)
{
	static const uint8_t *const events[] = { syslog_event, formats_event, strings_event, arrays_event };
	static const size_t lens[] = {
		sizeof syslog_event, sizeof formats_event, sizeof strings_event, sizeof arrays_event,
	};
	char small[24];
	unsigned seed = 12345;

	for (int iter = 0; iter < 40000; iter++) {
		size_t e = (size_t)iter % 4, n = lens[e];
		uint8_t *b = malloc(n);
		const char *name = e == 0 ? "Syslog_L4K2" : "P_L5K0";

		memcpy(b, events[e], n);
		for (int k = 0; k < 1 + iter % 4; k++)
			b[(size_t)rand_r(&seed) % n] ^= (uint8_t)(1u << (rand_r(&seed) % 8));
		long r = decode(name, b, n);
		ck_assert(r >= EH_E_ACTIVITY && r != 0);
		if (r > 0)
			ck_assert_int_eq((long)strlen(out), r);
		r = eh_decode_text(name, b, n, NULL, EH_DECODE_DEFAULT, small, sizeof small);
		ck_assert(r >= EH_E_ACTIVITY && r < (long)sizeof small);
		free(b);
	}
}
END_TEST

static Suite *decode_suite(void)
{
	Suite *s = suite_create("decode");
	TCase *tc = tcase_create("wellformed");

	tcase_add_test(tc, test_syslog_event);
	tcase_add_test(tc, test_trailing_pad);
	tcase_add_test(tc, test_header_items);
	tcase_add_test(tc, test_formats);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_json_with);
	tcase_add_test(tc, test_text_form);
	tcase_add_test(tc, test_arrays_structs);
	tcase_add_test(tc, test_cursor_items);
	tcase_add_test(tc, test_struct_count_past_metadata);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_nospace);
	suite_add_tcase(s, tc);

	tc = tcase_create("malformed");
	tcase_add_loop_test(tc, test_malformed, 0, (int)(sizeof bad_events / sizeof bad_events[0]));
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_every_truncation);
	tcase_add_test(tc, test_random_flips);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(decode_suite());
}
