/* SPDX-License-Identifier: MIT */
/*
 * ehs_text_vformat: the text of a format "%s" is its argument itself,
 * not a copy, whatever its length; other formats, and "%s" with an
 * errno to append, are formatted into the buffer the caller lends or a mapping.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/format/text.h"

/* The buffer the texts are lent: the caller's, as a scratch slot would be. */
static char buf[EHS_TEXT_STACK];

static int text_of(struct ehs_text *t, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = ehs_text_vformat(t, buf, ENOENT, errnum, fmt, ap);
	va_end(ap);
	return r;
}

START_TEST(percent_s_is_the_argument)
{
	struct ehs_text t;
	static const char msg[] = "a message\n\n";
	ck_assert_int_eq(text_of(&t, -1, "%s", msg), 0);
	ck_assert_ptr_eq(t.p, msg);
	ck_assert_uint_eq(t.len, strlen("a message"));
	ck_assert_uint_eq(t.map_len, 0);
	ehs_text_free(&t);

	ck_assert_int_eq(text_of(&t, -1, "%s", (char *)NULL), 0);
	ck_assert_str_eq(t.p, "(null)");
	ck_assert_uint_eq(t.len, 6);

	ck_assert_int_eq(text_of(&t, -1, "%s", "\n\n"), 0);
	ck_assert_uint_eq(t.len, 0);

	/* Longer than the stack: still the argument, nothing mapped. */
	size_t n = 3 * EHS_TEXT_STACK;
	char *big = malloc(n + 1);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', n);
	big[n] = '\0';
	ck_assert_int_eq(text_of(&t, -1, "%s", big), 0);
	ck_assert_ptr_eq(t.p, big);
	ck_assert_uint_eq(t.len, n);
	ck_assert_uint_eq(t.map_len, 0);
	ehs_text_free(&t);
	free(big);
}
END_TEST

START_TEST(other_formats_are_copies)
{
	struct ehs_text t;
	static const char msg[] = "word";
	/* "%s" and more, or "%s" with strerror after it: formatted. */
	ck_assert_int_eq(text_of(&t, -1, "%s.", msg), 0);
	ck_assert_ptr_eq(t.p, t.buf);
	ck_assert_str_eq(t.p, "word.");
	ck_assert_int_eq(text_of(&t, EACCES, "%s", msg), 0);
	ck_assert_ptr_eq(t.p, t.buf);
	ck_assert_str_eq(t.p, "word: Permission denied");
	ck_assert_int_eq(text_of(&t, -1, "%ss", msg), 0);
	ck_assert_str_eq(t.p, "words");
	ck_assert_int_eq(text_of(&t, -1, "%m %s", msg), 0);
	ck_assert_str_eq(t.p, "No such file or directory word");
	ck_assert_uint_eq(t.len, strlen(t.p));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge text");
	TCase *tc = tcase_create("text");
	tcase_add_test(tc, percent_s_is_the_argument);
	tcase_add_test(tc, other_formats_are_copies);
	suite_add_tcase(s, tc);
	return check_run(s);
}
