/* SPDX-License-Identifier: MIT */
/*
 * libbsd's errc/verrc/warnc/vwarnc, defined here so the library needs no
 * libbsd.  libbsd's own errc calls verrc and its verrc calls vwarnc
 * through the PLT, which would land back here: the real function runs
 * with ehs_busy set, so those inner calls only pass through.  Without
 * libbsd in the process the output is produced the way libbsd does.
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "preload/next.h"
#include "preload/real.h"

void errc(int eval, int code, const char *fmt, ...) __attribute__((noreturn));
void verrc(int eval, int code, const char *fmt, va_list ap) __attribute__((noreturn));
void warnc(int code, const char *fmt, ...);
void vwarnc(int code, const char *fmt, va_list ap);

/* libc's vfprintf: the library's own exports (stdio.c) are not called
 * through its PLT, and this output is no line of the program's, as
 * glibc's warn() writes its own past every interposer. */
typedef int (*vfprintf_fn)(FILE *, const char *, va_list);
static void *real_vfprintf;

static void print_real(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void vprint_real(const char *fmt, va_list ap)
{
	NEXT(vfprintf_fn, real, real_vfprintf, "vfprintf");
	if (real)
		real(stderr, fmt, ap);
}

static void print_real(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprint_real(fmt, ap);
	va_end(ap);
}

/* libbsd's vwarnc output: "prog: fmt: strerror(code)\n". */
static void print_like_libbsd(int code, const char *fmt, va_list ap)
{
	print_real("%s: ", program_invocation_short_name);
	if (fmt) {
		vprint_real(fmt, ap);
		print_real(": ");
	}
	print_real("%s\n", strerror(code));
}

/* Reports once, then runs the real function (or the fallback) with the
 * guard held.  Returns only for warnings. */
static void bsd_common(bool fatal, int eval, int code, const char *fmt, va_list ap)
{
	int saved = errno;
	ehs_real_init();
	int was_busy = ehs_busy;
	if (!was_busy) {
		ehs_busy = 1;
		va_list copy;
		va_copy(copy, ap);
		ehs_report(fatal ? LOG_ERR : LOG_WARNING, saved, code, NULL, 0, fmt, copy);
		va_end(copy);
	}
	ehs_verrc_fn real_verrc = EHS_REAL(verrc);
	ehs_vwarnc_fn real_vwarnc = EHS_REAL(vwarnc);
	errno = saved;
	if (fatal && real_verrc)
		real_verrc(eval, code, fmt, ap);
	if (!fatal && real_vwarnc)
		real_vwarnc(code, fmt, ap);
	else
		print_like_libbsd(code, fmt, ap);
	if (fatal)
		exit(eval);
	ehs_busy = was_busy;
	errno = saved;
}

EHS_INTERPOSE void verrc(int eval, int code, const char *fmt, va_list ap)
{
	bsd_common(true, eval, code, fmt, ap);
	exit(eval);
}

EHS_INTERPOSE void errc(int eval, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bsd_common(true, eval, code, fmt, ap);
	exit(eval);
}

EHS_INTERPOSE void vwarnc(int code, const char *fmt, va_list ap)
{
	bsd_common(false, 0, code, fmt, ap);
}

EHS_INTERPOSE void warnc(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bsd_common(false, 0, code, fmt, ap);
	va_end(ap);
}
