/* SPDX-License-Identifier: MIT */
/*
 * A datagram a program writes to /dev/log itself (logger, Python's
 * SysLogHandler, RFC 5424 clients) taken apart into the record of an
 * sd_journal_* call (bridge/record.h), so that it becomes the event a
 * syslog() call with the same priority, ident and message would.  A pure
 * function of the bytes: no allocation, no NUL assumed, any length, and
 * the message is never lost: what is not parsed is the message.
 *
 *   Trailing    one trailing NUL (Python's, glibc's over a stream), then
 *               one trailing '\n', are dropped first.
 *   PRI         "<N>", N 1 to 3 digits, 0..191: severity N & 7, facility
 *               N >> 3.  Without a valid PRI the datagram is user.notice
 *               (as syslogd takes it) and all its bytes are the message.
 *   RFC 5424    after PRI, "1 " TIMESTAMP HOSTNAME APP-NAME PROCID MSGID,
 *               each a run of printable ASCII (0x21..0x7e) followed by
 *               one space, "-" meaning none; then STRUCTURED-DATA, "-" or
 *               elements "[SD-ID NAME=\"value\" ...]" with \" \\ \] escapes
 *               in values, names 1..32 bytes of printable ASCII but
 *               '=', ']' and '"'; then the end or a space and MSG, without
 *               a leading UTF-8 BOM.  APP-NAME is the ident.  PROCID
 *               is an extra field "syslog.procid", MSGID one
 *               "syslog.msgid", each parameter one named
 *               "syslog.SD-ID.NAME" with every ';' made '_' (EventHeader
 *               names hold no ';'): the OpenTelemetry logs data model's
 *               names for them (its appendix's RFC5424 mapping).
 *               TIMESTAMP and HOSTNAME are not kept.  Structured data that does not parse, or is not
 *               followed by the end or a space, is the start of MSG.  A
 *               header that does not parse is read as RFC 3164.
 *   RFC 3164    after PRI, an optional "Mmm dd hh:mm:ss " timestamp (day
 *               " 5" or "05" or "15"), then an optional "TAG[PID]:" or
 *               "TAG:" with one space after it skipped: TAG one or more
 *               bytes but ' ', ':' and '[', PID 1..10 digits.  TAG is the
 *               ident; the rest is the message.  After a timestamp, a
 *               word of printable ASCII and a space before such a tag is
 *               a hostname (logger --rfc3164 writes one; glibc, logger's
 *               default and Python do not), and skipped.
 *
 * The ident, cleaned when the event is written as openlog's is
 * (ehs_event_name), names the event; without one the program's short
 * name does.  Extras go in while they fit, by
 * bridge/api/journal.h's rule.
 */
#ifndef EHS_BRIDGE_DATAGRAM_H
#define EHS_BRIDGE_DATAGRAM_H

#include <stddef.h>

#include "bridge/record.h"

enum ehs_datagram_kind {
	EHS_DATAGRAM_PLAIN,	/* no valid PRI */
	EHS_DATAGRAM_3164,
	EHS_DATAGRAM_5424,
};

/* Longest SD-ID or parameter name RFC 5424 allows. */
#define EHS_DATAGRAM_SD_NAME_MAX 32

struct ehs_datagram {
	enum ehs_datagram_kind kind;
	/* severity, facility (never -1), ident, msg and extras, pointing
	 * into the datagram's bytes or into values[]: the event
	 * ehs_journal_log writes. */
	struct ehs_journal j;
	size_t values_len;
	char values[EHS_EXTRA_BYTES];	/* parameter values with escapes undone */
};

/* The priority (0..191) ehs_datagram_parse takes from bytes[0..len), or
 * 13 (user.notice) without a valid PRI: which tracepoint the datagram's
 * event goes to, without parsing the rest. */
int ehs_datagram_pri(const char *bytes, size_t len);

/* Parses bytes[0..len) into d, which must stay where it is while d->j
 * is used (its extras may point into d->values). */
void ehs_datagram_parse(struct ehs_datagram *d, const char *bytes, size_t len);

#endif
