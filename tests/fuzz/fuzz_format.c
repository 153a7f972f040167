/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: ehs_format against glibc's vsnprintf.  The input
 * drives a generator of a format and its arguments: literal text, and
 * conversions with random flags (repeated, in any order), width and
 * precision (digits or *), length and conversion, most of them in the
 * supported set, some not.  A format with anything unsupported must fall
 * back (and is never given to vsnprintf: it may hold %n); any other must
 * not, and must give vsnprintf's length and bytes at a random buffer
 * size, with errno untouched.  Any difference aborts.
 *
 * Every argument is passed as a uintptr_t: on x86-64 and the other
 * 64-bit ABIs glibc runs on, an int, a long or a pointer read with
 * va_arg from such a slot reads the same bits in both implementations,
 * so one call site serves every type.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/format/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 16
#define OUT 65536

struct input {
	const uint8_t *p, *end;
};

static unsigned next(struct input *in)
{
	return in->p < in->end ? *in->p++ : 0;
}

static uint64_t next64(struct input *in)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | next(in);
	return v;
}

static char fmt[1024];
static size_t flen;
static uintptr_t args[MAX_ARGS];
static size_t nargs;
static char text[256];	/* a string argument cut from the input */
static char long_text[600];

static void add(const char *s)
{
	size_t n = strlen(s);
	if (flen + n < sizeof fmt) {
		memcpy(fmt + flen, s, n);
		flen += n;
		fmt[flen] = '\0';
	}
}

static const char *const strings[] = { "", "a", "hello, world", "%d %s %n", long_text, NULL, text };

/* An integer as glibc would get it: interesting values more often. */
static uintptr_t number(struct input *in)
{
	static const uint64_t edges[] = {
		0, 1, UINT64_MAX, 0x7fffffff, 0x80000000, 0xffffffff, 0x7fffffffffffffff,
		0x8000000000000000, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
	};
	unsigned k = next(in);
	if (k < 128)
		return (uintptr_t)edges[k % 16];
	return (uintptr_t)next64(in);
}

/* A width or precision: where the output changes most, around the
 * length of the text, more often than large ones. */
static unsigned small(struct input *in)
{
	unsigned k = next(in);
	return k & 1 ? (k >> 1) % 9 : (k >> 1) % 40;
}

/* A * argument: small ones of both signs more often. */
static int star(struct input *in)
{
	unsigned k = next(in);
	if (k & 1)
		return (int)((k >> 1) % 19) - 9;
	return (int)(k | next(in) << 8) % 700 - 350;
}

/* Appends one conversion; returns 1 when it is outside the supported set. */
static int conversion(struct input *in)
{
	int unsupported = 0;
	char spec[64];
	size_t n = 0;
	spec[n++] = '%';

	unsigned k = next(in);
	if (k < 8) {	/* plain %% */
		add("%%");
		return 0;
	}
	/* flags: up to 5, any order, repeats */
	unsigned nflags = next(in) % 6;
	for (unsigned i = 0; i < nflags; i++)
		spec[n++] = "-+ #0"[next(in) % 5];
	if (next(in) < 6) {	/* glibc's ' and I flags */
		spec[n++] = next(in) & 1 ? '\'' : 'I';
		unsupported = 1;
	}
	/* width */
	int star_w = 0, star_p = 0;
	switch (next(in) % 5) {
	case 1:
		n += (size_t)snprintf(spec + n, 8, "%u", 1 + small(in));
		break;
	case 2:
		n += (size_t)snprintf(spec + n, 8, "%u", next(in) * 4);
		break;
	case 3:
		spec[n++] = '*';
		star_w = 1;
		break;
	}
	/* precision */
	switch (next(in) % 6) {
	case 1:
		spec[n++] = '.';
		break;
	case 2:
		n += (size_t)snprintf(spec + n, 8, ".%u", small(in));
		break;
	case 3:
		spec[n++] = '.';
		spec[n++] = '*';
		star_p = 1;
		break;
	}
	/* length */
	static const char *const lens[] = { "", "", "", "hh", "h", "l", "ll", "z", "j", "t",
					    "q", "L", "Z", "lll", "hhh" };
	unsigned li = next(in) % 15;
	if (li >= 10)
		unsupported = 1;
	/* conversion */
	static const char supported[] = "diuoxXcspm";
	static const char others[] = "feEgGaAnCSbk%";
	char c;
	if (next(in) < 232) {
		c = supported[next(in) % (sizeof supported - 1)];
		if (*lens[li] && strchr("cspm", c))
			unsupported = 1;	/* %ls, %lc, %hhp...: glibc's */
		if (c == 'm' && memchr(spec, '#', n))
			unsupported = 1;	/* %#m: the errno's name */
	} else {
		c = others[next(in) % (sizeof others - 1)];
		/* all but a bare %%: ours */
		if (c != '%' || n > 1 || *lens[li])
			unsupported = 1;
	}
	size_t ll = strlen(lens[li]);
	memcpy(spec + n, lens[li], ll);
	n += ll;
	spec[n++] = c;
	spec[n] = '\0';

	size_t need = (size_t)star_w + (size_t)star_p + (c != 'm' && c != '%');
	if (nargs + need > MAX_ARGS)
		return -1;	/* no room left: stop here */
	add(spec);
	if (star_w)
		args[nargs++] = (uintptr_t)(intptr_t)star(in);
	if (star_p)
		args[nargs++] = (uintptr_t)(intptr_t)star(in);
	if (c == 's')
		args[nargs++] = (uintptr_t)strings[next(in) % 7];
	else if (c != 'm' && c != '%')
		args[nargs++] = number(in);
	return unsupported;
}

static long ours(char *buf, size_t cap, int err, ...)
{
	va_list ap;
	va_start(ap, err);
	long n = ehs_format(buf, cap, fmt, ap, err);
	va_end(ap);
	return n;
}

static int glibc(char *buf, size_t cap, int err, ...)
{
	va_list ap;
	va_start(ap, err);
	errno = err;
	int n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}

static void fail(const char *what, size_t cap, int err, long n, int r)
{
	fprintf(stderr, "format \"%s\" cap %zu errno %d: %s (ours %ld, glibc %d)\n",
		fmt, cap, err, what, n, r);
	abort();
}

#define ARGS(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], \
	a[10], a[11], a[12], a[13], a[14], a[15]

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char a[OUT + 16], b[OUT + 16];
	struct input in = { data, data + size };

	memset(long_text, 'x', sizeof long_text - 1);
	flen = 0;
	fmt[0] = '\0';
	nargs = 0;
	memset(args, 0, sizeof args);

	size_t tl = next(&in) % sizeof text;
	for (size_t i = 0; i < tl; i++)
		text[i] = (char)(next(&in) | 1);	/* no NUL inside */
	text[tl] = '\0';
	int err = (int)(next(&in) | next(&in) << 8);
	if (err & 0x8000)
		err = -(err & 0x7fff);
	else if (err > 4000)
		err = (int)(err % 140);

	int unsupported = 0;
	while (in.p < in.end && flen < sizeof fmt - 80) {
		unsigned k = next(&in);
		if (k < 96) {	/* literal text: any byte but % and NUL */
			char lit[16];
			size_t n = 1 + k % 15;
			for (size_t i = 0; i < n; i++) {
				char c = (char)next(&in);
				lit[i] = c == '%' || !c ? 'z' : c;
			}
			lit[n] = '\0';
			add(lit);
		} else {
			int r = conversion(&in);
			if (r < 0)
				break;
			unsupported |= r;
		}
	}
	size_t cap = next(&in) < 128 ? OUT : next(&in) | next(&in) << 8;

	memset(a, 0xa5, sizeof a);
	memset(b, 0xa5, sizeof b);
	errno = 1234;
	long n = ours(a, cap, err, ARGS(args));
	if (errno != 1234)
		fail("errno changed", cap, err, n, 0);
	if (unsupported) {
		if (n != EHS_FORMAT_FALLBACK)
			fail("did not fall back", cap, err, n, 0);
		return 0;
	}
	if (n == EHS_FORMAT_FALLBACK)
		fail("fell back", cap, err, n, 0);
	int r = glibc(b, cap, err, ARGS(args));
	/* The text and its NUL as glibc's, nothing written from cap on;
	 * the bytes between the two are ehs_format's scratch (format.h). */
	size_t kept = cap == 0 ? 0 : ((size_t)r < cap - 1 ? (size_t)r : cap - 1) + 1;
	if (n != r || memcmp(a, b, kept) != 0 ||
	    (cap < sizeof a && memcmp(a + cap, b + cap, sizeof a - cap) != 0))
		fail("differs from glibc", cap, err, n, r);
	return 0;
}
