/* SPDX-License-Identifier: MIT */
/*
 * libehsyslog: syslog(3), err(3), warn(3) and error(3) calls become
 * EventHeader events on Linux user_events tracepoints.
 *
 * Bridged API: link with -lehsyslog (or preload the library) and keep
 * calling syslog(), vsyslog(), openlog(), closelog(), setlogmask(),
 * err()/errx()/verr()/verrx()/warn()/warnx()/vwarn()/vwarnx(), error(),
 * error_at_line() and libbsd's errc()/verrc()/warnc()/vwarnc() as
 * declared in <syslog.h>, <err.h>, <error.h> and <bsd/err.h>.  Each call
 * becomes one event named after openlog's ident, on the tracepoint
 * "<provider>_L<level>K<1 << facility>", with the fields message,
 * severity, facility and errno (README.md has the tables).
 *
 * Native API: for new code that wants its own fields.  The event goes to
 * the same tracepoint a syslog call with the same priority would use.
 */
#ifndef EHSYSLOG_H
#define EHSYSLOG_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef EHS_API
#define EHS_API __attribute__((visibility("default")))
#endif

enum ehs_field_type {
	EHS_FIELD_STRING = 1,	/* UTF-8 text, NUL-terminated */
	EHS_FIELD_INT64,	/* signed 64-bit */
	EHS_FIELD_UINT64,	/* unsigned 64-bit */
	EHS_FIELD_ERRNO,	/* an errno value, decoded as its name */
	EHS_FIELD_BOOL,		/* 0 or 1 */
};

struct ehs_field {
	const char *name;	/* no NUL inside; not "" */
	enum ehs_field_type type;
	union {
		const char *s;
		int64_t i;
		uint64_t u;
	} v;
};

#define EHS_STRING(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_STRING, .v.s = (val) })
#define EHS_INT64(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_INT64, .v.i = (val) })
#define EHS_UINT64(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_UINT64, .v.u = (val) })
#define EHS_ERRNO(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_ERRNO, .v.i = (val) })
#define EHS_BOOL(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_BOOL, .v.u = !!(val) })

/* Most fields one native event may carry. */
#define EHS_FIELDS_MAX 32

/*
 * Whether a tracer records events of priority (LOG_xxx severity, or-ed
 * with a facility; none means openlog's) right now.  Cheap: call it
 * before computing expensive field values.
 */
EHS_API bool ehs_enabled(int priority);

/*
 * Writes one event named event_name (sanitised like an ident) with the
 * given fields, at priority.  Returns 1 if written, 0 if nobody traces it
 * (or the library is disabled), -1 with errno EINVAL for bad arguments or
 * E2BIG when the event exceeds one event's size (no splitting here).
 * errno is otherwise preserved.
 */
EHS_API int ehs_event(int priority, const char *event_name,
		      const struct ehs_field *fields, unsigned nfields);

#ifdef __cplusplus
}
#endif

#endif
