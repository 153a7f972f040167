/* SPDX-License-Identifier: MIT */
/*
 * syslog(3) and its fortified forms.  glibc's syslog calls its vsyslog
 * directly, not through the PLT, so each entry point is interposed and
 * each hands its own arguments to the bridge once.
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <errno.h>
#include <stdarg.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "preload/real.h"

/* A signal handler that logs while its thread is inside a logging call
 * is one level of nesting: its event is written too (once set up, the
 * bridge takes no lock and does not allocate with malloc).  Anything
 * deeper only passes through. */
#define NEST_MAX 2

/* chk: the caller used a _chk form, whose flag goes on unchanged. */
static void log_common(int pri, bool chk, int flag, const char *fmt, va_list ap)
{
	int saved = errno;
	bool pass = true;

	if (ehs_busy < NEST_MAX) {
		ehs_busy++;
		va_list copy;
		va_copy(copy, ap);
		ehs_vsyslog(pri, saved, fmt, copy);
		va_end(copy);
		pass = ehs_passthrough();
		ehs_busy--;
	}
	if (pass) {
		const struct ehs_real *r = ehs_real();
		errno = saved;
		if (!chk && r->vsyslog)
			r->vsyslog(pri, fmt, ap);
		else if (chk && r->vsyslog_chk)
			r->vsyslog_chk(pri, flag, fmt, ap);
	}
	errno = saved;
}

EHS_INTERPOSE void syslog(int pri, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_common(pri, false, 0, fmt, ap);
	va_end(ap);
}

EHS_INTERPOSE void vsyslog(int pri, const char *fmt, va_list ap)
{
	log_common(pri, false, 0, fmt, ap);
}

void __syslog_chk(int pri, int flag, const char *fmt, ...);
void __vsyslog_chk(int pri, int flag, const char *fmt, va_list ap);

EHS_INTERPOSE void __syslog_chk(int pri, int flag, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_common(pri, true, flag, fmt, ap);
	va_end(ap);
}

EHS_INTERPOSE void __vsyslog_chk(int pri, int flag, const char *fmt, va_list ap)
{
	log_common(pri, true, flag, fmt, ap);
}

EHS_INTERPOSE void openlog(const char *ident, int option, int facility)
{
	int saved = errno;
	ehs_openlog(ident, option, facility);
	const struct ehs_real *r = ehs_real();
	if (r->openlog)
		r->openlog(ident, option, facility);
	errno = saved;
}

EHS_INTERPOSE void closelog(void)
{
	int saved = errno;
	ehs_closelog();
	const struct ehs_real *r = ehs_real();
	if (r->closelog)
		r->closelog();
	errno = saved;
}

EHS_INTERPOSE int setlogmask(int mask)
{
	int saved = errno;
	ehs_setlogmask(mask);
	const struct ehs_real *r = ehs_real();
	int old = r->setlogmask ? r->setlogmask(mask) : 0;
	errno = saved;
	return old;
}
