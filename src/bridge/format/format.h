/* SPDX-License-Identifier: MIT */
/*
 * A printf for the conversions log messages use, byte for byte the text
 * glibc's vsnprintf writes for them, in a fraction of its instructions:
 * %d %i %u %x %X %o %c %s %p %% %m with the flags "-+ #0", width and
 * precision (digits or *), and the lengths hh h l ll z j t.  Anything
 * else (floating point, %n, positional arguments, wide strings, the '
 * and I flags, %#m, flags or width on %%, unknown conversions, a width
 * or precision past EHS_FORMAT_MAX_FIELD, a text past INT_MAX) is left
 * to vsnprintf: ehs_format says so and the caller formats again from
 * its own copy of the arguments.
 */
#ifndef EHS_BRIDGE_FORMAT_H
#define EHS_BRIDGE_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* ehs_format's answer for a format it leaves to vsnprintf. */
#define EHS_FORMAT_FALLBACK (-2)

/* Widths and precisions above this fall back: glibc's own limits and
 * errors for huge fields stay glibc's. */
#define EHS_FORMAT_MAX_FIELD 65536

/*
 * Formats like vsnprintf(buf, cap, fmt, ap) with errno == saved_errno
 * (for %m): writes at most cap bytes, NUL included, and returns the
 * length of the whole text.  The bytes between the NUL and buf[cap] may
 * be written too: the text is copied in blocks of 16 bytes where they
 * fit, not byte by byte.  Returns EHS_FORMAT_FALLBACK when fmt holds
 * anything outside the set above; buf is then spent.  ap is not consumed
 * (ehs_format reads a copy), so the caller can format again from it.
 * errno is preserved.
 */
long ehs_format(char *buf, size_t cap, const char *fmt, va_list ap,
		int saved_errno);

#endif
