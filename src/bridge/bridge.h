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

#include <ehsyslog/user_events.h>

#include "bridge/emit.h"

/* Non-zero while this thread is inside the library. */
extern __thread int ehs_busy __attribute__((tls_model("initial-exec")));

/* syslog/vsyslog and their _chk forms: glibc's priority rules, the mask,
 * openlog's facility.  saved_errno is errno at the call. */
void ehs_vsyslog(int pri, int saved_errno, const char *fmt, va_list ap);

/*
 * err/warn/error family: an event of severity (LOG_ERR or LOG_WARNING)
 * at openlog's facility.  The message is fmt formatted, followed by ": "
 * and strerror(errnum) when errnum >= 0 (just strerror(errnum) when fmt
 * is NULL).  file is error_at_line's, else NULL.
 */
void ehs_report(int severity, int saved_errno, int errnum, const char *file,
		unsigned line, const char *fmt, va_list ap);

void ehs_openlog(const char *ident, int option, int facility);
void ehs_closelog(void);
void ehs_setlogmask(int mask);

/* The tracepoint for (severity, facility 0..127) if the library is on
 * and a tracer records it, else NULL.  Reads the configuration first. */
struct ue_tracepoint *ehs_traced(int severity, unsigned facility);

/* Where events for tp go: the kernel, or the test sink. */
void ehs_sink_for(struct ue_tracepoint *tp, ehs_sink_fn *sink, void **ctx);

/* Whether syslog calls go on to the real syslog (replace mode: no). */
bool ehs_passthrough(void);

#ifdef EHS_TESTING
/* Test builds only: when set, every tracepoint counts as enabled and
 * events go to this sink instead of the kernel. */
extern ehs_sink_fn ehs_test_sink;
extern void *ehs_test_ctx;
#endif

#endif
