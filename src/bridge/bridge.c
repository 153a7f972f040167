/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/bridge.h"

#include <syslog.h>

#include <ehsyslog/user_events.h>

#include "bridge/config_load.h"
#include "bridge/ident.h"
#include "bridge/native_cache.h"
#include "bridge/pri_table.h"
#include "bridge/schema.h"
#include "bridge/scratch.h"
#include "bridge/syslog_inline.h"
#include "bridge/text.h"

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
	if (ue_tracepoint_active(tp))
		return tp;
	/* Not through user_events (none here, say): a uprobe may record
	 * the level. */
	return usdt_armed(ehs_tracepoint_level(tp)) ? tp : NULL;
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
	ehs_emit(&r, ehs_event_limit(), tp);
}

/* The event of fmt's text, formatted into buf (EHS_TEXT_STACK bytes). */
static inline __attribute__((always_inline)) void
emit_in(char *buf, struct ue_tracepoint *tp, int severity, unsigned facility, int saved_errno,
	int errnum, const struct ehs_source *src, const char *fmt, va_list ap)
{
	struct ehs_text t;
	/* The text comes without its line ending: events carry none. */
	if (ehs_text_vformat(&t, buf, saved_errno, errnum, fmt, ap) < 0)
		return;
	emit_text(tp, severity, facility, saved_errno, src, t.p, t.len);
	ehs_text_free(&t);
}

/* emit_in with the buffer on the stack, in a frame that only a call
 * that found no scratch slot makes. */
static __attribute__((noinline)) void
emit_on_stack(struct ue_tracepoint *tp, int severity, unsigned facility, int saved_errno,
	      int errnum, const struct ehs_source *src, const char *fmt, va_list ap)
{
	char buf[EHS_TEXT_STACK];
	emit_in(buf, tp, severity, facility, saved_errno, errnum, src, fmt, ap);
}

static inline __attribute__((always_inline)) void
emit(struct ue_tracepoint *tp, int severity, unsigned facility, int saved_errno,
     int errnum, const struct ehs_source *src, const char *fmt, va_list ap)
{
	char *buf = ehs_scratch_take();
	if (!buf) {
		emit_on_stack(tp, severity, facility, saved_errno, errnum, src, fmt, ap);
		return;
	}
	emit_in(buf, tp, severity, facility, saved_errno, errnum, src, fmt, ap);
	ehs_scratch_give(buf);
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
	 * writer fail (permissions, a mount): let it try once more. */
	ue_retry();
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
