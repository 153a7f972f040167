/* SPDX-License-Identifier: MIT */
/*
 * The GLib e2e program's expectations: before each logging call, one
 * line per event the call must make, to the file named by E2E_EXPECT,
 * for tests/e2e/glib_check.py:
 *   severity TAB name TAB file TAB line TAB errno TAB message-hex TAB extras
 * file "-" for none; extras comma-separated KEY=s:HEX (string) or
 * KEY=b:HEX (binary), "-" for none.  Computed from the call's own
 * arguments and libehsyslog(7)'s level mapping, never by the library.
 */
#ifndef E2E_GLIB_CALLS_H
#define E2E_GLIB_CALLS_H

#include <stddef.h>

struct want_extra {
	const char *key;
	const void *value;
	size_t len;
	int binary;
};

void want(int severity, const char *name, const char *file, unsigned line,
	  const char *msg, const struct want_extra *extra, size_t nextra);

/* The structured-macro calls (glib_structured.c, G_LOG_USE_STRUCTURED). */
void structured_macros(void);

#endif
