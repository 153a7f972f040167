/* SPDX-License-Identifier: MIT */
/*
 * BSD err(3)/warn(3) as glibc has them.  glibc's err calls verr and
 * verr calls vwarn directly, so each of the eight is interposed and each
 * reports once, then hands its arguments to the real va_list form.
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "preload/real.h"

/* Reports unless already inside the library; with_errno adds
 * ": strerror(errno)" as err()/warn() print it. */
static void report(int severity, bool with_errno, const char *fmt, va_list ap)
{
	int saved = errno;
	ehs_real_init();
	ehs_report_outside(severity, saved, with_errno ? saved : -1, NULL, 0, fmt, ap);
	errno = saved;
}

static __attribute__((noreturn)) void die(int eval, bool with_errno,
					  const char *fmt, va_list ap)
{
	report(LOG_ERR, with_errno, fmt, ap);
	ehs_verr_fn real = with_errno ? EHS_REAL(verr) : EHS_REAL(verrx);
	if (real)
		real(eval, fmt, ap);
	exit(eval);
}

static void complain(bool with_errno, const char *fmt, va_list ap)
{
	int saved = errno;
	report(LOG_WARNING, with_errno, fmt, ap);
	ehs_vwarn_fn real = with_errno ? EHS_REAL(vwarn) : EHS_REAL(vwarnx);
	if (real)
		real(fmt, ap);
	errno = saved;
}

EHS_INTERPOSE void verr(int eval, const char *fmt, va_list ap)
{
	die(eval, true, fmt, ap);
}

EHS_INTERPOSE void verrx(int eval, const char *fmt, va_list ap)
{
	die(eval, false, fmt, ap);
}

EHS_INTERPOSE void err(int eval, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	die(eval, true, fmt, ap);
}

EHS_INTERPOSE void errx(int eval, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	die(eval, false, fmt, ap);
}

EHS_INTERPOSE void vwarn(const char *fmt, va_list ap)
{
	complain(true, fmt, ap);
}

EHS_INTERPOSE void vwarnx(const char *fmt, va_list ap)
{
	complain(false, fmt, ap);
}

EHS_INTERPOSE void warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	complain(true, fmt, ap);
	va_end(ap);
}

EHS_INTERPOSE void warnx(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	complain(false, fmt, ap);
	va_end(ap);
}
