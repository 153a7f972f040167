/* SPDX-License-Identifier: MIT */
/*
 * ehs_format against glibc's vsnprintf, byte for byte: a table of edge
 * cases cut at every buffer size, every combination of flags, width,
 * precision and length on every conversion, and the formats it must
 * leave to vsnprintf.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#include "bridge/format/format.h"
#include "bridge/format/format_plan.h"

#define BUF 512
#define CANARY 0xa5

static unsigned long compared, fell_back;

/*
 * Formats fmt with ehs_format and with vsnprintf into buffers of cap
 * bytes filled with a canary, errno being err; fails the test on any
 * difference in the result, in the text and its NUL, or in any byte from
 * cap on.  Returns
 * ehs_format's result.
 */
static long compare_at(size_t cap, int err, const char *fmt, va_list ap)
{
	unsigned char ours[BUF + 8], want[BUF + 8];
	memset(ours, CANARY, sizeof ours);
	memset(want, CANARY, sizeof want);
	va_list a;
	va_copy(a, ap);
	errno = 4321;
	long n = ehs_format((char *)ours, cap, fmt, a, err);
	va_end(a);
	/* ck_abort_msg behind an if: every ck_assert costs Check a write to
	 * its parent, too many for these loops. */
	if (errno != 4321)
		ck_abort_msg("\"%s\": errno changed to %d", fmt, errno);
	if (n == EHS_FORMAT_FALLBACK) {
		fell_back++;
		return n;
	}
	va_copy(a, ap);
	errno = err;
	int r = vsnprintf((char *)want, cap, fmt, a);
	va_end(a);
	if (n != r)
		ck_abort_msg("\"%s\" cap %zu: length %ld, glibc %d", fmt, cap, n, r);
	/* The text and its NUL as glibc's, nothing written from cap on;
	 * the bytes between the two are ehs_format's scratch (format.h). */
	size_t kept = cap == 0 ? 0 : ((size_t)r < cap - 1 ? (size_t)r : cap - 1) + 1;
	if (memcmp(ours, want, kept) || memcmp(ours + cap, want + cap, sizeof ours - cap))
		ck_abort_msg("\"%s\" cap %zu: \"%.*s\", glibc \"%.*s\"", fmt, cap,
		      (int)(r < BUF ? r : BUF), (char *)ours,
		      (int)(r < BUF ? r : BUF), (char *)want);
	compared++;
	return n;
}

/* Compares at a full buffer and at half the text's length. */
static long same(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	long n = compare_at(BUF, err, fmt, ap);
	if (n > 1)
		compare_at((size_t)n / 2, err, fmt, ap);
	va_end(ap);
	return n;
}

/* Compares at every buffer size from 0 to the text's length + 1. */
static long same_every_cap(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	long n = compare_at(BUF, err, fmt, ap);
	if (n == EHS_FORMAT_FALLBACK)
		ck_abort_msg("\"%s\" fell back", fmt);
	ck_assert_msg(n < BUF, "\"%s\": %ld bytes, too long for the test", fmt, n);
	for (size_t cap = 0; cap <= (size_t)n + 1; cap++)
		compare_at(cap, err, fmt, ap);
	va_end(ap);
	return n;
}

START_TEST(edge_values)
{
	same_every_cap(0, "");
	same_every_cap(0, "plain text, no conversion");
	same_every_cap(0, "request %d done in %d ms%s", 12345, 67, "        ");
	same_every_cap(0, "%d %d %d %d", INT_MIN, INT_MAX, 0, -1);
	same_every_cap(0, "%ld %ld %lld %lld", LONG_MIN, LONG_MAX, LLONG_MIN, LLONG_MAX);
	same_every_cap(0, "%ju %jd %jx %jo", UINTMAX_MAX, INTMAX_MIN, UINTMAX_MAX, UINTMAX_MAX);
	same_every_cap(0, "%zu %zd %td %tu", SIZE_MAX, (ssize_t)-1, PTRDIFF_MIN, (ptrdiff_t)-1);
	same_every_cap(0, "%u %x %X %o %#x %#X %#o", UINT_MAX, UINT_MAX, 0xabcdefu, UINT_MAX, 0u, 0u, 0u);
	same_every_cap(0, "%hhd %hhu %hd %hu %hhx %hx", 300, -1, 70000, -1, 511, 0x12345);
	same_every_cap(0, "%.0d|%.0u|%.0x|%#.0x|%#.0o|%.0o|%+.0d|% .0d", 0, 0u, 0u, 0u, 0u, 0u, 0, 0);
	same_every_cap(0, "%5.0d|%-5.0d|%05d|%-05d|%08.3d|%+08d|% 08d", 0, 0, -42, -42, -42, 42, 42);
	same_every_cap(0, "%#08x|%#8x|%#-8x|%#.5x|%#08.5o|%#.3o|%#5o", 255u, 255u, 255u, 1u, 8u, 8u, 0u);
	same_every_cap(0, "%+d % d %+ d %+u % u %+x", 5, 5, 5, 5u, 5u, 5u);
	same_every_cap(0, "[%*d] [%*d] [%-*d] [%*d]", 6, 1, -6, 2, -6, 3, 0, 4);
	same_every_cap(0, "[%.*d] [%.*d] [%.*s] [%.*s]", -1, 0, 3, 7, -5, "abc", 2, "abc");
	same_every_cap(0, "[%*.*s] [%0*.*d]", -8, 3, "abcdef", 9, -2, 17);
	same_every_cap(0, "[%s] [%10s] [%-10s] [%.2s] [%010s]", "abc", "abc", "abc", "abc", "abc");
	same_every_cap(0, "[%s] [%.5s] [%.6s] [%8.3s] [%-8s] [%.0s]",
		       (char *)NULL, (char *)NULL, (char *)NULL, (char *)NULL,
		       (char *)NULL, (char *)NULL);
	same_every_cap(0, "[%c] [%3c] [%-3c] [%03c] [%c]", 'a', 'b', 'c', 'd', 0);
	same_every_cap(0, "[%p] [%20p] [%-20p] [%020p] [%.20p] [%+p] [% p] [%#p]",
		       (void *)0x1234, (void *)0x1234, (void *)0x1234, (void *)0x1234,
		       (void *)0x1234, (void *)0x1234, (void *)0x1234, (void *)0x1234);
	same_every_cap(0, "[%p] [%10p] [%-10p] [%010p] [%.3p] [%+p]", NULL, NULL,
		       NULL, NULL, NULL, NULL);
	same_every_cap(0, "[%p] [%p]", (void *)UINTPTR_MAX, (void *)1);
	same_every_cap(0, "100%% %%d %%%%");
	/* A NUL from %c is part of the text. */
	same_every_cap(0, "a%cb%cc", 0, 0);
}
END_TEST

START_TEST(strerror_text)
{
	static const int errs[] = {
		0, 1, EINVAL, ENOENT, EAGAIN, 133, 134, 200, 4096, -1, -5,
		INT_MAX, INT_MIN,
	};
	for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
		int e = errs[i];
		same_every_cap(e, "%m");
		same_every_cap(e, "open: %m (%d)", 7);
		same_every_cap(e, "[%40m] [%-40m] [%.3m] [%.0m] [%040m] [%*m]", -30);
	}
}
END_TEST

/* The literal text around a conversion at every length on both sides,
 * 0 to 40 bytes: ehs_format copies it in 16-byte blocks while there is
 * room for the rest of the format and 16 bytes more, the last few bytes
 * from the format's last 16 (or byte by byte in a format shorter than
 * that), and by strchrnul and memcpy near the end of the room, which
 * every cap of same_every_cap reaches. */
START_TEST(literal_lengths)
{
	static const char text[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCD";
	char fmt[128];
	for (int before = 0; before <= 40; before++)
		for (int after = 0; after <= 40; after++) {
			snprintf(fmt, sizeof fmt, "%.*s%%d%.*s", before, text, after, text);
			same_every_cap(0, fmt, -1234);
			snprintf(fmt, sizeof fmt, "%.*s%%s%%m%.*s", before, text, after, text);
			same_every_cap(ENOENT, fmt, "x");
		}
	/* Every byte a literal can hold, '%' and NUL apart: those next to
	 * '%' ('$', '&', 0xa5) and those with the top bit set included. */
	char all[256];
	size_t n = 0;
	for (int c = 1; c < 256; c++)
		if (c != '%')
			all[n++] = (char)c;
	all[n] = '\0';
	for (size_t at = 0; at < n; at += 7) {
		snprintf(fmt, sizeof fmt, "%.*s%%d%.20s", (int)(at % 60), all + at, all + n / 2);
		same_every_cap(0, fmt, 5);
	}
}
END_TEST

/* A format in the executable's read-only data gets a plan at its first
 * use, with its pieces as they are; one on the stack or the heap, or
 * with anything but bare conversions, or too many pieces, gets none.
 * The suite's first test: with CK_FORK=no too, fmt is the first format
 * of the process, so its slot is free. */
START_TEST(plans)
{
	static const char fmt[] = "a %d bc%s%%def %m";
	const struct ehs_fmt_plan *p = ehs_format_plan(fmt);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_eq(p->fmt, fmt);
	static const struct ehs_fmt_piece want[] = {
		{ 2, 'd' }, { 3, 's' }, { 0, '%' }, { 4, 'm' }, { 0, '\0' },
	};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		ck_assert_uint_eq(p->piece[k].literal, want[k].literal);
		ck_assert_int_eq(p->piece[k].conv, want[k].conv);
	}
	ck_assert_ptr_eq(ehs_format_plan(fmt), p);

	char stack[sizeof fmt];
	memcpy(stack, fmt, sizeof fmt);
	ck_assert_ptr_null(ehs_format_plan(stack));
	char *heap = strdup(fmt);
	ck_assert_ptr_nonnull(heap);
	ck_assert_ptr_null(ehs_format_plan(heap));
	free(heap);
	static char writable[] = "a %d";
	ck_assert_ptr_null(ehs_format_plan(writable));
	static const char *const none[] = {
		"%5d", "%ld", "%x %d", "%-s", "%", "a%", "%d%d%d%d%d%d%d", "%f",
	};
	for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
		ck_assert_ptr_null(ehs_format_plan(none[k]));
		ck_assert_ptr_null(ehs_format_plan(none[k]));
	}
}
END_TEST

/* Planned formats (literals in read-only data) with a run of every
 * length 0 to 40 before a conversion, and a few after it: the runs are
 * copied in 16-byte blocks while there is room, by length near the end
 * of it, which same_every_cap reaches at every cap. */
START_TEST(planned_runs)
{
#define RUN40 "abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	static const char *const tails[] = {
		RUN40 "%d", RUN40 "%dx", RUN40 "%d" "0123456789abcde",
		RUN40 "%d" "0123456789abcdef", RUN40 "%d" "0123456789abcdefg",
		RUN40 "%d" RUN40,
	};
	for (int before = 0; before <= 40; before++) {
		for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
			same_every_cap(0, tails[t] + (40 - before), -1234);
			same_every_cap(0, tails[t] + (40 - before), INT_MIN);
		}
		static const char strings[] = RUN40 "%s%m|%%|" RUN40;
		same_every_cap(ENOENT, strings + (40 - before), "x");
		same_every_cap(EAGAIN, strings + (40 - before), "");
	}
	/* A planned format's text for other arguments, and a writable format
	 * rewritten between calls at the same address: never a stale plan. */
	static const char two[] = "request %d done in %d ms%s";
	for (int i = -1000; i <= 1000; i += 7)
		same(0, two, i, i * 977, i & 1 ? " odd" : "");
	char *f = malloc(64);
	ck_assert_ptr_nonnull(f);
	strcpy(f, "first %d");
	same(0, f, 1);
	strcpy(f, "%s then %d");
	same(0, f, "second", 2);
	free(f);
#undef RUN40
}
END_TEST

/* A German locale compiled for this test with localedef into dir (glibc
 * ships its translations of the errno texts, but a system may have no
 * compiled locale but C), or NULL, said on stderr, when that cannot be
 * done here. */
static locale_t german(char *dir)
{
	char cmd[256];
	if (!mkdtemp(dir))
		return NULL;
	snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
	locale_t de = NULL;
	if (system(cmd) == 0 && setenv("LOCPATH", dir, 1) == 0) {
		/* glibc's newlocale never frees its copy of LOCPATH's
		 * list: LeakSanitizer would fail the test for glibc. */
#ifdef __SANITIZE_ADDRESS__
		__lsan_disable();
#endif
		de = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
#ifdef __SANITIZE_ADDRESS__
		__lsan_enable();
#endif
	}
	unsetenv("LOCPATH");
	if (!de)
		fprintf(stderr, "strerror_locales: no de_DE.UTF-8 from localedef: "
			"the translated %%m is not checked\n");
	return de;
}

/* %m takes glibc's text without gettext when the thread's messages are
 * the C locale's: the global locale's, or a locale object of the
 * thread's own (uselocale), C or not, each against glibc's own; and in
 * German, where glibc's text is the translation, if the system can
 * compile that locale. */
START_TEST(strerror_locales)
{
	static const int errs[] = { 0, ENOENT, EAGAIN, 133, 134, 4096, -1 };
	locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	locale_t c_utf8 = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
	ck_assert_msg(c && c_utf8, "newlocale: %s", strerror(errno));
	char dir[] = "/tmp/test_format.XXXXXX";
	locale_t de = german(dir);
	if (de)	/* the case means something only if the text is translated */
		ck_assert_str_ne(strerror_l(ENOENT, de), strerror_l(ENOENT, c));
	locale_t each[] = { LC_GLOBAL_LOCALE, c, c_utf8, de };
	for (size_t l = 0; l < sizeof each / sizeof each[0] && each[l]; l++) {
		uselocale(each[l]);
		for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
			same_every_cap(errs[i], "%m");
			same_every_cap(errs[i], "open %s: %m", "/x");
		}
	}
	uselocale(LC_GLOBAL_LOCALE);
	freelocale(c);
	freelocale(c_utf8);
	if (de) {
		freelocale(de);
		char cmd[64];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		ck_assert_int_eq(system(cmd), 0);
	}
}
END_TEST

/* Arguments for the systematic loops, with their exact types. */
enum kind { K_INT, K_LONG, K_LLONG, K_UINT, K_ULONG, K_ULLONG, K_CHAR, K_STR,
	    K_PTR, K_NONE };

union arg {
	long long i;
	unsigned long long u;
	const char *s;
	void *p;
};

#define CALL(T, v) \
	(stars == 0 ? same(err, fmt, (T)(v)) : \
	 stars == 1 ? same(err, fmt, w, (T)(v)) : \
	 stars == 2 ? same(err, fmt, pr, (T)(v)) : same(err, fmt, w, pr, (T)(v)))

/* stars: 1 for a * width, 2 for a * precision, 3 for both. */
static void one(const char *fmt, int stars, int w, int pr, enum kind k,
		union arg v, int err)
{
	switch (k) {
	case K_INT: CALL(int, v.i); break;
	case K_LONG: CALL(long, v.i); break;
	case K_LLONG: CALL(long long, v.i); break;
	case K_UINT: CALL(unsigned, v.u); break;
	case K_ULONG: CALL(unsigned long, v.u); break;
	case K_ULLONG: CALL(unsigned long long, v.u); break;
	case K_CHAR: CALL(int, v.i); break;
	case K_STR: CALL(const char *, v.s); break;
	case K_PTR: CALL(void *, v.p); break;
	case K_NONE:
		if (stars == 0)
			same(err, fmt);
		else if (stars == 1)
			same(err, fmt, w);
		else if (stars == 2)
			same(err, fmt, pr);
		else
			same(err, fmt, w, pr);
		break;
	}
}

/* The type an integer conversion reads for a length modifier. */
static enum kind int_kind(const char *len, int is_signed)
{
	if (!strcmp(len, "ll"))
		return is_signed ? K_LLONG : K_ULLONG;
	if (*len == 'l' || *len == 'z' || *len == 'j' || *len == 't')
		return is_signed ? K_LONG : K_ULONG;
	return is_signed ? K_INT : K_UINT;
}

START_TEST(every_combination)
{
	static const char *const widths[] = { "", "1", "5", "23", "*" };
	static const int star_widths[] = { 0, 7, -7 };
	static const char *const precs[] = { "", ".", ".0", ".1", ".3", ".21", ".*" };
	static const int star_precs[] = { -1, 0, 4 };
	static const char *const lens[] = { "", "hh", "h", "l", "ll", "z", "j", "t" };
	static const long long sv[] = { 0, 1, -1, 42, -42, 127, -128, 255, 32767,
					-32768, 65535, INT_MAX, INT_MIN, 4294967295LL,
					LLONG_MAX, LLONG_MIN };
	static const char *const strs[] = { "", "a", "hello", "longer than twenty-one bytes", NULL };
	static const uintptr_t ptrs[] = { 0, 1, 0x7ffc1234abcd, UINTPTR_MAX };
	static const int errs[] = { 0, ENOENT, 999 };
	static const char convs[] = "diuoxXcspm";

	for (unsigned fl = 0; fl < 32; fl++) {
		char flags[6], *f = flags;
		for (int b = 0; b < 5; b++)
			if (fl & (1u << b))
				*f++ = "-+ #0"[b];
		*f = '\0';
		for (size_t wi = 0; wi < 5; wi++)
		for (size_t pi = 0; pi < 7; pi++)
		for (const char *c = convs; *c; c++)
		for (size_t li = 0; li < 8; li++) {
			int is_int = !strchr("cspm", *c);
			if (!is_int && li)
				continue;	/* lengths on these fall back: below */
			char fmt[64];
			snprintf(fmt, sizeof fmt, "<%%%s%s%s%s%c>", flags, widths[wi],
				 precs[pi], lens[li], *c);
			int stars = (wi == 4) | (pi == 6) << 1;
			size_t nw = wi == 4 ? 3 : 1, np = pi == 6 ? 3 : 1;
			for (size_t a = 0; a < nw; a++)
			for (size_t b = 0; b < np; b++) {
				int w = star_widths[a], pr = star_precs[b];
				union arg v;
				if (is_int) {
					enum kind k = int_kind(lens[li], *c == 'd' || *c == 'i');
					for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++) {
						v.i = sv[i];
						one(fmt, stars, w, pr, k, v, 0);
					}
				} else if (*c == 'c') {
					v.i = 'Z';
					one(fmt, stars, w, pr, K_CHAR, v, 0);
				} else if (*c == 's') {
					for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
						v.s = strs[i];
						one(fmt, stars, w, pr, K_STR, v, 0);
					}
				} else if (*c == 'p') {
					for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) {
						v.p = (void *)ptrs[i];
						one(fmt, stars, w, pr, K_PTR, v, 0);
					}
				} else {
					for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
						one(fmt, stars, w, pr, K_NONE, v, errs[i]);
				}
			}
		}
	}
	/* Everything compared but %#m, which falls back. */
	ck_assert_uint_gt(compared, 200000);
	ck_assert_uint_lt(fell_back, compared / 50);
}
END_TEST

/* Returns whether ehs_format left fmt to vsnprintf. */
static int falls_back(const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	va_start(ap, fmt);
	long n = ehs_format(buf, sizeof buf, fmt, ap, 0);
	va_end(ap);
	return n == EHS_FORMAT_FALLBACK;
}

START_TEST(fallbacks)
{
	static const char *const fmts[] = {
		"%f", "%e", "%g", "%a", "%E", "%G", "%A", "%F", "%Lf", "%n",
		"%hn", "%1$d", "%2$s %1$d", "%*1$d", "%.*1$d", "%ls", "%lc",
		"%hc", "%hs", "%lp", "%lm", "%'d", "%Id", "%qd", "%Zd", "%Ld",
		"%#m", "%5%", "%-%", "%.2%", "%C", "%S", "%b", "%B", "%k", "%y",
		"%hhhd", "%llld", "%", "abc%", "%5", "%-", "%.", "%l",
		"%70000d", "%.70000d", "%99999999999999999999d", "%5-d", "%.-2d",
	};
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
		ck_assert_msg(falls_back(fmts[i], 0, 0, 0),
			      "\"%s\" did not fall back", fmts[i]);
	/* Found late: after arguments already read. */
	ck_assert(falls_back("%d %s %f", 1, "x", 1.0));
	/* A * field past the limit, and INT_MIN, which has no opposite. */
	ck_assert(falls_back("%*d", 70000, 1));
	ck_assert(falls_back("%*d", INT_MIN, 1));
	ck_assert(falls_back("%.*d", 70000, 1));
	/* What stays ours. */
	ck_assert(!falls_back("%*d", -65536, 1));
	ck_assert(!falls_back("%-+ #0*.*lld %hhx %zu %jd %td %c %s %p %m %%",
			      3, 4, 5LL, 6, (size_t)7, (intmax_t)8, (ptrdiff_t)9,
			      'c', "s", NULL));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge format");
	TCase *tc = tcase_create("format");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, plans);
	tcase_add_test(tc, edge_values);
	tcase_add_test(tc, strerror_text);
	tcase_add_test(tc, literal_lengths);
	tcase_add_test(tc, planned_runs);
	tcase_add_test(tc, strerror_locales);
	tcase_add_test(tc, every_combination);
	tcase_add_test(tc, fallbacks);
	suite_add_tcase(s, tc);
	return check_run(s);
}
