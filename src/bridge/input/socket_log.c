/* SPDX-License-Identifier: MIT */
/*
 * The events of the bytes a program sends to a syslog socket itself
 * (bridge/bridge.h): each parsed into a journal record, which ehs_journal_log
 * writes as the event of a syslog() call with that priority and ident.
 */
#include "config.h"

#include "bridge/bridge.h"
#include "bridge/input/datagram.h"
#include "bridge/api/journal.h"
#include "bridge/input/journal_wire.h"
#include "bridge/scratch.h"
#include "bridge/input/syslog_stream.h"

/*
 * A record is over 4 KiB (a datagram's over 6): each is built in a
 * scratch slot (bridge/scratch.h), so that a signal handler's call takes
 * no more stack than the emitter's; with none free, on the stack, in a
 * frame only that case makes.
 */
_Static_assert(sizeof(struct ehs_datagram) <= EHS_SCRATCH_SIZE, "a datagram's record in a slot");
_Static_assert(sizeof(struct ehs_journal) <= EHS_SCRATCH_SIZE, "a journal record in a slot");

struct bytes_call {
	const char *bytes;
	size_t len;
	int saved_errno;
};

/* 1 when the event could be written. */
static int datagram_log_in(void *record, void *ctx)
{
	const struct bytes_call *c = ctx;
	struct ehs_datagram *d = record;
	ehs_datagram_parse(d, c->bytes, c->len);
	return ehs_journal_log(&d->j, c->saved_errno);
}

bool ehs_datagram_log(const char *bytes, size_t len, int saved_errno)
{
	struct bytes_call c = { bytes, len, saved_errno };
	return ehs_scratch_run(sizeof(struct ehs_datagram), datagram_log_in, &c);
}

bool ehs_stream_log(const char *bytes, size_t len, int saved_errno)
{
	bool all = true;
	while (len) {
		const char *msg;
		size_t msg_len;
		size_t used = ehs_syslog_frame(bytes, len, &msg, &msg_len);
		if (msg_len && !ehs_datagram_log(msg, msg_len, saved_errno))
			all = false;
		bytes += used;
		len -= used;
	}
	return all;
}

/* 1 when the record was whole and its event could be written. */
static int journal_wire_log_in(void *record, void *ctx)
{
	const struct bytes_call *c = ctx;
	struct ehs_journal *j = record;
	return ehs_journal_wire_parse(j, c->bytes, c->len) == 0 &&
	       ehs_journal_log(j, c->saved_errno);
}

bool ehs_journal_wire_log(const char *bytes, size_t len, int saved_errno)
{
	struct bytes_call c = { bytes, len, saved_errno };
	return ehs_scratch_run(sizeof(struct ehs_journal), journal_wire_log_in, &c);
}

/* A tracepoint's first check registers it here (the writer is open
 * already, ehs_prepare): what is not parsed is only what nobody traces.
 * *deliverable gathers ehs_deliverable's answers. */
static bool idle(int severity, unsigned facility, bool *deliverable)
{
	if (ehs_traced(severity, facility))
		return false;
	if (!ehs_deliverable(severity, facility))
		*deliverable = false;
	return true;
}

bool ehs_datagram_idle(const char *head, size_t len, bool *deliverable)
{
	int pri = ehs_datagram_pri(head, len);
	*deliverable = true;
	return idle(pri & LOG_PRIMASK, (unsigned)pri >> 3, deliverable);
}

bool ehs_stream_idle(const char *bytes, size_t len, bool *deliverable)
{
	*deliverable = true;
	while (len) {
		const char *msg;
		size_t msg_len;
		size_t used = ehs_syslog_frame(bytes, len, &msg, &msg_len);
		bool frame_deliverable;
		if (msg_len && !ehs_datagram_idle(msg, msg_len, &frame_deliverable))
			return false;
		if (msg_len && !frame_deliverable)
			*deliverable = false;
		bytes += used;
		len -= used;
	}
	return true;
}

bool ehs_journal_wire_idle(const char *bytes, size_t len, bool *deliverable)
{
	int severity, facility;
	*deliverable = true;
	if (ehs_journal_wire_level(bytes, len, &severity, &facility) < 0) {
		*deliverable = false;	/* journald records nothing: its answer */
		return true;
	}
	return idle(severity, ehs_journal_facility(facility), deliverable);
}
