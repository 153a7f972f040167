/* SPDX-License-Identifier: MIT */
/*
 * C's stdio on a watched stream (output.h).  glibc's stdio writes through
 * its own write(), out of any interposer's reach, and at its buffer's
 * pace, not a call's; so each call's bytes are taken from the call
 * itself once it returned: a format's text formatted again (the call's
 * length tells that it is the same), or the bytes it was given.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "bridge/bridge.h"
#include "bridge/format/format.h"
#include "bridge/output/output.h"
#include "bridge/output/stream.h"
#include "bridge/scratch.h"

/* A text this long is formatted on the stack; up to a scratch slot in
 * one, longer in pages mapped for it. */
#define PRINTED_STACK 512

void ehs_output_put(int fd, const void *p, size_t len)
{
	if (!len || (fd != 1 && fd != 2))
		return;
	struct iovec one = { (void *)p, len };
	ehs_output_sent(fd, &one, 1, len);
}

/* glibc's, which <stdio.h> declares only for _FORTIFY_SOURCE. */
int __vsnprintf_chk(char *s, size_t cap, int flag, size_t slen, const char *fmt, va_list ap);

/* The text of fmt with ap into buf (cap bytes, NUL included), as a call
 * with errno saved_errno (for %m) formats it: its whole length, or
 * negative where vsnprintf fails.  flag: a _chk form's, so that its
 * checks (%n in writable memory) stop the program here as they would
 * in the call; -1 for the others.  ap is not consumed. */
static long format_text(char *buf, size_t cap, int flag, const char *fmt, va_list ap,
			int saved_errno)
{
	long n = ehs_format(buf, cap, fmt, ap, saved_errno);
	if (n == EHS_FORMAT_FALLBACK) {
		va_list copy;
		va_copy(copy, ap);
		errno = saved_errno;
		n = flag < 0 ? vsnprintf(buf, cap, fmt, copy)
			     : __vsnprintf_chk(buf, cap, flag, cap, fmt, copy);
		va_end(copy);
	}
	return n;
}

/* The text of fmt with ap into buf (len + 1 bytes), as the call wrote
 * it: whether it is len bytes long. */
static bool format_again(char *buf, size_t len, const char *fmt, va_list ap, int saved_errno)
{
	return format_text(buf, len + 1, -1, fmt, ap, saved_errno) == (long)len;
}

bool ehs_output_print_instead(int fd, int flag, int saved_errno, const char *fmt, va_list ap,
			      int *r)
{
	int saved = errno;
	char small[PRINTED_STACK];
	char *buf = small, *slot = NULL;
	size_t cap = sizeof small;
	long len = format_text(small, cap, flag, fmt, ap, saved_errno);
	if (len >= (long)cap && (slot = ehs_scratch_take())) {
		buf = slot;
		cap = EHS_SCRATCH_SIZE;
		len = format_text(slot, cap, flag, fmt, ap, saved_errno);
	}
	bool replaced = false;
	if (len > 0 && len < (long)cap) {	/* the whole text */
		struct iovec text = { buf, (size_t)len };
		size_t taken;
		replaced = ehs_output_replace(fd, &text, 1, &taken);
	}
	if (slot)
		ehs_scratch_give(slot);
	if (replaced)
		*r = (int)len;
	errno = saved;
	return replaced;
}

/* ehs_output_printed's traced path, out of line. */
void ehs_output_printed_traced(int fd, int saved_errno, size_t len, const char *fmt, va_list ap)
{
	int saved = errno;
	char small[PRINTED_STACK];
	char *buf = small, *slot = NULL, *map = NULL;
	if (len >= sizeof small && len < EHS_SCRATCH_SIZE)
		buf = slot = ehs_scratch_take();
	if (len >= sizeof small && !slot) {
		map = mmap(NULL, len + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		buf = map == MAP_FAILED ? NULL : map;
	}
	if (buf && format_again(buf, len, fmt, ap, saved_errno))
		ehs_output_put(fd, buf, len);
	else
		ehs_output_untraced(fd, false);	/* lost: the next line starts afresh */
	if (slot)
		ehs_scratch_give(slot);
	if (buf && map)
		munmap(map, len + 1);
	errno = saved;
}
