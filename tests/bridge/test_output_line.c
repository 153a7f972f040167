/* SPDX-License-Identifier: MIT */
/* A journal stream cut into entries, and their "<N>" prefixes, as
 * journald reads them (bridge/output/line.h). */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <stdlib.h>
#include <string.h>

#include "bridge/output/line.h"

/* The bytes of a string literal, without its own NUL. */
#define LIT(s) s, sizeof s - 1

static size_t line_len;

START_TEST(cut_at_ends)
{
	ck_assert_uint_eq(ehs_output_cut(LIT("abc\n"), &line_len), 4);
	ck_assert_uint_eq(line_len, 3);
	ck_assert_uint_eq(ehs_output_cut(LIT("\nabc\n"), &line_len), 1);
	ck_assert_uint_eq(line_len, 0);
	/* A NUL ends one too, whichever comes first. */
	ck_assert_uint_eq(ehs_output_cut(LIT("ab\0c\n"), &line_len), 3);
	ck_assert_uint_eq(line_len, 2);
	ck_assert_uint_eq(ehs_output_cut(LIT("ab\nc\0"), &line_len), 3);
	ck_assert_uint_eq(line_len, 2);
	/* No end yet: nothing. */
	line_len = 99;
	ck_assert_uint_eq(ehs_output_cut(LIT("abc"), &line_len), 0);
	ck_assert_uint_eq(line_len, 99);
	ck_assert_uint_eq(ehs_output_cut("", 0, &line_len), 0);
	ck_assert_uint_eq(ehs_output_end(LIT("abc")), 3);
	ck_assert_uint_eq(ehs_output_end(LIT("a\0b\n")), 1);
	ck_assert_uint_eq(ehs_output_end(LIT("ab\n\0")), 2);
}
END_TEST

START_TEST(cut_at_line_max)
{
	size_t max = EHS_OUTPUT_LINE_MAX;
	char *b = malloc(max + 2);
	ck_assert_ptr_nonnull(b);
	memset(b, 'x', max + 2);
	/* One byte short of LineMax, no end: not a line yet. */
	ck_assert_uint_eq(ehs_output_cut(b, max - 1, &line_len), 0);
	/* LineMax bytes without an end are a line, and the next starts
	 * after them, even where an end follows at once. */
	ck_assert_uint_eq(ehs_output_cut(b, max, &line_len), max);
	ck_assert_uint_eq(line_len, max);
	b[max] = '\n';
	ck_assert_uint_eq(ehs_output_cut(b, max + 1, &line_len), max);
	ck_assert_uint_eq(line_len, max);
	/* An end at the last byte of LineMax ends that line. */
	b[max - 1] = '\n';
	ck_assert_uint_eq(ehs_output_cut(b, max + 2, &line_len), max);
	ck_assert_uint_eq(line_len, max - 1);
	free(b);
}
END_TEST

/* The prefix's length at s and the severity it gives, from 9. */
static void ck_prefix(const char *s, size_t n, size_t want, int want_severity)
{
	int severity = 9;
	ck_assert_uint_eq(ehs_output_prefix(s, n, &severity), want);
	ck_assert_int_eq(severity, want_severity);
}

START_TEST(level_prefix)
{
	ck_prefix(LIT("<3>disk full"), 3, 3);
	ck_prefix(LIT("<0>x"), 3, 0);
	ck_prefix(LIT("<7>"), 3, 7);
	ck_prefix(LIT("<03>x"), 4, 3);
	ck_prefix(LIT("<003>x"), 5, 3);
	/* Not journald's: the line keeps its bytes and the stream's level. */
	ck_prefix(LIT("<0003>x"), 0, 9);
	ck_prefix(LIT("<8>x"), 0, 9);
	ck_prefix(LIT("<13>x"), 0, 9);	/* a facility: not in a stream's prefix */
	ck_prefix(LIT("<30>x"), 0, 9);
	ck_prefix(LIT("<>x"), 0, 9);
	ck_prefix(LIT("<a>x"), 0, 9);
	ck_prefix(LIT("<3x"), 0, 9);
	ck_prefix(LIT(" <3>x"), 0, 9);
	ck_prefix(LIT("<3"), 0, 9);
	/* Only the entry's bytes count. */
	ck_prefix("<3>", 2, 0, 9);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge output line");
	TCase *tc = tcase_create("line");
	tcase_add_test(tc, cut_at_ends);
	tcase_add_test(tc, cut_at_line_max);
	tcase_add_test(tc, level_prefix);
	suite_add_tcase(s, tc);
	return check_run(s);
}
