/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the syslog datagram parser: the input is one
 * datagram (0 to 64 KiB, what /dev/log takes), in an exact-size heap
 * copy with no NUL after it, so ASan sees any read past the end.
 * Checked: everything the result points at lies in the datagram (or,
 * for unescaped values, in the result's own buffer); the message runs to
 * the datagram's end, so no byte after the header is lost; the priority
 * is in range, and ehs_datagram_pri gives the same; extras fit
 * EHS_EXTRA_BYTES and have names EventHeader takes.  Then the result goes through ehs_journal_log, as the
 * interception will send it, and every event must fit and decode.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/input/datagram.h"
#include "../doubles/user_events_double.h"
#include "event_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ehs_datagram d;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_copy(data, size);
	ehs_datagram_parse(&d, s, size);

	/* Where the message must end: past one NUL, then one newline. */
	size_t end = size;
	if (end && s[end - 1] == '\0')
		end--;
	if (end && s[end - 1] == '\n')
		end--;
	if (d.j.severity < 0 || d.j.severity > 7 || d.j.facility < 0 || d.j.facility > 23)
		abort();
	/* The cheap look at the priority must agree with the parse. */
	if (ehs_datagram_pri(s, size) != (d.j.facility << 3 | d.j.severity))
		abort();
	fuzz_within(d.j.msg, d.j.msg_len, s, size);
	if (d.j.msg + d.j.msg_len != s + end)
		abort();
	if (d.kind == EHS_DATAGRAM_PLAIN && d.j.msg != s)
		abort();
	if (d.j.ident)
		fuzz_within(d.j.ident, d.j.ident_len, s, size);
	if (d.j.extra_bytes > EHS_EXTRA_BYTES || d.j.nextra > EHS_JOURNAL_EXTRA_MAX ||
	    d.values_len > sizeof d.values)
		abort();
	for (unsigned i = 0; i < d.j.nextra; i++) {
		const struct ehs_extra *x = &d.j.extra[i];
		if (!x->name[0] || strchr(x->name, ';'))
			abort();
		if (x->value >= d.values && x->value < d.values + sizeof d.values)
			fuzz_within(x->value, x->value_len, d.values, d.values_len);
		else
			fuzz_within(x->value, x->value_len, s, size);
	}

	ue_double_trace(fuzz_event_sink, NULL);
	fuzz_events = 0;
	ehs_journal_log(&d.j, 0);
	if (fuzz_events == 0)
		abort();
	free(s);
	return 0;
}
