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

/* The text of fmt with ap into buf (len + 1 bytes), as the call wrote
 * it: whether it is len bytes long. */
static bool format_again(char *buf, size_t len, const char *fmt, va_list ap, int saved_errno)
{
	long n = ehs_format(buf, len + 1, fmt, ap, saved_errno);
	if (n == EHS_FORMAT_FALLBACK) {
		va_list copy;
		va_copy(copy, ap);
		errno = saved_errno;	/* %m, as at the call */
		n = vsnprintf(buf, len + 1, fmt, copy);
		va_end(copy);
	}
	return n == (long)len;
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
