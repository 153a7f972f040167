/* SPDX-License-Identifier: MIT */
/* A cursor over a bounded byte range: the file readers take every length
 * from the file through it, so none can step outside the range. */
#ifndef EHSYSLOG_CLI_SPAN_H
#define EHSYSLOG_CLI_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct span {
	const uint8_t *p;
	size_t left;
};

/* Takes the next n bytes (*out points at them, if out is not NULL);
 * false, taking nothing, if fewer are left. */
static inline bool take(struct span *s, size_t n, const uint8_t **out)
{
	if (n > s->left)
		return false;
	if (out != NULL)
		*out = s->p;
	s->p += n;
	s->left -= n;
	return true;
}

#endif
