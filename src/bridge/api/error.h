/* SPDX-License-Identifier: MIT */
/*
 * GNU error(3) and error_at_line(3): their events, and the text glibc's
 * own functions are handed.  They have no va_list form, so the
 * interposer (preload/error.c) calls glibc's with "%s" and the text made
 * here once: glibc still flushes stdout, prints argv[0] or calls
 * error_print_progname, counts error_message_count and exits.
 */
#ifndef EHS_BRIDGE_ERROR_H
#define EHS_BRIDGE_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

/* error_at_line's place (file may be NULL); error has none. */
struct ehs_error_line {
	const char *file;
	unsigned line;
};

/* The event of error(status, errnum, fmt, ...) (at NULL) or of
 * error_at_line(status, errnum, at->file, at->line, fmt, ...): LOG_ERR
 * for a status that exits, else LOG_WARNING.  None for a nested call,
 * nor for a repeat of the previous file and line while
 * error_one_per_line is set (glibc prints nothing then).  Whether an
 * event was tried.  saved is errno at the call; ap is not consumed. */
bool ehs_error_event(int status, int errnum, int saved, const struct ehs_error_line *at,
		     const char *fmt, va_list ap);

/* glibc's function, given the text ("" where it cannot be formatted). */
typedef void ehs_error_print_fn(const char *text, void *ctx);

/* fmt formatted as glibc would (saved for %m), in a scratch slot or
 * else on the stack, and handed to print, which may not return (an
 * error that exits).  ap is not consumed. */
void ehs_error_print(int saved, const char *fmt, va_list ap, ehs_error_print_fn *print,
		     void *ctx);

#endif
