/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* Formats into buf[0..cap); returns the full length it needs, or -1. */
static long format_into(char *buf, size_t cap, int saved_errno, int errnum,
			const char *fmt, va_list ap)
{
	long n = 0;
	if (fmt) {
		va_list copy;
		va_copy(copy, ap);
		errno = saved_errno;
		int r = vsnprintf(buf, cap, fmt, copy);
		va_end(copy);
		if (r < 0)
			return -1;
		n = r;
	} else if (cap) {
		buf[0] = '\0';
	}
	if (errnum >= 0) {
		size_t at = (size_t)n < cap ? (size_t)n : cap;
		errno = errnum;
		int r = snprintf(buf + at, cap - at, fmt ? ": %m" : "%m");
		if (r < 0)
			return -1;
		n += r;
	}
	return n;
}

int ehs_text_vformat(struct ehs_text *t, int saved_errno, int errnum,
		     const char *fmt, va_list ap)
{
	t->p = t->stack;
	t->len = 0;
	t->map_len = 0;
	t->stack[0] = '\0';

	long n = format_into(t->stack, sizeof t->stack, saved_errno, errnum, fmt, ap);
	if (n < 0)
		return -1;
	if ((size_t)n >= sizeof t->stack) {
		size_t need = (size_t)n + 1;
		void *m = mmap(NULL, need, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -1;
		t->p = m;
		t->map_len = need;
		long again = format_into(t->p, need, saved_errno, errnum, fmt, ap);
		if (again != n) {	/* the arguments changed under us */
			ehs_text_free(t);
			return -1;
		}
	}
	t->len = (size_t)n;
	while (t->len && t->p[t->len - 1] == '\n')
		t->len--;
	return 0;
}

void ehs_text_free(struct ehs_text *t)
{
	if (t->map_len)
		munmap(t->p, t->map_len);
	t->p = t->stack;
	t->len = 0;
	t->map_len = 0;
}
