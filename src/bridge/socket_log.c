/* SPDX-License-Identifier: MIT */
/*
 * The events of the bytes a program sends to a syslog socket itself
 * (bridge.h): each parsed into a journal record, which ehs_journal_log
 * writes as the event of a syslog() call with that priority and ident.
 */
#include "config.h"

#include "bridge/bridge.h"
#include "bridge/datagram.h"
#include "bridge/journal.h"
#include "bridge/journal_wire.h"
#include "bridge/syslog_stream.h"

bool ehs_datagram_log(const char *bytes, size_t len, int saved_errno)
{
	struct ehs_datagram d;
	ehs_datagram_parse(&d, bytes, len);
	return ehs_journal_log(&d.j, saved_errno);
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

bool ehs_journal_wire_log(const char *bytes, size_t len, int saved_errno)
{
	struct ehs_journal j;
	return ehs_journal_wire_parse(&j, bytes, len) == 0 && ehs_journal_log(&j, saved_errno);
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
	unsigned fac = facility >= 0 ? (unsigned)facility : (unsigned)LOG_FAC(ehs_ident_facility());
	return idle(severity, fac, deliverable);
}
