/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <error.h>
#include <string.h>
#include <syslog.h>

#include "bridge/api/error.h"
#include "bridge/bridge.h"
#include "bridge/format/text.h"
#include "bridge/scratch.h"

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

bool ehs_error_event(int status, int errnum, int saved, const struct ehs_error_line *at,
		     const char *fmt, va_list ap)
{
	if (at && repeated_line(at->file, at->line))
		return false;
	return ehs_report_outside(status ? LOG_ERR : LOG_WARNING, saved, errnum ? errnum : -1,
				  at ? (at->file ? at->file : "") : NULL, at ? at->line : 0, fmt,
				  ap);
}

/* One print's text on its way to glibc's function. */
struct print_call {
	int saved;
	const char *fmt;
	va_list *ap;
	ehs_error_print_fn *print;
	void *ctx;
};

static int print_in(void *buf, void *ctx)
{
	const struct print_call *c = ctx;
	struct ehs_text t;
	va_list copy;
	va_copy(copy, *c->ap);
	bool ok = ehs_text_vformat(&t, buf, c->saved, -1, c->fmt, copy) == 0;
	va_end(copy);
	c->print(ok ? t.p : "", c->ctx);
	if (ok)
		ehs_text_free(&t);
	return 0;
}

/* The text in a scratch slot, not this frame: glibc's error takes stack
 * enough of its own below it. */
void ehs_error_print(int saved, const char *fmt, va_list ap, ehs_error_print_fn *print,
		     void *ctx)
{
	va_list copy;
	va_copy(copy, ap);
	struct print_call c = { saved, fmt, &copy, print, ctx };
	ehs_scratch_run(EHS_TEXT_STACK, print_in, &c);
	va_end(copy);
}
