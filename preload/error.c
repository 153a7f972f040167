/* SPDX-License-Identifier: MIT */
/*
 * GNU error(3) and error_at_line(3).  They have no va_list form, so the
 * message is formatted here once and handed to the real function as
 * "%s": it still flushes stdout, prints argv[0] or calls
 * error_print_progname, counts error_message_count and exits.  On
 * x86-64 error() is a stub (error_stub.S) that goes on to glibc's own
 * when the call writes no event; this is where it jumps otherwise.
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <errno.h>
#include <error.h>
#include <stdarg.h>
#include <string.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "bridge/scratch.h"
#include "bridge/text.h"
#include "preload/real.h"
#include "preload/stubs.h"

/* Writes the event; false when the library was busy (a nested call). */
static bool report(int status, int errnum, int saved, const char *file,
		   unsigned line, const char *fmt, va_list ap)
{
	if (ehs_busy)
		return false;
	ehs_real_init();
	ehs_busy = 1;
	va_list copy;
	va_copy(copy, ap);
	ehs_report(status ? LOG_ERR : LOG_WARNING, saved, errnum ? errnum : -1,
		   file, line, fmt, copy);
	va_end(copy);
	ehs_busy = 0;
	return true;
}

/* glibc prints nothing for a repeat of the previous file and line while
 * error_one_per_line is set; the event follows the same rule (and the
 * same unlocked state, as glibc keeps it). */
static bool repeated_line(const char *file, unsigned line)
{
	static const char *old_file;
	static unsigned old_line;

	if (!error_one_per_line)
		return false;
	if (old_line == line &&
	    (file == old_file || (old_file && file && strcmp(old_file, file) == 0)))
		return true;
	old_file = file;
	old_line = line;
	return false;
}

/* error_at_line's place, or error's (given false). */
struct at_line {
	bool given;
	const char *file;
	unsigned line;
};

static const struct at_line no_line;

/* The real error or error_at_line, with the text of fmt formatted into
 * buf (EHS_TEXT_STACK bytes); it may exit. */
static void print_in(char *buf, int status, int errnum, int saved, const struct at_line *at,
		     const char *fmt, va_list ap)
{
	struct ehs_text t;
	bool ok = ehs_text_vformat(&t, buf, saved, -1, fmt, ap) == 0;
	const char *text = ok ? t.p : "";
	errno = saved;
	if (!at->given) {
		ehs_error_fn real = EHS_REAL(error);
		if (real)
			real(status, errnum, "%s", text);
	} else {
		ehs_error_at_line_fn real = EHS_REAL(error_at_line);
		if (real)
			real(status, errnum, at->file, at->line, "%s", text);
	}
	if (ok)
		ehs_text_free(&t);
}

/* print_in with the buffer on the stack, for a call that found no
 * scratch slot: its frame only then. */
static __attribute__((noinline)) void print_on_stack(int status, int errnum, int saved,
						     const struct at_line *at,
						     const char *fmt, va_list ap)
{
	char buf[EHS_TEXT_STACK];
	print_in(buf, status, errnum, saved, at, fmt, ap);
}

/* The text in a scratch slot (scratch.h), not this frame: glibc's error
 * takes stack enough of its own below it. */
static void print(int status, int errnum, int saved, const struct at_line *at,
		  const char *fmt, va_list ap)
{
	char *buf = ehs_scratch_take();
	if (!buf) {
		print_on_stack(status, errnum, saved, at, fmt, ap);
		return;
	}
	print_in(buf, status, errnum, saved, at, fmt, ap);
	ehs_scratch_give(buf);
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
	/* With the configuration read, the stub may answer the next
	 * untraced call at this priority itself. */
	if (report(status, errnum, saved, NULL, 0, fmt, ap))
		ehs_stub_arm(status ? LOG_ERR : LOG_WARNING, false);

	print(status, errnum, saved, &no_line, fmt, ap);
	va_end(ap);
	errno = saved;
}

EHS_INTERPOSE void error_at_line(int status, int errnum, const char *file,
				 unsigned line, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	va_start(ap, fmt);
	if (!repeated_line(file, line))
		report(status, errnum, saved, file ? file : "", line, fmt, ap);

	const struct at_line at = { true, file, line };
	print(status, errnum, saved, &at, fmt, ap);
	va_end(ap);
	errno = saved;
}
