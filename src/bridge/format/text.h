/* SPDX-License-Identifier: MIT */
/*
 * Formats a message the way the logging call would, without malloc: into
 * a buffer of EHS_TEXT_STACK bytes the caller lends (a scratch slot,
 * bridge/scratch.h, or its stack), or, for a longer message, into pages
 * mapped for this one call (formatting twice).  The buffer holds every
 * message that fits one event, so only a message to be split is
 * formatted twice.  A format of just "%s", the usual way to log a text
 * built beforehand, is not formatted at all: the text is the argument.
 */
#ifndef EHS_BRIDGE_TEXT_H
#define EHS_BRIDGE_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "bridge/format/format.h"

#define EHS_TEXT_STACK 4096

struct ehs_text {
	const char *p;		/* the text, NUL-terminated: buf, the
				 * mapping, or the argument of a "%s" */
	size_t len;		/* without the NUL */
	size_t map_len;		/* bytes mapped, 0 when p is not mapped */
	char *buf;		/* the caller's EHS_TEXT_STACK bytes */
};

/* The text of a format of just "%s": ap's first argument itself
 * ("(null)" for NULL), its length without trailing newlines in *len.
 * NULL for a text too long for vsnprintf's int, which then goes the
 * usual way to fail there. */
const char *ehs_text_argument(va_list ap, size_t *len);

/* n less the newlines that end s[0..n): they are left out of events. */
static inline size_t ehs_text_trimmed(const char *s, size_t n)
{
	while (n && s[n - 1] == '\n')
		n--;
	return n;
}

/* ehs_text_vformat's work past its inline part, t->buf set: n is what
 * ehs_format answered for that buffer, or EHS_FORMAT_FALLBACK when it
 * was not tried. */
int ehs_text_vformat_rest(struct ehs_text *t, long n, int saved_errno, int errnum,
			  const char *fmt, va_list ap);

/* The text of fmt when it is just "%s": its argument (ehs_text_argument).
 * NULL when fmt is another format, or the argument too long. */
static inline const char *ehs_text_of_percent_s(const char *fmt, va_list ap, size_t *len)
{
	if (fmt[0] == '%' && fmt[1] == 's' && fmt[2] == '\0')
		return ehs_text_argument(ap, len);
	return NULL;
}

/* Whether the formatter's answer n says its text is whole in a buffer
 * of EHS_TEXT_STACK bytes; else ehs_text_vformat_rest has to finish. */
static inline bool ehs_text_fits_stack(long n)
{
	return __builtin_expect(n >= 0 && n < EHS_TEXT_STACK, 1);
}

/*
 * Formats into buf, EHS_TEXT_STACK bytes that stay the caller's while t
 * is used, fmt with ap (ap is not consumed: the function works on copies)
 * as vsnprintf would with errno == saved_errno, so "%m" expands as in the
 * caller (ehs_format for the usual conversions, else vsnprintf).  errno
 * may be changed.  A NULL fmt formats nothing.  When errnum >= 0, ": " and strerror(errnum)
 * follow, or just strerror(errnum) when fmt is NULL (err()/warn() and
 * error() print it that way).  Trailing newlines are left out of len
 * (p's NUL stays where the text ends).  "%s" alone is its argument, not
 * a copy.  Returns 0, or -1 when the text cannot be formatted (t is then
 * empty and needs no ehs_text_free).
 */
static inline __attribute__((always_inline)) int
ehs_text_vformat(struct ehs_text *t, char *buf, int saved_errno, int errnum,
		 const char *fmt, va_list ap)
{
	long n = EHS_FORMAT_FALLBACK;
	t->buf = buf;
	if (__builtin_expect(fmt && errnum < 0, 1)) {
		t->map_len = 0;
		size_t len;
		const char *arg = ehs_text_of_percent_s(fmt, ap, &len);
		if (arg) {
			t->p = arg;
			t->len = len;
			return 0;
		}
		n = ehs_format(buf, EHS_TEXT_STACK, fmt, ap, saved_errno);
		if (ehs_text_fits_stack(n)) {
			t->p = buf;
			t->len = ehs_text_trimmed(buf, (size_t)n);
			return 0;
		}
	}
	return ehs_text_vformat_rest(t, n, saved_errno, errnum, fmt, ap);
}

void ehs_text_unmap(struct ehs_text *t);

/* Releases what ehs_text_vformat mapped. */
static inline void ehs_text_free(struct ehs_text *t)
{
	if (t->map_len)
		ehs_text_unmap(t);
}

#endif
