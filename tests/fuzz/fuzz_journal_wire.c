/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the journald native datagram parser: the input is
 * one datagram (0 to 64 KiB), in an exact-size heap copy with no NUL
 * after it, so ASan sees any read past the end.  Checked: everything the
 * result points at lies in the datagram; the priority is in range;
 * extras fit EHS_EXTRA_BYTES and have names journald keeps.  Then a
 * result the parser calls usable goes through ehs_journal_log, and every
 * event must fit and decode.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "bridge/input/journal_wire.h"
#include "../doubles/user_events_double.h"
#include "event_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ehs_journal j;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_copy(data, size);
	int rc = ehs_journal_wire_parse(&j, s, size);
	if (rc != 0 && rc != -1)
		abort();
	if (j.severity < 0 || j.severity > 7 || j.facility < -1 || j.facility > 99)
		abort();
	/* Without a MESSAGE field the message is ehs_journal_init's "". */
	if (j.msg_len)
		fuzz_within(j.msg, j.msg_len, s, size);
	if (j.ident)
		fuzz_within(j.ident, j.ident_len, s, size);
	if (j.extra_bytes > EHS_EXTRA_BYTES || j.nextra > EHS_JOURNAL_EXTRA_MAX)
		abort();
	for (unsigned i = 0; i < j.nextra; i++) {
		const struct ehs_extra *x = &j.extra[i];
		if (!ehs_journal_key_valid(x->name, strlen(x->name)))
			abort();
		fuzz_within(x->value, x->value_len, s, size);
	}

	if (rc == 0) {
		ue_double_trace(fuzz_event_sink, NULL);
		fuzz_events = 0;
		ehs_journal_log(&j, 0);
		if (fuzz_events == 0)
			abort();
	}
	free(s);
	return 0;
}
