/* SPDX-License-Identifier: MIT */
/*
 * libsystemd's sd_journal_print, _printv, _send, _sendv and _perror, and
 * their _with_location forms (what sd-journal.h's macros call unless
 * SD_JOURNAL_SUPPRESS_LOCATION is defined).  Each hands its call to the
 * bridge (bridge/api/journal_call.h: the event, and whether the call
 * goes on), then to libsystemd, which sends journald exactly what it
 * did without the library.
 *
 * The library does not link libsystemd: the prototypes are our own
 * (sd_journal.h), the real functions found with dlsym.  A program without
 * libsystemd never calls these.
 *
 * The real function runs with ehs_busy raised: libsystemd's calls of its
 * own entry points (print calls printv, everything ends in sendv) make
 * no event and pass straight through, as does a journal call from a
 * signal handler that interrupted a logging call.
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/uio.h>

#include "bridge/bridge.h"
#include "bridge/api/journal_call.h"
#include "preload/real.h"
#include "preload/sd_journal.h"

/* libsystemd as a dependency of a plugin loaded with dlopen (RTLD_LOCAL,
 * the default) is out of RTLD_NEXT's reach: ask the loaded copy for the
 * symbol, never loading one (RTLD_NOLOAD).  Not kept: the plugin may be
 * unloaded, and libsystemd with it. */
static void *loaded_libsystemd_sym(const char *name)
{
	void *h = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		return NULL;
	void *p = dlsym(h, name);
	dlclose(h);	/* only the reference RTLD_NOLOAD added */
	return p;
}

/* var = the real function.  Where libsystemd came after the first
 * logging call resolved everything, look again (RTLD_GLOBAL), then in a
 * plugin's copy; only a call that would fail otherwise pays for it. */
#define JOURNAL_REAL(var, field, name) do { \
	var = EHS_REAL(field); \
	if (!var) { \
		ehs_real_resolve(); \
		var = EHS_REAL(field); \
	} \
	if (!var) { \
		void *p_ = loaded_libsystemd_sym(name); \
		__builtin_memcpy(&var, &p_, sizeof p_); \
	} \
} while (0)

typedef struct ehs_journal_location location;

static int print_common(int priority, const location *loc, const char *format, va_list ap)
{
	int saved = errno;
	ehs_real_init();
	ehs_journal_print_event(saved, priority, loc, format, ap);
	int r = ehs_journal_print_answer(priority, format);
	if (ehs_journal_pass_on(priority, -1)) {
		errno = saved;
		ehs_busy++;
		if (loc) {
			ehs_sd_printv_loc_fn real;
			JOURNAL_REAL(real, sd_printv_loc, "sd_journal_printv_with_location");
			r = real ? real(priority, loc->file, loc->line, loc->func, format, ap) : -ENOSYS;
		} else {
			ehs_sd_printv_fn real;
			JOURNAL_REAL(real, sd_printv, "sd_journal_printv");
			r = real ? real(priority, format, ap) : -ENOSYS;
		}
		ehs_busy--;
	}
	errno = saved;
	return r;
}

EHS_INTERPOSE int sd_journal_print(int priority, const char *format, ...)
{
	if (ehs_journal_print_idle(priority))
		return ehs_journal_print_answer(priority, format);
	va_list ap;
	va_start(ap, format);
	int r = print_common(priority, NULL, format, ap);
	va_end(ap);
	return r;
}

EHS_INTERPOSE int sd_journal_printv(int priority, const char *format, va_list ap)
{
	if (ehs_journal_print_idle(priority))
		return ehs_journal_print_answer(priority, format);
	return print_common(priority, NULL, format, ap);
}

EHS_INTERPOSE int sd_journal_print_with_location(int priority, const char *file,
						 const char *line, const char *func,
						 const char *format, ...)
{
	if (ehs_journal_print_idle(priority))
		return ehs_journal_print_answer(priority, format);
	const location loc = { file, line, func };
	va_list ap;
	va_start(ap, format);
	int r = print_common(priority, &loc, format, ap);
	va_end(ap);
	return r;
}

EHS_INTERPOSE int sd_journal_printv_with_location(int priority, const char *file,
						  const char *line, const char *func,
						  const char *format, va_list ap)
{
	if (ehs_journal_print_idle(priority))
		return ehs_journal_print_answer(priority, format);
	const location loc = { file, line, func };
	return print_common(priority, &loc, format, ap);
}

/* libsystemd's sendv, or sendv_with_location for a location. */
static int real_sendv(const struct iovec *iov, int n, const location *loc)
{
	if (loc) {
		ehs_sd_sendv_loc_fn real;
		JOURNAL_REAL(real, sd_sendv_loc, "sd_journal_sendv_with_location");
		return real ? real(loc->file, loc->line, loc->func, iov, n) : -ENOSYS;
	}
	ehs_sd_sendv_fn real;
	JOURNAL_REAL(real, sd_sendv, "sd_journal_sendv");
	return real ? real(iov, n) : -ENOSYS;
}

EHS_INTERPOSE int sd_journal_sendv(const struct iovec *iov, int n)
{
	ehs_real_init();
	return ehs_journal_sendv(iov, n, NULL, real_sendv);
}

EHS_INTERPOSE int sd_journal_sendv_with_location(const char *file, const char *line,
						 const char *func, const struct iovec *iov, int n)
{
	const location loc = { file, line, func };
	ehs_real_init();
	return ehs_journal_sendv(iov, n, &loc, real_sendv);
}

/* send has no va_list form to hand on: the bridge formats its fields as
 * libsystemd would, and they go to the real sendv, as libsystemd's send
 * hands them. */
EHS_INTERPOSE int sd_journal_send(const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	ehs_real_init();
	int r = ehs_journal_send(NULL, format, ap, real_sendv);
	va_end(ap);
	return r;
}

EHS_INTERPOSE int sd_journal_send_with_location(const char *file, const char *line,
						const char *func, const char *format, ...)
{
	const location loc = { file, line, func };
	va_list ap;
	va_start(ap, format);
	ehs_real_init();
	int r = ehs_journal_send(&loc, format, ap, real_sendv);
	va_end(ap);
	return r;
}

static int perror_common(const location *loc, const char *message)
{
	int saved = errno;
	ehs_real_init();
	ehs_journal_perror_event(saved, loc, message);
	int r = 0;
	if (ehs_journal_pass_on(LOG_ERR, -1)) {
		errno = saved;
		ehs_busy++;
		if (loc) {
			ehs_sd_perror_loc_fn real;
			JOURNAL_REAL(real, sd_perror_loc, "sd_journal_perror_with_location");
			r = real ? real(loc->file, loc->line, loc->func, message) : -ENOSYS;
		} else {
			ehs_sd_perror_fn real;
			JOURNAL_REAL(real, sd_perror, "sd_journal_perror");
			r = real ? real(message) : -ENOSYS;
		}
		ehs_busy--;
	}
	errno = saved;
	return r;
}

EHS_INTERPOSE int sd_journal_perror(const char *message)
{
	return perror_common(NULL, message);
}

EHS_INTERPOSE int sd_journal_perror_with_location(const char *file, const char *line,
						  const char *func, const char *message)
{
	const location loc = { file, line, func };
	return perror_common(&loc, message);
}
