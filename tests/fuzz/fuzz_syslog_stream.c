/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for syslog stream framing: the input is one send (0
 * to 64 KiB), in an exact-size heap copy with no NUL after it, so ASan
 * sees any read past the end.  Checked: the frames tile the input
 * exactly, each at least one byte; each message lies inside its frame,
 * and ends where the frame does or one terminator before; and each
 * message's priority by ehs_datagram_pri is the one the datagram parser
 * takes.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "bridge/input/datagram.h"
#include "bridge/input/syslog_stream.h"
#include "event_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ehs_datagram d;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_copy(data, size);
	const char *msg;
	size_t msg_len, pos = 0;
	if (ehs_syslog_frame(s, 0, &msg, &msg_len) != 0 || msg_len != 0)
		abort();
	while (pos < size) {
		const char *frame = s + pos;
		size_t used = ehs_syslog_frame(frame, size - pos, &msg, &msg_len);
		if (used == 0 || used > size - pos)
			abort();
		fuzz_within(msg, msg_len, frame, used);
		/* Nothing but a count before the message, nothing but one
		 * terminator after it. */
		size_t tail = used - (size_t)(msg - frame) - msg_len;
		if (tail > 1 || (tail == 1 && msg[msg_len] != '\n' && msg[msg_len] != '\0'))
			abort();
		if (msg != frame && tail != 0)
			abort();
		ehs_datagram_parse(&d, msg, msg_len);
		if (ehs_datagram_pri(msg, msg_len) != (d.j.facility << 3 | d.j.severity))
			abort();
		pos += used;
	}
	free(s);
	return 0;
}
