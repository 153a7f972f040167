/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/bridge.h"

#include <syslog.h>

#include <ehsyslog/user_events.h>

#include "bridge/config/config_load.h"
#include "bridge/ident.h"
#include "bridge/api/native_cache.h"
#include "bridge/pri_table.h"
#include "bridge/schema.h"
#include "bridge/scratch.h"
#include "bridge/syslog_inline.h"
#include "bridge/format/text.h"

/* glibc reports a priority with unknown bits with this one (note the
 * option bits: as a priority it reads LOG_AUTH | LOG_ERR). */
#define INTERNALLOG (LOG_ERR | LOG_CONS | LOG_PERROR | LOG_PID)

__thread int ehs_busy __attribute__((tls_model("initial-exec")));

struct ue_tracepoint *ehs_traced_slow(struct ue_tracepoint *tp)
{
	if (ehs_idle(tp) || ehs_config_load() != EHS_CONFIG_ON)
		return NULL;
	/* Events may follow: their shared parts are built here, at the
	 * check's depth, not below the first event's frames. */
	ehs_emit_prepare();
	return ehs_transport_on(tp, ehs_tracepoint_level(tp)) ? tp : NULL;
}

/* The event for msg[0..len), the text without its line ending. */
static inline __attribute__((always_inline)) void emit_text(struct ue_tracepoint *tp, int severity, unsigned facility,
		      int saved_errno, const struct ehs_source *src,
		      const char *msg, size_t len)
{
	char name[EHS_EVENT_NAME_MAX + 1];
	struct ehs_record r = {
		.name = NULL,	/* the ident's: ehs_emit keeps it built */
		.level = ehs_level(severity),
		.severity = (uint8_t)(severity & LOG_PRIMASK),
		.facility = (uint8_t)facility,
		.err = saved_errno,
		.file = src->file,
		.line = src->line,
		.msg = msg,
		.msg_len = len,
		.extra = src->extra,
		.nextra = src->nextra,
	};
	if (src->name) {
		if (src->name_len)
			ehs_event_name_bytes(name, src->name, src->name_len);
		else
			ehs_event_name(name, src->name);
		r.name = name;
	}
	ehs_emit(&r, ehs_transport_limit(), tp);
}

/* One call's text, to be formatted into a buffer of EHS_TEXT_STACK bytes. */
struct emit_call {
	struct ue_tracepoint *tp;
	int severity;
	unsigned facility;
	int saved_errno;
	int errnum;
	const struct ehs_source *src;
	const char *fmt;
	va_list ap;
};

/* The event of c's text, formatted into buf. */
static inline int emit_in(void *buf, void *ctx)
{
	struct emit_call *c = ctx;
	struct ehs_text t;
	/* The text comes without its line ending: events carry none. */
	if (ehs_text_vformat(&t, buf, c->saved_errno, c->errnum, c->fmt, c->ap) < 0)
		return -1;
	emit_text(c->tp, c->severity, c->facility, c->saved_errno, c->src, t.p, t.len);
	ehs_text_free(&t);
	return 0;
}

/* The text in a scratch slot, not the caller's frame: a signal handler
 * on a small stack may log. */
static void emit(struct ue_tracepoint *tp, int severity, unsigned facility, int saved_errno,
		 int errnum, const struct ehs_source *src, const char *fmt, va_list ap)
{
	struct emit_call c = {
		.tp = tp,
		.severity = severity,
		.facility = facility,
		.saved_errno = saved_errno,
		.errnum = errnum,
		.src = src,
		.fmt = fmt,
	};
	va_copy(c.ap, ap);
	ehs_scratch_run(EHS_TEXT_STACK, emit_in, &c);
	va_end(c.ap);
}

static void syslog_internal(int pri, int saved_errno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A priority with bits glibc does not know: glibc logs this complaint
 * first, then the call with the bits masked. */
void ehs_vsyslog_unknown_bits(int pri, int saved_errno, const char *fmt, va_list ap)
{
	syslog_internal(INTERNALLOG, saved_errno, "syslog: unknown facility/priority: %x", pri);
	ehs_vsyslog(pri & (LOG_PRIMASK | LOG_FACMASK), saved_errno, fmt, ap);
}

void ehs_vsyslog(int pri, int saved_errno, const char *fmt, va_list ap)
{
	ehs_vsyslog_inline(pri, saved_errno, fmt, ap, NULL);
}

static void syslog_internal(int pri, int saved_errno, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ehs_vsyslog(pri, saved_errno, fmt, ap);
	va_end(ap);
}

void ehs_report(int severity, int saved_errno, int errnum, const char *file,
		unsigned line, const char *fmt, va_list ap)
{
	unsigned facility = (unsigned)LOG_FAC(ehs_ident_facility());
	struct ue_tracepoint *tp = ehs_traced(severity, facility);
	if (!tp)
		return;
	const struct ehs_source src = { .file = file, .line = line };
	emit(tp, severity, facility, saved_errno, errnum, &src, fmt, ap);
}

bool ehs_report_outside(int severity, int saved_errno, int errnum, const char *file,
			unsigned line, const char *fmt, va_list ap)
{
	if (ehs_busy)
		return false;
	ehs_busy = 1;
	va_list copy;
	va_copy(copy, ap);
	ehs_report(severity, saved_errno, errnum, file, line, fmt, copy);
	va_end(copy);
	ehs_busy = 0;
	return true;
}

void ehs_vlog(int severity, unsigned facility, int saved_errno,
	      const struct ehs_source *src, const char *fmt, va_list ap)
{
	struct ue_tracepoint *tp = ehs_traced(severity & LOG_PRIMASK, facility & 127);
	if (tp)
		emit(tp, severity & LOG_PRIMASK, facility & 127, saved_errno, -1, src, fmt, ap);
}

bool ehs_log(int severity, unsigned facility, int saved_errno,
	     const struct ehs_source *src, const char *msg, size_t len)
{
	struct ue_tracepoint *tp = ehs_traced(severity & LOG_PRIMASK, facility & 127);
	if (!tp)
		return ehs_deliverable(severity, facility);
	/* The bytes as they are (NUL bytes included), but the line ending,
	 * as for a formatted message. */
	while (len && msg[len - 1] == '\n')
		len--;
	emit_text(tp, severity & LOG_PRIMASK, facility & 127, saved_errno, src, msg, len);
	return ehs_deliverable(severity, facility);	/* a failed write lets it go */
}

void ehs_openlog(const char *ident, int option, int facility)
{
	int before = ehs_ident_facility();
	ehs_ident_openlog(ident, option, facility);
	if (ehs_ident_facility() != before) {
		ehs_pri_table_facility_changed();
		ehs_site_epoch_next();
	}
	/* A program that calls openlog again may have fixed what made the
	 * writer fail (permissions, a mount, descriptors), or what kept the
	 * configuration file from being read: let both try once more. */
	ue_retry();
	ehs_config_retry_now();
}

void ehs_closelog(void)
{
	ehs_ident_closelog();
}

void ehs_setlogmask(int mask)
{
	ehs_ident_setlogmask(mask);
}

void ehs_prepare(void)
{
	int saved = errno;
	(void)ehs_traced(LOG_INFO, LOG_FAC(LOG_USER));
	errno = saved;
}
