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

bool ehs_datagram_idle(const char *head, size_t len)
{
	int pri = ehs_datagram_pri(head, len);
	return ehs_idle(ehs_tracepoint(pri & LOG_PRIMASK, (unsigned)pri >> 3));
}

bool ehs_stream_idle(const char *bytes, size_t len)
{
	while (len) {
		const char *msg;
		size_t msg_len;
		size_t used = ehs_syslog_frame(bytes, len, &msg, &msg_len);
		if (msg_len && !ehs_datagram_idle(msg, msg_len))
			return false;
		bytes += used;
		len -= used;
	}
	return true;
}

bool ehs_journal_wire_idle(const char *bytes, size_t len)
{
	int severity, facility;
	if (ehs_journal_wire_level(bytes, len, &severity, &facility) < 0)
		return true;	/* journald records nothing: no event either */
	unsigned fac = facility >= 0 ? (unsigned)facility : (unsigned)LOG_FAC(ehs_ident_facility());
	return ehs_idle(ehs_tracepoint(severity, fac));
}
