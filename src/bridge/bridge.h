/* SPDX-License-Identifier: MIT */
/*
 * What the interposer calls: one entry per kind of logging call.  The
 * entries never print, never allocate with malloc, take no lock and leave
 * errno as they found it.  The caller (preload/) sets ehs_busy around
 * them so a logging call made from inside (a signal handler, a format
 * callback) passes straight through.
 */
#ifndef EHS_BRIDGE_BRIDGE_H
#define EHS_BRIDGE_BRIDGE_H

#include <stdarg.h>
#include <stdbool.h>
#include <syslog.h>

#include <ehsyslog/user_events.h>
#include <ehsyslog/usdt.h>

#include "bridge/config/config_load.h"
#include "bridge/emit.h"
#include "bridge/ident.h"
#include "bridge/schema.h"

/* Non-zero while this thread is inside the library. */
extern __thread int ehs_busy __attribute__((tls_model("initial-exec")));

/* syslog/vsyslog and their _chk forms: glibc's priority rules, the mask,
 * openlog's facility.  saved_errno is errno at the call.  ap is not
 * consumed (only copies of it are read), so the caller can pass it on
 * to the real vsyslog afterwards. */
void ehs_vsyslog(int pri, int saved_errno, const char *fmt, va_list ap);

/*
 * err/warn/error family: an event of severity (LOG_ERR or LOG_WARNING)
 * at openlog's facility.  The message is fmt formatted, followed by ": "
 * and strerror(errnum) when errnum >= 0 (just strerror(errnum) when fmt
 * is NULL).  file is error_at_line's, else NULL.
 */
void ehs_report(int severity, int saved_errno, int errnum, const char *file,
		unsigned line, const char *fmt, va_list ap);

/* ehs_report with ehs_busy raised around it, unless already raised (a
 * call from inside the library, or a handler that interrupted it):
 * whether it ran.  ap is not consumed. */
bool ehs_report_outside(int severity, int saved_errno, int errnum, const char *file,
			unsigned line, const char *fmt, va_list ap);

/* What a call of another logging API (the journal's, GLib's) brings
 * besides its message.  Zero-initialised, it adds nothing. */
struct ehs_source {
	const char *name;	/* event name before sanitising (ident.h),
				 * or NULL for the ident's */
	size_t name_len;	/* name's length when it is not
				 * NUL-terminated, else 0 */
	const char *file;	/* source file and line, or NULL */
	unsigned line;
	const struct ehs_extra *extra;	/* string fields after the schema's */
	unsigned nextra;
};

/* The n bytes at v as a decimal number: digits only, at most 10 of them
 * and at most max; -1 for anything else.  How the journal's and GLib's
 * numeric fields (CODE_LINE, PRIORITY, ERRNO) are read. */
static inline long long ehs_decimal(const char *v, size_t n, long long max)
{
	long long x = 0;
	if (n == 0 || n > 10)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		x = x * 10 + (v[i] - '0');
	}
	return x <= max ? x : -1;
}

/* An event of severity (0..7) at facility (0..127) with src's additions:
 * the message fmt formatted with ap (ehs_vlog), or the len bytes at msg
 * as they are, NUL bytes included (ehs_log).  Either drops the message's
 * trailing newlines.  No mask is applied: setlogmask only concerns
 * syslog. */
void ehs_vlog(int severity, unsigned facility, int saved_errno,
	      const struct ehs_source *src, const char *fmt, va_list ap);
/* ehs_log also says whether the event could be written (ehs_deliverable
 * after its check), for replace mode. */
bool ehs_log(int severity, unsigned facility, int saved_errno,
	     const struct ehs_source *src, const char *msg, size_t len);

/* What a program sends a syslog socket itself (preload/socket.c): a
 * syslog datagram (input/datagram.h), the bytes of one send on a syslog
 * stream, one event a frame (input/syslog_stream.h), or a datagram of
 * journald's native protocol (input/journal_wire.h).  Each makes its
 * events as ehs_log does, and says whether every one of them could be
 * written (false too for a journal datagram journald would refuse):
 * replace mode keeps the bytes from the daemon only then. */
bool ehs_datagram_log(const char *bytes, size_t len, int saved_errno);
bool ehs_stream_log(const char *bytes, size_t len, int saved_errno);
bool ehs_journal_wire_log(const char *bytes, size_t len, int saved_errno);

/* True when the datagram starting with head[0..len) (its first 8 bytes
 * are enough) makes no event because its priority's tracepoint is idle;
 * the same for every frame of a stream's bytes, and for a journal
 * datagram.  Each reads the bytes in a few words of stack and builds no
 * record: what nobody traces is not parsed.  When true, *deliverable
 * says whether the events could have been written (ehs_deliverable; false
 * too for a journal datagram journald refuses), as the _log functions
 * say it, for replace mode. */
bool ehs_datagram_idle(const char *head, size_t len, bool *deliverable);
bool ehs_stream_idle(const char *bytes, size_t len, bool *deliverable);
bool ehs_journal_wire_idle(const char *bytes, size_t len, bool *deliverable);

/* Reads the configuration and opens the writer (the first check of one
 * tracepoint) unless done: for a caller about to log from elsewhere, so
 * that this work, the deepest of the library's, runs on the caller's
 * stack rather than at a first event in a signal handler on a small one.
 * The interposer calls it when it watches a syslog socket. */
void ehs_prepare(void);

void ehs_openlog(const char *ident, int option, int facility);
void ehs_closelog(void);
void ehs_setlogmask(int mask);


/*
 * The fast path.  Everything below reads plain statics and at most one
 * tracepoint state word, makes no call and touches nothing shared for
 * writing, so an untraced call costs a handful of instructions and
 * threads do not slow each other down.
 */

/* True when tp's word says there is nothing to do (untraced, failed to
 * register, or the library disabled) and no uprobe is on the library's
 * probe sites (usdt.h).  A word still UE_STATE_UNREGISTERED (the
 * table's start) is not idle: its first check reads the configuration
 * and registers. */
static inline bool ehs_idle(struct ue_tracepoint *tp)
{
	return __atomic_load_n(&tp->state, __ATOMIC_RELAXED) == 0 && !usdt_any();
}

/* True when a syslog call at pri makes no event because its tracepoint
 * is idle (the mask is not even read: it only matters for a traced
 * tracepoint, on the full path).  False for a priority with stray bits
 * (glibc's complaint about it is an event of its own). */
static inline bool ehs_syslog_idle(int pri)
{
	if (__builtin_expect((unsigned)pri > (LOG_PRIMASK | LOG_FACMASK), 0))
		return false;
	unsigned facility = (unsigned)pri >> 3;
	if (!facility)
		facility = (unsigned)ehs_ident_facility() >> 3;
	return ehs_idle(ehs_tracepoint(pri & LOG_PRIMASK, facility));
}

/* ehs_traced's answer for tp past its inline checks. */
struct ue_tracepoint *ehs_traced_slow(struct ue_tracepoint *tp);

/* ehs_traced's inline checks: tp's word and the configuration's state
 * say traced (else ehs_traced_slow tells). */
static inline bool ehs_traced_now(struct ue_tracepoint *tp)
{
	return __builtin_expect(__atomic_load_n(&tp->state, __ATOMIC_RELAXED) == UE_STATE_ENABLED &&
				__atomic_load_n(&ehs_config_state_word, __ATOMIC_ACQUIRE) ==
					EHS_CONFIG_ON, 1);
}

/* The tracepoint for (severity, facility 0..127) if the library is on
 * and a tracer records it, through user_events or a uprobe on the
 * level's probe site, else NULL.  Traced through user_events: two loads
 * inline, the tracepoint's word and the configuration's state.  The
 * first check of a tracepoint reads the configuration, then registers
 * it.  The writes that follow go to each transport that records. */
static inline struct ue_tracepoint *ehs_traced(int severity, unsigned facility)
{
	struct ue_tracepoint *tp = ehs_tracepoint(severity, facility);
	if (ehs_traced_now(tp))
		return tp;
	return ehs_traced_slow(tp);
}

/*
 * Whether an event at (severity, facility 0..127) can reach a tracer:
 * its tracepoint is registered with the kernel (ue_tracepoint_registered),
 * which its first check (ehs_traced) tries.  Replace mode keeps a call
 * from the real function only when this holds: where no event can be
 * written at all (no user_events, no permission, events off) the call
 * goes on, and nothing is lost.  One load past the tracepoint's address.
 */
static inline bool ehs_deliverable(int severity, unsigned facility)
{
	return ue_tracepoint_registered(ehs_tracepoint(severity & LOG_PRIMASK, facility & 127));
}

/* ehs_deliverable for a syslog() priority: openlog's facility where pri
 * has none; stray bits ignored. */
static inline bool ehs_syslog_deliverable(int pri)
{
	unsigned facility = (unsigned)LOG_FAC(pri & LOG_FACMASK);
	if (!facility)
		facility = (unsigned)LOG_FAC(ehs_ident_facility());
	return ehs_deliverable(pri & LOG_PRIMASK, facility);
}

/* Whether syslog calls go on to the real syslog (replace mode: no).
 * Reads the configuration if nobody has. */
static inline bool ehs_passthrough(void)
{
	int m = ehs_config_mode();
	if (__builtin_expect(m != EHS_MODE_UNREAD, 1))
		return m == EHS_MODE_PASS;
	return ehs_config_passthrough();
}

#endif
