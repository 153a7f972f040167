/* SPDX-License-Identifier: MIT */
/*
 * What each of libsystemd's journal calls means (sd_journal_print,
 * _printv, _send, _sendv, _perror and their _with_location forms): its
 * event, built as journal.h's record from the fields libsystemd would
 * send, and whether the call goes on to libsystemd.  The interposer
 * (preload/journal.c) finds libsystemd's functions and asks here.
 *
 * Replace mode applies as to syslog: journald is a log daemon like
 * /dev/log's, so a call whose event is written only makes the event and
 * answers what libsystemd answers when no journald listens (0), or
 * -EINVAL for arguments it refuses.  libsystemd calls its own entry
 * points through the PLT (print calls printv, everything ends in
 * sendv): the caller raises ehs_busy around the real function, and a
 * call made while it is raised makes no event and passes straight on.
 */
#ifndef EHS_BRIDGE_JOURNAL_CALL_H
#define EHS_BRIDGE_JOURNAL_CALL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/uio.h>
#include <syslog.h>

#include "bridge/bridge.h"

/* A _with_location call's strings ("CODE_FILE=...", "CODE_LINE=...",
 * the bare function name); NULL where a function takes none. */
struct ehs_journal_location {
	const char *file, *line, *func;
};

/* libsystemd's answer to a print when nothing is sent. */
static inline int ehs_journal_print_answer(int priority, const char *format)
{
	return priority >= 0 && priority <= 7 && format ? 0 : -EINVAL;
}

/* A print's whole path in replace mode when nobody traces it: no errno
 * access and no call, as syslog's (syslog_inline.h). */
static inline bool ehs_journal_print_idle(int priority)
{
	if (ehs_config_mode() != EHS_MODE_REPLACE || priority < 0 || priority > 7)
		return false;
	unsigned facility = (unsigned)LOG_FAC(ehs_ident_facility());
	return ehs_idle(ehs_tracepoint(priority, facility)) && ehs_deliverable(priority, facility);
}

/* Whether the call goes on to libsystemd for an entry at (severity 0..7,
 * else libsystemd refuses it; facility -1: openlog's): always when
 * nested (libsystemd's own calls), else unless in replace mode, where
 * only an entry whose event cannot be written goes on. */
bool ehs_journal_pass_on(int severity, int facility);

/* sd_journal_printv's event: MESSAGE= the text (trailing whitespace
 * stripped), PRIORITY=, then loc's fields; none for a priority or format
 * libsystemd refuses, an empty or too long text, or a nested call.
 * saved is errno at the call (for %m). */
void ehs_journal_print_event(int saved, int priority, const struct ehs_journal_location *loc,
			     const char *format, va_list ap);

/* sd_journal_perror's event: loc's fields, PRIORITY=3, MESSAGE=
 * "message: " (unless empty) and strerror(saved), ERRNO=saved. */
void ehs_journal_perror_event(int saved, const struct ehs_journal_location *loc,
			      const char *message);

/* libsystemd's sendv, found by the interposer: called with ehs_busy
 * raised and errno as at the call. */
typedef int ehs_journal_sendv_fn(const struct iovec *iov, int n,
				 const struct ehs_journal_location *loc);

/* sd_journal_sendv of iov[0..n) with loc's fields after them: the event,
 * then sendv unless the call stays here (ehs_journal_pass_on); the
 * call's answer.  errno preserved. */
int ehs_journal_sendv(const struct iovec *iov, int n, const struct ehs_journal_location *loc,
		      ehs_journal_sendv_fn *sendv);

/* sd_journal_send: its list formatted as libsystemd would
 * (journal_format.h), loc's fields first, then as ehs_journal_sendv
 * without a location (what libsystemd's send hands its sendv). */
int ehs_journal_send(const struct ehs_journal_location *loc, const char *format, va_list ap,
		     ehs_journal_sendv_fn *sendv);

#endif
