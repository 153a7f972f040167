/* SPDX-License-Identifier: MIT */
/*
 * GLib's logging calls as events: a GLib level to syslog severities (one
 * event per level bit, as g_logv writes once per bit), and a structured
 * call's fields to the schema's and extra fields.  The interposer
 * (preload/glib.c) catches the calls and forwards them to GLib.
 *
 * The part of GLib's ABI this needs is declared here, since the library
 * never includes or links GLib (a program without GLib must not load
 * it).  Values and layouts as in GLib's gmessages.h, unchanged since
 * GLib 2.50: GLogLevelFlags is a C enum (an int), GLogField is
 * { const gchar *key; gconstpointer value; gssize length; }.
 */
#ifndef EHS_BRIDGE_GLIB_H
#define EHS_BRIDGE_GLIB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <syslog.h>

#include "bridge/bridge.h"

/* GLogLevelFlags: two flag bits, six levels, user levels from bit 8. */
#define EHS_G_LOG_FLAG_RECURSION (1 << 0)
#define EHS_G_LOG_FLAG_FATAL (1 << 1)
#define EHS_G_LOG_LEVEL_ERROR (1 << 2)
#define EHS_G_LOG_LEVEL_CRITICAL (1 << 3)
#define EHS_G_LOG_LEVEL_WARNING (1 << 4)
#define EHS_G_LOG_LEVEL_MESSAGE (1 << 5)
#define EHS_G_LOG_LEVEL_INFO (1 << 6)
#define EHS_G_LOG_LEVEL_DEBUG (1 << 7)
#define EHS_G_LOG_LEVEL_MASK (~(EHS_G_LOG_FLAG_RECURSION | EHS_G_LOG_FLAG_FATAL))

struct ehs_glog_field {
	const char *key;
	const void *value;
	ssize_t length;		/* -1: value is a NUL-terminated string */
};

/* The syslog severity of one GLib level.  User-defined levels (bit 8
 * and up) are NOTICE, as GLib's journald writer has them. */
static inline int ehs_glib_severity(unsigned level)
{
	if (level & EHS_G_LOG_LEVEL_ERROR)
		return LOG_CRIT;
	if (level & EHS_G_LOG_LEVEL_CRITICAL)
		return LOG_ERR;
	if (level & EHS_G_LOG_LEVEL_WARNING)
		return LOG_WARNING;
	if (level & EHS_G_LOG_LEVEL_MESSAGE)
		return LOG_NOTICE;
	if (level & EHS_G_LOG_LEVEL_INFO)
		return LOG_INFO;
	if (level & EHS_G_LOG_LEVEL_DEBUG)
		return LOG_DEBUG;
	return LOG_NOTICE;
}

static inline unsigned ehs_glib_facility(void)
{
	return (unsigned)LOG_FAC(ehs_ident_facility());
}

/*
 * g_logv writes a message once per level bit, from the highest bit
 * down; so do the events.  The flag bits (recursion, fatal) only change
 * what GLib does after writing.  Levels without any level bit make no
 * event, as GLib writes nothing for them.
 */
#define EHS_G_FOR_EACH_LEVEL(bit, level) \
	for (unsigned m_ = (unsigned)(level) & EHS_G_LOG_LEVEL_MASK, bit; \
	     m_ && (bit = 31 - (unsigned)__builtin_clz(m_), 1); m_ &= ~(1u << bit))

/* True when one of the events of a call at level is traced.  Untraced,
 * this is one load per level bit (a single one in every call the macros
 * make): inline, for the interposer's untraced path. */
static inline bool ehs_glib_wanted(int level)
{
	if (ehs_busy)
		return false;
	unsigned fac = ehs_glib_facility();
	EHS_G_FOR_EACH_LEVEL(bit, level)
		if (!ehs_idle(ehs_tracepoint(ehs_glib_severity(1u << bit), fac)))
			return true;
	return false;
}

/* g_log and g_logv: the message fmt formatted with ap (left unconsumed:
 * GLib formats it next); the domain names the event and is the
 * GLIB_DOMAIN field.  saved_errno is errno at the call. */
void ehs_glib_logv(const char *domain, int level, int saved_errno, const char *fmt,
		   va_list ap);

/* A structured call's fields[0..n): the message is the MESSAGE field's,
 * or fmt formatted with *ap (left unconsumed) when fmt is not NULL. */
void ehs_glib_structured(int level, int saved_errno, const struct ehs_glog_field *fields,
			 size_t n, const char *fmt, va_list *ap);

#endif
