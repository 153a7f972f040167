/* SPDX-License-Identifier: MIT */
/*
 * eh_json_string, the one rule of JSON text: the exact bytes for every
 * escape, for the characters next to the escaped ranges, for bytes that
 * are not UTF-8 (each its Latin-1 character), and a short buffer holding
 * the start of the whole with the whole's length returned.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>

#include "../check_run.h"
#include <string.h>

#include "eventheader/eventheader.h"

static void check(const char *in, size_t n, const char *expected)
{
	char out[256];
	size_t len = eh_json_string(out, sizeof out, in, n);

	ck_assert_uint_lt(len, sizeof out);
	ck_assert_uint_eq(len, strlen(expected));
	ck_assert_mem_eq(out, expected, len);
}

#define CHECK(in, expected) check(in, sizeof in - 1, expected)

START_TEST(test_short_escapes)
{
	CHECK("\"\\\b\f\n\r\t/", "\\\"\\\\\\b\\f\\n\\r\\t/");
}
END_TEST

START_TEST(test_controls)
{
	check("\0\x01\x1f", 3, "\\u0000\\u0001\\u001f");
	/* DEL and the C1 controls (U+0080..U+009F); U+00A0 is text. */
	CHECK("\x7f\xc2\x80\xc2\x85\xc2\x9f\xc2\xa0", "\\u007f\\u0080\\u0085\\u009f\xc2\xa0");
	CHECK(" ~", " ~");
}
END_TEST

START_TEST(test_separators)
{
	/* U+2027 and U+202A stand for themselves. */
	CHECK("\xe2\x80\xa7\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa",
	      "\xe2\x80\xa7\\u2028\\u2029\xe2\x80\xaa");
}
END_TEST

START_TEST(test_utf8)
{
	CHECK("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf",
	      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf");
}
END_TEST

START_TEST(test_not_utf8)
{
	CHECK("\xff\xe9\xa0", "\xc3\xbf\xc3\xa9\xc2\xa0");
	CHECK("\x80\x85\x9f", "\\u0080\\u0085\\u009f");	/* C1 controls, escaped */
	CHECK("\xe2\x82x", "\xc3\xa2\\u0082x");		/* a cut sequence */
	CHECK("\xf0\x9f\x98", "\xc3\xb0\\u009f\\u0098");	/* cut by the end */
	CHECK("\xc0\xaf", "\xc3\x80\xc2\xaf");		/* overlong */
	CHECK("\xed\xa0\x80", "\xc3\xad\xc2\xa0\\u0080");	/* a surrogate */
	CHECK("\xf4\x90\x80\x80", "\xc3\xb4\\u0090\\u0080\\u0080");	/* past U+10FFFF */
	CHECK("a\xc3(\xc3\xa9", "a\xc3\x83(\xc3\xa9");
}
END_TEST

START_TEST(test_short_buffer)
{
	char out[8];

	memset(out, '#', sizeof out);
	ck_assert_uint_eq(eh_json_string(out, 5, "ab\ncd", 5), 6);
	ck_assert_mem_eq(out, "ab\\nc###", 8);	/* 5 of the 6 bytes, nothing past cap */
	ck_assert_uint_eq(eh_json_string(out, 3, "a\x01", 2), 7);
	ck_assert_mem_eq(out, "a\\u", 3);
	ck_assert_uint_eq(eh_json_string(NULL, 0, "\x01", 1), 6);
	ck_assert_uint_eq(eh_json_string(NULL, 0, "", 0), 0);
}
END_TEST

static Suite *json_string_suite(void)
{
	Suite *s = suite_create("json_string");
	TCase *tc = tcase_create("rule");

	tcase_add_test(tc, test_short_escapes);
	tcase_add_test(tc, test_controls);
	tcase_add_test(tc, test_separators);
	tcase_add_test(tc, test_utf8);
	tcase_add_test(tc, test_not_utf8);
	tcase_add_test(tc, test_short_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(json_string_suite());
}
