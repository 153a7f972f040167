/* SPDX-License-Identifier: MIT */
/* The GLib macros under G_LOG_USE_STRUCTURED: g_log_structured_standard
 * with the caller's file, line and function. */
#define G_LOG_USE_STRUCTURED 1
#define G_LOG_DOMAIN "glibtest-std"
#include <glib.h>

#include <syslog.h>

#include "glib_calls.h"

#define EXTRAS(func) \
	{ "CODE_FUNC", func, sizeof func - 1, 0 }, \
	{ "GLIB_DOMAIN", G_LOG_DOMAIN, sizeof G_LOG_DOMAIN - 1, 0 }

void structured_macros(void)
{
	static const struct want_extra x[] = { EXTRAS("structured_macros") };

	want(LOG_NOTICE, G_LOG_DOMAIN, __FILE__, __LINE__ + 1, "s-message 1", x, 2);
	g_message("s-message %d", 1);
	want(LOG_WARNING, G_LOG_DOMAIN, __FILE__, __LINE__ + 1, "s-warning", x, 2);
	g_warning("s-warning");
	want(LOG_ERR, G_LOG_DOMAIN, __FILE__, __LINE__ + 1, "s-critical", x, 2);
	g_critical("s-critical");
	want(LOG_INFO, G_LOG_DOMAIN, __FILE__, __LINE__ + 1, "s-info", x, 2);
	g_info("s-info");
	want(LOG_DEBUG, G_LOG_DOMAIN, __FILE__, __LINE__ + 1, "s-debug", x, 2);
	g_debug("s-debug");
}
