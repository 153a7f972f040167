/* SPDX-License-Identifier: MIT */
/*
 * GNU error(3) and error_at_line(3): the event and the text are the
 * bridge's (bridge/api/error.h), the call glibc's, handed the text as
 * "%s".  On x86-64 error() is a stub (error_stub.S) that goes on to
 * glibc's own when the call writes no event; this is where it jumps
 * otherwise.
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <errno.h>
#include <error.h>
#include <stdarg.h>
#include <syslog.h>

#include "bridge/api/error.h"
#include "preload/real.h"
#include "preload/stubs.h"

/* The real error or error_at_line (at), given the bridge's text. */
struct real_call {
	int status, errnum, saved;
	const struct ehs_error_line *at;
};

static void print_real(const char *text, void *ctx)
{
	const struct real_call *c = ctx;
	errno = c->saved;
	if (!c->at) {
		ehs_error_fn real = EHS_REAL(error);
		if (real)
			real(c->status, c->errnum, "%s", text);
	} else {
		ehs_error_at_line_fn real = EHS_REAL(error_at_line);
		if (real)
			real(c->status, c->errnum, c->at->file, c->at->line, "%s", text);
	}
}

#if EHS_STUBS
#define ERROR_ENTRY ehs_full_error
#define ERROR_VISIBILITY EHS_HIDDEN
#else
#define ERROR_ENTRY error
#define ERROR_VISIBILITY EHS_INTERPOSE
#endif

ERROR_VISIBILITY void ERROR_ENTRY(int status, int errnum, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	va_start(ap, fmt);
	ehs_real_init();
	/* With the configuration read, the stub may answer the next
	 * untraced call at this priority itself. */
	if (ehs_error_event(status, errnum, saved, NULL, fmt, ap))
		ehs_stub_arm(status ? LOG_ERR : LOG_WARNING, false);

	const struct real_call c = { status, errnum, saved, NULL };
	ehs_error_print(saved, fmt, ap, print_real, (void *)&c);
	va_end(ap);
	errno = saved;
}

EHS_INTERPOSE void error_at_line(int status, int errnum, const char *file,
				 unsigned line, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	va_start(ap, fmt);
	ehs_real_init();
	const struct ehs_error_line at = { file, line };
	ehs_error_event(status, errnum, saved, &at, fmt, ap);

	const struct real_call c = { status, errnum, saved, &at };
	ehs_error_print(saved, fmt, ap, print_real, (void *)&c);
	va_end(ap);
	errno = saved;
}
