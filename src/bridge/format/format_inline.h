/* SPDX-License-Identifier: MIT */
/*
 * The formatter's hot core, inline: the literal runs, the bare
 * conversions (%d %s %m %%) and the loops over a format, with a plan
 * (format_plan.h) and without.  format.c makes ehs_format of it; the
 * syslog event's path (bridge/emit_inline.h) formats with it in its own
 * frame, which saves a call and a frame per traced message.  Everything
 * else a format may hold is format.c's, out of line (ehs_format_convert).
 * Its names are the formatter's own: only format.c and
 * bridge/emit_inline.h include it.
 */
#ifndef EHS_BRIDGE_FORMAT_INLINE_H
#define EHS_BRIDGE_FORMAT_INLINE_H

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "bridge/format/format.h"
#include "bridge/format/format_plan.h"
#include "common/hidden.h"

/* Literal text is searched for '%' 16 bytes at a time where the machine
 * has 16-byte vectors: load16, store16, and percent_mask, whose bit
 * MASK_BITS * i is set when the i-th byte is '%'.  Elsewhere every
 * literal takes strchrnul. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define VECTOR_SCAN 1
#define MASK_BITS 1
typedef __m128i bytes16;
static inline bytes16 load16(const char *s) { return _mm_loadu_si128((const __m128i *)s); }
static inline void store16(char *d, bytes16 v) { _mm_storeu_si128((__m128i *)d, v); }
static inline uint64_t percent_mask(bytes16 v)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('%')));
}
#elif defined(__ARM_NEON) && defined(__AARCH64EL__)
#include <arm_neon.h>
#define VECTOR_SCAN 1
#define MASK_BITS 4	/* the comparison narrowed to a nibble per byte */
typedef uint8x16_t bytes16;
static inline bytes16 load16(const char *s) { return vld1q_u8((const uint8_t *)s); }
static inline void store16(char *d, bytes16 v) { vst1q_u8((uint8_t *)d, v); }
static inline uint64_t percent_mask(bytes16 v)
{
	uint16x8_t eq = vreinterpretq_u16_u8(vceqq_u8(v, vdupq_n_u8('%')));
	return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(eq, 4)), 0);
}
#endif

#if defined(__SANITIZE_ADDRESS__)
#define EHS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EHS_ASAN 1
#endif
#endif

/* strerror_r's room for %m's text of an unknown errno. */
#define EHS_FORMAT_MSG 128

/* Where the text goes: bytes past lim are counted, not written. */
struct out {
	char *buf;
	size_t lim;		/* cap - 1 */
	size_t len;		/* the whole text's length so far */
};

/* n bytes from s to d, n <= 16, inline: most pieces of a log line are
 * that short, and a call to memcpy costs more than the copy.  The two
 * loads may overlap; neither reads outside s[0..n). */
static inline void copy_short(char *d, const char *s, size_t n)
{
	if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n >= 2) {
		uint16_t a, b;
		memcpy(&a, s, 2);
		memcpy(&b, s + n - 2, 2);
		memcpy(d, &a, 2);
		memcpy(d + n - 2, &b, 2);
	} else if (n) {
		*d = *s;
	}
}

static inline void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->lim) {
		size_t room = o->lim - o->len;
		size_t k = n < room ? n : room;
		if (k <= 16)
			copy_short(o->buf + o->len, s, k);
		else
			memcpy(o->buf + o->len, s, k);
	}
	o->len += n;
}

/* "00" to "99": decimal digits two at a time, half the divisions. */
static const char pairs[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Writes w in decimal, the digits ending at end; returns where they
 * start.  0 is "0". */
static inline __attribute__((always_inline)) char *decimal32(char *end, uint32_t w)
{
	while (w >= 100) {
		uint32_t q = w / 100;	/* a multiply; the remainder from it */
		end -= 2;
		memcpy(end, pairs + 2 * (size_t)(w - 100 * q), 2);
		w = q;
	}
	if (w >= 10) {
		end -= 2;
		memcpy(end, pairs + 2 * (size_t)w, 2);
	} else {
		*--end = (char)('0' + w);
	}
	return end;
}

#ifdef VECTOR_SCAN
/* The index of the first '%' a nonzero percent_mask shows. */
static inline unsigned first_percent(uint64_t m)
{
	return (unsigned)__builtin_ctzll(m) / MASK_BITS;
}
#endif

/* Copies the text from p up to the next % or the end of the format
 * fmt, fend (its NUL); returns where it stopped. */
static inline __attribute__((always_inline)) const char *
literal(struct out *o, const char *p, const char *fmt, const char *fend)
{
	size_t left = (size_t)(fend - p);
	if (!left || *p == '%')	/* the end, back-to-back conversions */
		return p;
#ifdef VECTOR_SCAN
	/* With room for the rest of the format and 16 bytes more, the text
	 * is copied 16 bytes at a time as it is searched, every load inside
	 * the format: one pass, no call.  One index for both sides keeps
	 * the loop at a load, a store, the search and the count. */
	if (o->len + left + 16 <= o->lim) {
		char *d = o->buf + o->len;
		size_t i = 0;
		uint64_t m;
		if (left >= 16) {
			size_t last = left - 16;
			do {
				bytes16 v = load16(p + i);
				store16(d + i, v);
				m = percent_mask(v);
				if (m)
					goto found;
				i += 16;
			} while (i < last);
			/* The last 16 bytes, as a block that may overlap the
			 * one before (or be it, for a text of 16): bytes
			 * searched already hold no '%', and are stored again
			 * as they were. */
			i = last;
			bytes16 v = load16(p + i);
			store16(d + i, v);
			m = percent_mask(v);
			if (m)
				goto found;
			i = left;
			goto done;
found:
			i += first_percent(m);
		} else if (fend - fmt >= 16) {
			/* A text shorter than 16 bytes, as the top of the
			 * format's last 16, with the bits of the bytes before
			 * it shifted out.  That block starts in the output
			 * before the text, so only the text's bytes go. */
			m = percent_mask(load16(fend - 16)) >> (MASK_BITS * (16 - left));
			i = m ? first_percent(m) : left;
			copy_short(d, p, i);
		} else {	/* a format shorter than 16 bytes */
			while (i < left && p[i] != '%') {
				d[i] = p[i];
				i++;
			}
		}
done:
		o->len += i;
		return p + i;
	}
#else
	(void)fmt;
#endif
	/* Near the end of the room, or without vectors: strchrnul and memcpy
	 * beat a byte loop from about 4 bytes on. */
	const char *pct = strchrnul(p + 1, '%');
	put(o, p, (size_t)(pct - p));
	return pct;
}

/* format.c's, out of line: what glibc's %m writes for e (msg, of size,
 * holds it for an unknown e), and any conversion but the bare ones, at
 * p past its '%' (returns where it ends, or NULL for a format left to
 * vsnprintf). */
EHS_HIDDEN const char *ehs_format_errno_text(int e, char *msg, size_t size);
EHS_HIDDEN const char *ehs_format_convert(struct out *o, const char *p, va_list *ap,
					  int saved_errno);

/* A bare conversion's text, c one of d s m %, for its argument: most of
 * the conversions in log lines, past the general parsing of convert.
 * Returns the text and sets *n to its length; %d's digits go into
 * digits, ending 16 bytes in, %m's unknown errno into msg. */
static inline __attribute__((always_inline)) const char *
bare_text(char c, va_list *ap, int saved_errno, char digits[16], char msg[EHS_FORMAT_MSG],
	  size_t *n)
{
	const char *s;
	if (c == 'd') {
		int sv = va_arg(*ap, int);
		uint32_t w = sv < 0 ? 0 - (uint32_t)sv : (uint32_t)sv;
		char *end = digits + 16, *d = decimal32(end, w);	/* 11 at most */
		if (sv < 0)
			*--d = '-';
		*n = (size_t)(end - d);
		return d;
	}
	if (c == 's') {
		s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
	} else if (c == 'm') {
		s = ehs_format_errno_text(saved_errno, msg, EHS_FORMAT_MSG);
	} else {
		*n = 1;
		return "%";
	}
	*n = strlen(s);
	return s;
}

/* The same, written to o. */
static inline __attribute__((always_inline)) void
put_bare(struct out *o, char c, va_list *ap, int saved_errno)
{
	/* 16 bytes can be read from wherever the digits start */
	char digits[32], msg[EHS_FORMAT_MSG];
	size_t n;
	const char *s = bare_text(c, ap, saved_errno, digits, msg, &n);
	if (c == 'd' && o->len + 16 <= o->lim) {	/* one 16-byte copy */
		memcpy(o->buf + o->len, s, 16);
		o->len += n;
	} else {
		put(o, s, n);
	}
}

/* The output for buf[0..cap).  With no room at all the text is still
 * counted, into *none: the NUL at the end then needs no test. */
static inline struct out out_start(char *buf, size_t cap, char *none)
{
	if (!cap)
		return (struct out){ none, 0, 0 };
	return (struct out){ buf, cap - 1, 0 };
}

/* The end of the text: its NUL, and its length.  (len cannot wrap: each
 * conversion adds at most a field or a string's length.) */
static inline long finish(struct out *o)
{
	/* vsnprintf's EOVERFLOW: left to it. */
	if (o->len > INT_MAX)
		return EHS_FORMAT_FALLBACK;
	o->buf[o->len < o->lim ? o->len : o->lim] = '\0';
	return (long)o->len;
}

/* ehs_format's work, on its copy of the arguments. */
static inline __attribute__((always_inline)) long
format_args(char *buf, size_t cap, const char *fmt, va_list *ap, int saved_errno)
{
	char none;
	struct out o = out_start(buf, cap, &none);
	const char *p = fmt, *fend = fmt + strlen(fmt);

	for (;;) {
		p = literal(&o, p, fmt, fend);
		if (p == fend)
			break;
		char c = *++p;
		if (c == 'd' || c == 's' || c == 'm' || c == '%') {
			p++;
			put_bare(&o, c, ap, saved_errno);
			continue;
		}

		/* Anything else: the general parsing, on a copy of o, whose
		 * address would keep it out of registers here. */
		struct out general = o;
		p = ehs_format_convert(&general, p, ap, saved_errno);
		if (!p)
			return EHS_FORMAT_FALLBACK;
		o = general;
	}
	return finish(&o);
}

/* A planned format's literal run, n bytes at p.  A plan's format lies in
 * the executable's read-only data, with 16 readable bytes past its NUL
 * (format_plan.h): a run is copied in whole 16-byte blocks, reading and
 * writing up to 15 bytes past it (they are written again or lie past the
 * NUL).  Under AddressSanitizer, whose red zones after each literal those
 * reads would cross, by its length instead. */
static inline void put_literal(struct out *o, const char *p, size_t n)
{
#if defined(VECTOR_SCAN) && !defined(EHS_ASAN)
	if (__builtin_expect(o->len + n + 15 <= o->lim, 1)) {
		char *d = o->buf + o->len;
		/* The first block whatever n, most runs being shorter: as a
		 * plain loop, gcc makes the whole a call to memcpy. */
		store16(d, load16(p));
		for (size_t i = 16; i < n; i += 16)
			store16(d + i, load16(p + i));
		o->len += n;
		return;
	}
#endif
	if (n)
		put(o, p, n);
}

/* The same as format_args, for a format with a plan: its literal runs
 * copied by their known lengths, no search. */
static inline __attribute__((always_inline)) long
format_planned(char *buf, size_t cap, const char *fmt, const struct ehs_fmt_plan *plan,
	       va_list *ap, int saved_errno)
{
	char none;
	struct out o = out_start(buf, cap, &none);
	const char *p = fmt;

	for (const struct ehs_fmt_piece *piece = plan->piece;; piece++) {
		size_t n = piece->literal;
		put_literal(&o, p, n);
		if (!piece->conv)
			break;
		put_bare(&o, piece->conv, ap, saved_errno);
		p += n + 2;
	}
	return finish(&o);
}

/* The most parts a planned format's text has (format_parts). */
#define EHS_FMT_PARTS (2 * EHS_FMT_PIECES)

/* Room for the texts of a planned format's conversions (format_parts):
 * each %d's digits in 16 bytes of their own, %m's text for an unknown
 * errno (the same for every %m of a call). */
struct ehs_fmt_room {
	char digits[EHS_FMT_PIECES][16];
	char msg[EHS_FORMAT_MSG];
};

/* A planned format's text, with *ap, as parts for a writer that gathers
 * them, copied nowhere: the literal runs where they lie in the format
 * (read-only data, format_plan.h), each conversion's text where
 * bare_text leaves it (its argument, a constant, or room).  parts has
 * EHS_FMT_PARTS entries.  Trailing newlines are left out, as
 * ehs_text_trimmed leaves them out of a formatted text.  Returns the
 * number of parts, the text's length in *len. */
static inline __attribute__((always_inline)) size_t
format_parts(const char *fmt, const struct ehs_fmt_plan *plan, va_list *ap, int saved_errno,
	     struct iovec *parts, struct ehs_fmt_room *room, size_t *len)
{
	size_t n = 0, total = 0;
	const char *p = fmt;
	for (const struct ehs_fmt_piece *piece = plan->piece;; piece++) {
		size_t k = piece->literal;
		parts[n++] = (struct iovec){ (void *)p, k };
		total += k;
		if (!piece->conv)
			break;
		size_t t;
		const char *s = bare_text(piece->conv, ap, saved_errno,
					  room->digits[piece - plan->piece], room->msg, &t);
		parts[n++] = (struct iovec){ (void *)s, t };
		total += t;
		p += k + 2;
	}
	/* The trailing newlines, from the last part back. */
	while (n) {
		const char *b = parts[n - 1].iov_base;
		size_t k = parts[n - 1].iov_len;
		while (k && b[k - 1] == '\n')
			k--;
		total -= parts[n - 1].iov_len - k;
		parts[n - 1].iov_len = k;
		if (k)
			break;
		n--;
	}
	*len = total;
	return n;
}

/* ehs_format's work, on the arguments at *ap (a copy the caller made:
 * va_copy cannot be inlined), for fmt's plan or NULL
 * (ehs_format_plan's answer). */
static inline __attribute__((always_inline)) long
ehs_format_inline_plan(char *buf, size_t cap, const char *fmt, const struct ehs_fmt_plan *plan,
		       va_list *ap, int saved_errno)
{
	return plan ? format_planned(buf, cap, fmt, plan, ap, saved_errno)
		    : format_args(buf, cap, fmt, ap, saved_errno);
}

/* The same, fmt's plan looked up here. */
static inline __attribute__((always_inline)) long
ehs_format_inline(char *buf, size_t cap, const char *fmt, va_list *ap, int saved_errno)
{
	return ehs_format_inline_plan(buf, cap, fmt, ehs_format_plan(fmt), ap, saved_errno);
}

#endif
