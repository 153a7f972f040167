/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/input/syslog_stream.h"

#include <stdint.h>

/* The MSG-LEN at p, its space skipped: the bytes it takes in *head; the
 * count (SIZE_MAX when larger than any buffer), or 0 when p does not
 * start with one. */
static size_t octet_count(const char *p, size_t len, size_t *head)
{
	size_t i = 0, count = 0;
	if (p[0] < '1' || p[0] > '9')
		return 0;
	for (; i < len && p[i] >= '0' && p[i] <= '9'; i++)
		count = count > (SIZE_MAX - 9) / 10 ? SIZE_MAX : count * 10 + (size_t)(p[i] - '0');
	if (i == len || p[i] != ' ')
		return 0;
	*head = i + 1;
	return count;
}

size_t ehs_syslog_frame(const char *p, size_t len, const char **msg, size_t *msg_len)
{
	*msg = p;
	*msg_len = len;
	if (len == 0)
		return 0;
	size_t head = 0, count = octet_count(p, len, &head);
	if (count) {
		/* A count past the end: the bytes are not what it says, so
		 * they are kept whole rather than cut. */
		if (count > len - head)
			return len;
		*msg = p + head;
		*msg_len = count;
		return head + count;
	}
	for (size_t i = 0; i < len; i++)
		if (p[i] == '\n' || p[i] == '\0') {
			*msg_len = i;
			return i + 1;
		}
	return len;
}
