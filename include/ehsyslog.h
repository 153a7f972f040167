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
 * ehs_event builds the event's metadata (its name and the fields' names
 * and types) on every call; ehs_event_cached and EHS_EVENT keep it built,
 * so that a traced call only writes the values.
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
	EHS_FIELD_UINT8,	/* unsigned 8-bit: v.u, 0..255 */
};

struct ehs_field {
	const char *name;	/* not NULL, not "", no ';' */
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
#define EHS_UINT8(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_UINT8, .v.u = (uint8_t)(val) })

/* Most fields one native event may carry. */
#define EHS_FIELDS_MAX 32

/*
 * Whether a tracer records events of priority (LOG_xxx severity, or-ed
 * with a facility; none means openlog's) right now.  Cheap: call it
 * before computing expensive field values.
 */
EHS_API bool ehs_enabled(int priority);

/*
 * Writes one event named event_name (sanitised like an ident; NULL or ""
 * means the program's name) with the given fields, at priority.  Returns
 * 1 if written, 0 if nobody traces it (or the library is disabled, or the
 * call comes from inside the library: a signal handler interrupting it), -1
 * with errno EINVAL for bad arguments (a field's name or type, a UINT8
 * value over 255, a string over 65535 bytes) or E2BIG when the event
 * exceeds one event's size (4064 bytes; no splitting here).  errno is
 * otherwise preserved.
 */
EHS_API int ehs_event(int priority, const char *event_name,
		      const struct ehs_field *fields, unsigned nfields);

/*
 * Where ehs_event_cached keeps one event's metadata.  It must start
 * zeroed (a static one does) and is the library's alone after that.
 */
struct ehs_event_cache {
	uint64_t opaque[64];
};

/*
 * ehs_event, writing the same bytes, with the metadata kept in cache.
 * The first traced call fills the cache with its event_name and fields'
 * names and types, compared by address (the strings are not read again:
 * use string literals, or strings that never change).  Later calls with
 * the same addresses and types in the same order only write the values;
 * calls with others are written as ehs_event writes them, and the cache
 * keeps the first.  Calls at any priority, before or after openlog, use
 * the same cache.  The cache holds 480 bytes: 16 a field, the 12-byte
 * prefix and the metadata (the name, and each field's name and 2 or 3
 * bytes); an event needing more is never kept.  Safe from any thread and
 * from signal handlers: it never locks, never allocates, and a call that
 * finds the cache being filled writes its event as ehs_event does.
 * cache NULL is ehs_event.
 */
EHS_API int ehs_event_cached(struct ehs_event_cache *cache, int priority,
			     const char *event_name, const struct ehs_field *fields,
			     unsigned nfields);

/*
 * ehs_event_cached with a cache of this call site's own (GCC and Clang):
 *
 *   struct ehs_field f[] = { EHS_STRING("path", path), EHS_UINT8("code", 200) };
 *   EHS_EVENT(LOG_INFO, "request", f, 2);
 */
#define EHS_EVENT(priority, event_name, fields, nfields) __extension__ ({ \
	static struct ehs_event_cache ehs_event_cache_; \
	ehs_event_cached(&ehs_event_cache_, (priority), (event_name), (fields), (nfields)); })

#ifdef __cplusplus
}
#endif

#endif
