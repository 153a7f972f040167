/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/format/format.h"
#include "bridge/format/format_inline.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

static inline void pad(struct out *o, char c, size_t n)
{
	if (n && o->len < o->lim) {
		size_t room = o->lim - o->len;
		memset(o->buf + o->len, c, n < room ? n : room);
	}
	o->len += n;
}

/* The same for any v: 32-bit arithmetic once it fits, for cheaper
 * divisions. */
static char *decimal(char *end, unsigned long long v)
{
	while (v > UINT32_MAX) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		end -= 2;
		memcpy(end, pairs + 2 * r, 2);
	}
	return decimal32(end, (uint32_t)v);
}

#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
/* True when this thread's messages are the C locale's: then glibc's
 * message catalogs translate nothing (its gettext does not even read
 * LANGUAGE there), and strerror_r's text is strerrordesc_np's.  The
 * locale's name as glibc keeps it: uselocale's object for a thread
 * that has one, else the global locale's, which setlocale with NULL
 * only reads. */
static bool messages_untranslated(void)
{
	locale_t l = uselocale((locale_t)0);
	const char *name = l == LC_GLOBAL_LOCALE ? setlocale(LC_MESSAGES, NULL)
						 : l->__names[LC_MESSAGES];
	return name && name[0] == 'C' && name[1] == '\0';
}
#endif

/* What glibc's %m writes for e: strerror_r's text (msg, of size, holds
 * it for an unknown e).  Without a translation to look up, the text is
 * taken straight from glibc's table: gettext costs hundreds of
 * instructions and two lock operations even to translate nothing. */
const char *ehs_format_errno_text(int e, char *msg, size_t size)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
	if (messages_untranslated()) {
		const char *s = strerrordesc_np(e);
		if (s)
			return s;
	}
#endif
	int keep = errno;
	/* The GNU strerror_r, the function glibc's %m calls. */
	const char *s = strerror_r(e, msg, size);
	errno = keep;
	return s;
}

enum {
	F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16,
};

/* A string field: what %s, %c, %m and %p's "(nil)" share (glibc pads
 * them with spaces whatever the 0 flag says). */
static inline void put_field(struct out *o, const char *s, size_t n,
			     unsigned flags, size_t width)
{
	size_t fill = width > n ? width - n : 0;
	if (!(flags & F_LEFT))
		pad(o, ' ', fill);
	put(o, s, n);
	if (flags & F_LEFT)
		pad(o, ' ', fill);
}

/*
 * An integer field: [spaces][sign or 0x][zeros][digits][spaces].  neg is
 * the sign of a signed conversion; prec < 0 means none given.
 */
static void put_int(struct out *o, unsigned long long v, int neg, char conv,
		    unsigned flags, size_t width, int prec)
{
	char digits[24];	/* 64 bits in octal: 22 */
	char *end = digits + sizeof digits, *d = end;
	switch (conv) {
	case 'o':
		while (v) {
			*--d = (char)('0' + (v & 7));
			v >>= 3;
		}
		break;
	case 'x':
	case 'X': {
		const char *hex = conv == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
		while (v) {
			*--d = hex[v & 15];
			v >>= 4;
		}
		break;
	}
	default:
		if (v)
			d = decimal(end, v);
	}
	int zero_value = d == end;
	if (zero_value && prec != 0)
		*--d = '0';	/* 0 prints as "0", except with precision 0 */
	size_t ndig = (size_t)(end - d);

	char prefix[3];	/* sign, 0x */
	size_t nprefix = 0;
	if (neg)
		prefix[nprefix++] = '-';
	else if (flags & F_PLUS)
		prefix[nprefix++] = '+';
	else if (flags & F_SPACE)
		prefix[nprefix++] = ' ';
	if ((flags & F_ALT) && !zero_value && (conv == 'x' || conv == 'X')) {
		prefix[nprefix++] = '0';
		prefix[nprefix++] = conv;
	}

	size_t zeros = prec > 0 && (size_t)prec > ndig ? (size_t)prec - ndig : 0;
	/* %#o: a leading 0, unless the digits already start with one. */
	if (conv == 'o' && (flags & F_ALT) && !zeros && (ndig == 0 || *d != '0'))
		zeros = 1;
	size_t body = nprefix + zeros + ndig;
	if ((flags & (F_ZERO | F_LEFT)) == F_ZERO && prec < 0 && width > body) {
		zeros += width - body;
		body = width;
	}
	size_t fill = width > body ? width - body : 0;
	if (!(flags & F_LEFT))
		pad(o, ' ', fill);
	if (nprefix)
		put(o, prefix, nprefix);
	pad(o, '0', zeros);
	put(o, d, ndig);
	if (flags & F_LEFT)
		pad(o, ' ', fill);
}

/* Digits of a width or precision; -1 past EHS_FORMAT_MAX_FIELD. */
static int read_num(const char **pp)
{
	const char *p = *pp;
	long n = 0;
	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (*p++ - '0');
		if (n > EHS_FORMAT_MAX_FIELD)
			return -1;
	}
	*pp = p;
	return (int)n;
}

enum len { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_J, L_T };

/*
 * The conversion at p, past its '%', in full: flags, width, precision,
 * length and conversion.  Out of line, apart from the bare conversions
 * format_args writes itself: those keep their loop's registers to
 * themselves.  Returns where the conversion ends, or NULL for a format
 * left to vsnprintf.
 */
__attribute__((noinline)) const char *ehs_format_convert(struct out *o, const char *p,
							va_list *ap, int saved_errno)
{
	char msg[EHS_FORMAT_MSG];	/* strerror_r's, for an unknown errno */

	/* Flags, *, digits and . all sort before '9', conversions
	 * and lengths after: a plain %d skips all this at once. */
	unsigned flags = 0;
	long width = 0;
	int prec = -1;
	if (*p <= '9') {
		for (;; p++) {
			if (*p == '-')
				flags |= F_LEFT;
			else if (*p == '+')
				flags |= F_PLUS;
			else if (*p == ' ')
				flags |= F_SPACE;
			else if (*p == '#')
				flags |= F_ALT;
			else if (*p == '0')
				flags |= F_ZERO;
			else
				break;
		}

		if (*p == '*') {
			p++;
			if (*p >= '0' && *p <= '9')
				return NULL;	/* *N$ */
			width = va_arg(*ap, int);
			if (width < 0) {	/* a negative width is a - flag */
				flags |= F_LEFT;
				width = -width;
			}
			if (width > EHS_FORMAT_MAX_FIELD)
				return NULL;
		} else if (*p >= '1' && *p <= '9') {
			width = read_num(&p);
			if (width < 0 || *p == '$')	/* huge, or N$ */
				return NULL;
		}

		if (*p == '.') {
			p++;
			if (*p == '*') {
				p++;
				if (*p >= '0' && *p <= '9')
					return NULL;
				prec = va_arg(*ap, int);
				if (prec < 0)	/* a negative precision is none */
					prec = -1;
				if (prec > EHS_FORMAT_MAX_FIELD)
					return NULL;
			} else {
				prec = read_num(&p);
				if (prec < 0)
					return NULL;
			}
		}
	}

	enum len len = L_NONE;
	switch (*p) {
	case 'h':
		p++;
		len = L_H;
		if (*p == 'h') {
			p++;
			len = L_HH;
		}
		break;
	case 'l':
		p++;
		len = L_L;
		if (*p == 'l') {
			p++;
			len = L_LL;
		}
		break;
	case 'z':
		p++;
		len = L_Z;
		break;
	case 'j':
		p++;
		len = L_J;
		break;
	case 't':
		p++;
		len = L_T;
		break;
	}

	/* Each conversion ends in one of two writers, an integer field
	 * or a string field: one call site each, so both inline. */
	char conv = *p++, c;
	unsigned long long v;
	int neg = 0;
	const char *s;
	size_t n;
	switch (conv) {
	case 'd':
	case 'i': {
		long long sv;
		switch (len) {
		case L_HH: sv = (signed char)va_arg(*ap, int); break;
		case L_H: sv = (short)va_arg(*ap, int); break;
		case L_L: sv = va_arg(*ap, long); break;
		case L_LL: sv = va_arg(*ap, long long); break;
		case L_Z: sv = va_arg(*ap, ssize_t); break;
		case L_J: sv = va_arg(*ap, intmax_t); break;
		case L_T: sv = va_arg(*ap, ptrdiff_t); break;
		default: sv = va_arg(*ap, int); break;
		}
		neg = sv < 0;
		v = (unsigned long long)sv;
		if (neg)
			v = 0 - v;	/* LLONG_MIN included */
		if (!(flags | (unsigned long)width) && prec < 0) {
			/* the plain %d, most of them: sign and digits */
			char digits[24];
			char *end = digits + sizeof digits, *d = decimal(end, v);
			if (neg)
				*--d = '-';
			put(o, d, (size_t)(end - d));
			return p;
		}
		conv = 'd';
		goto integer;
	}
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		switch (len) {
		case L_HH: v = (unsigned char)va_arg(*ap, unsigned); break;
		case L_H: v = (unsigned short)va_arg(*ap, unsigned); break;
		case L_L: v = va_arg(*ap, unsigned long); break;
		case L_LL: v = va_arg(*ap, unsigned long long); break;
		case L_Z: v = va_arg(*ap, size_t); break;
		case L_J: v = va_arg(*ap, uintmax_t); break;
		case L_T: v = (unsigned long long)va_arg(*ap, ptrdiff_t); break;
		default: v = va_arg(*ap, unsigned); break;
		}
		/* glibc ignores + and space on unsigned conversions */
		flags &= ~(unsigned)(F_PLUS | F_SPACE);
		goto integer;
	case 'c':
		if (len != L_NONE)
			return NULL;	/* %lc, and the odd %hc */
		c = (char)va_arg(*ap, int);
		s = &c;
		n = 1;
		goto field;
	case 's':
		if (len != L_NONE)
			return NULL;	/* %ls */
		s = va_arg(*ap, const char *);
		if (!s)	/* glibc: "(null)" if the precision allows, else nothing */
			s = prec < 0 || prec >= 6 ? "(null)" : "";
		break;
	case 'p': {
		if (len != L_NONE)
			return NULL;
		const void *ptr = va_arg(*ap, const void *);
		if (ptr) {	/* glibc: %#lx, with + and space kept */
			v = (uintptr_t)ptr;
			conv = 'x';
			flags |= F_ALT;
			goto integer;
		}
		s = "(nil)";
		n = 5;
		goto field;
	}
	case 'm': {
		/* %#m is glibc's errno name: left to it */
		if (len != L_NONE || (flags & F_ALT))
			return NULL;
		s = ehs_format_errno_text(saved_errno, msg, sizeof msg);
		break;
	}
	default:
		return NULL;
	}
	/* %s, %m */
	n = prec < 0 ? strlen(s) : strnlen(s, (size_t)prec);
field:
	put_field(o, s, n, flags, (size_t)width);
	return p;
integer:
	put_int(o, v, neg, conv, flags, (size_t)width, prec);
	return p;
}


long ehs_format(char *buf, size_t cap, const char *fmt, va_list ap,
		int saved_errno)
{
	va_list copy;
	va_copy(copy, ap);
	long n = ehs_format_inline(buf, cap, fmt, &copy, saved_errno);
	va_end(copy);
	return n;
}
