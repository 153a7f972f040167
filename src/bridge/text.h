/* SPDX-License-Identifier: MIT */
/*
 * Formats a message the way the logging call would, without malloc: into
 * a buffer on the caller's stack, or, for a longer message, into pages
 * mapped for this one call (formatting twice).  The buffer holds every
 * message that fits one event, so only a message to be split is
 * formatted twice.
 */
#ifndef EHS_BRIDGE_TEXT_H
#define EHS_BRIDGE_TEXT_H

#include <stdarg.h>
#include <stddef.h>

#include "bridge/format.h"

#define EHS_TEXT_STACK 4096

struct ehs_text {
	char *p;		/* the text, NUL-terminated */
	size_t len;		/* without the NUL */
	size_t map_len;		/* bytes mapped, 0 when p is stack */
	char stack[EHS_TEXT_STACK];
};

/* ehs_text_vformat's work past its inline part: n is what ehs_format
 * answered for the stack buffer, or EHS_FORMAT_FALLBACK when it was not
 * tried. */
int ehs_text_vformat_rest(struct ehs_text *t, long n, int saved_errno, int errnum,
			  const char *fmt, va_list ap);

/*
 * Formats fmt with ap (ap is not consumed: the function works on copies)
 * as vsnprintf would with errno == saved_errno, so "%m" expands as in the
 * caller (ehs_format for the usual conversions, else vsnprintf).  errno
 * may be changed.  A NULL fmt formats nothing.  When errnum >= 0, ": " and strerror(errnum)
 * follow, or just strerror(errnum) when fmt is NULL (err()/warn() and
 * error() print it that way).  Trailing newlines are dropped.  Returns 0,
 * or -1 when the text cannot be formatted (t is then empty and needs no
 * ehs_text_free).  Inline for syslog's case, one format that ehs_format
 * takes and whose text fits the stack: a call less per traced message.
 */
static inline __attribute__((always_inline)) int
ehs_text_vformat(struct ehs_text *t, int saved_errno, int errnum,
		 const char *fmt, va_list ap)
{
	long n = EHS_FORMAT_FALLBACK;
	if (__builtin_expect(fmt && errnum < 0, 1)) {
		n = ehs_format(t->stack, sizeof t->stack, fmt, ap, saved_errno);
		if (__builtin_expect(n >= 0 && n < EHS_TEXT_STACK, 1)) {
			while (n && t->stack[n - 1] == '\n')
				n--;
			t->p = t->stack;
			t->len = (size_t)n;
			t->map_len = 0;
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
