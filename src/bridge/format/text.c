/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/format/text.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* Formats fmt with ap's arguments, in ehs_format when it can, else in
 * vsnprintf from a copy of ap (ehs_format reads its own); errno is
 * saved_errno for %m.  Returns the full length, or -1. */
static long format_fmt(char *buf, size_t cap, int saved_errno,
		       const char *fmt, va_list ap)
{
	long n = ehs_format(buf, cap, fmt, ap, saved_errno);
	if (n != EHS_FORMAT_FALLBACK)
		return n;
	va_list copy;
	va_copy(copy, ap);
	errno = saved_errno;
	int r = vsnprintf(buf, cap, fmt, copy);
	va_end(copy);
	return r < 0 ? -1 : r;
}

/* The same for a format without arguments. */
static long format_plain(char *buf, size_t cap, int saved_errno,
			 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	long n = format_fmt(buf, cap, saved_errno, fmt, ap);
	va_end(ap);
	return n;
}

/* Formats into buf[0..cap); returns the full length it needs, or -1. */
static long format_into(char *buf, size_t cap, int saved_errno, int errnum,
			const char *fmt, va_list ap)
{
	long n = 0;
	if (fmt) {
		n = format_fmt(buf, cap, saved_errno, fmt, ap);
		if (n < 0)
			return -1;
	} else if (cap) {
		buf[0] = '\0';
	}
	if (errnum >= 0) {
		size_t at = (size_t)n < cap ? (size_t)n : cap;
		long r = format_plain(buf + at, cap - at, errnum,
				      fmt ? ": %m" : "%m");
		if (r < 0)
			return -1;
		n += r;
	}
	return n;
}

const char *ehs_text_argument(va_list ap, size_t *len)
{
	va_list copy;
	va_copy(copy, ap);
	const char *s = va_arg(copy, const char *);
	va_end(copy);
	if (!s)
		s = "(null)";
	size_t n = strlen(s);
	if (n > INT_MAX)
		return NULL;
	*len = ehs_text_trimmed(s, n);
	return s;
}

int ehs_text_vformat_rest(struct ehs_text *t, long n, int saved_errno, int errnum,
			  const char *fmt, va_list ap)
{
	t->p = t->buf;
	t->map_len = 0;
	if (n == EHS_FORMAT_FALLBACK)
		n = format_into(t->buf, EHS_TEXT_STACK, saved_errno, errnum, fmt, ap);
	if (n < 0)
		goto fail;
	if ((size_t)n >= EHS_TEXT_STACK) {
		size_t need = (size_t)n + 1;
		char *m = mmap(NULL, need, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			goto fail;
		t->p = m;
		t->map_len = need;
		long again = format_into(m, need, saved_errno, errnum, fmt, ap);
		if (again != n) {	/* the arguments changed under us */
			ehs_text_free(t);
			goto fail;
		}
	}
	t->len = ehs_text_trimmed(t->p, (size_t)n);
	return 0;
fail:
	t->len = 0;
	t->buf[0] = '\0';
	return -1;
}

/* ehs_text_free's work when something was mapped. */
void ehs_text_unmap(struct ehs_text *t)
{
	munmap((void *)t->p, t->map_len);
	t->p = t->buf;
	t->len = 0;
	t->map_len = 0;
}
