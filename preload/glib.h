/* SPDX-License-Identifier: MIT */
/*
 * The part of GLib's ABI the interposer needs, declared here because the
 * library never includes or links GLib (a program without GLib must not
 * load it).  Values and layouts as in GLib's gmessages.h, unchanged
 * since GLib 2.50: GLogLevelFlags is a C enum (an int), GLogField is
 * { const gchar *key; gconstpointer value; gssize length; }.
 */
#ifndef EHS_PRELOAD_GLIB_H
#define EHS_PRELOAD_GLIB_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

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

typedef void (*ehs_g_logv_fn)(const char *, int, const char *, va_list);
typedef void (*ehs_g_log_structured_array_fn)(int, const struct ehs_glog_field *, size_t);
typedef char *(*ehs_g_strdup_vprintf_fn)(const char *, va_list);
typedef int (*ehs_g_vsnprintf_fn)(char *, unsigned long, const char *, va_list);
typedef void *(*ehs_g_malloc_n_fn)(size_t, size_t);
typedef void (*ehs_g_free_fn)(void *);

/* GLib's entry points the interposer defines, with GLib's prototypes. */
void g_log(const char *domain, int level, const char *fmt, ...);
void g_logv(const char *domain, int level, const char *fmt, va_list ap);
void g_log_structured(const char *domain, int level, ...);
void g_log_structured_standard(const char *domain, int level, const char *file,
			       const char *line, const char *func, const char *fmt, ...);
void g_log_structured_array(int level, const struct ehs_glog_field *fields, size_t n);

/* What the interposer calls in GLib, looked up with the rest (real.h). */
struct ehs_glib_fns {
	ehs_g_logv_fn logv;
	ehs_g_log_structured_array_fn log_structured_array;
	ehs_g_strdup_vprintf_fn strdup_vprintf;	/* to forward g_log_structured */
	ehs_g_vsnprintf_fn vsnprintf;
	ehs_g_malloc_n_fn malloc_n;
	ehs_g_free_fn free;
};

#endif
