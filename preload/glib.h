/* SPDX-License-Identifier: MIT */
/*
 * GLib's entry points the interposer defines, and those it calls, with
 * GLib's prototypes; the levels and GLogField are in bridge/api/glib.h, as
 * the library never includes or links GLib (a program without GLib must
 * not load it).
 */
#ifndef EHS_PRELOAD_GLIB_H
#define EHS_PRELOAD_GLIB_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#include "bridge/api/glib.h"

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
