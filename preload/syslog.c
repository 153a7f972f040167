/* SPDX-License-Identifier: MIT */
/*
 * syslog(3) and its fortified forms.  glibc's syslog calls its vsyslog
 * directly, not through the PLT, so each entry point is interposed and
 * each hands its own arguments to the bridge once.  On x86-64 the entry
 * points are stubs that return from an untraced call before it reaches
 * these functions, or goes on to glibc's in pass-through (see stubs.h).
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <errno.h>
#include <stdarg.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "bridge/pri_table.h"
#include "bridge/syslog_inline.h"
#include "preload/real.h"
#include "preload/stubs.h"

#if EHS_STUBS
/* The stubs in syslog_stubs.S are the entry points: these are where
 * they jump when the call has something to do. */
#define ENTRY(name) ehs_full_##name
#define ENTRY_VISIBILITY EHS_HIDDEN
#else
#define ENTRY(name) name
#define ENTRY_VISIBILITY EHS_INTERPOSE
#endif

/* True when the call has nothing left to do: replace mode and no event,
 * though one could be written (else the call goes on: ehs_deliverable).
 * No errno access, no call: this is the whole cost of an untraced
 * syslog() in replace mode without the stubs (with them, the C path is
 * only reached with something to do, if only registering pri's byte).
 * ehs_busy is not read either: a call made from inside the library (a
 * signal handler) with nobody tracing ends here like any other, where
 * the full path would pass it through. */
static inline bool replaced_and_idle(int pri)
{
	return ehs_config_mode() == EHS_MODE_REPLACE && ehs_syslog_idle(pri) &&
	       ehs_syslog_deliverable(pri);
}

/* A signal handler that logs while its thread is inside a logging call
 * is one level of nesting: its event is written too (once set up, the
 * bridge takes no lock and does not allocate with malloc).  Anything
 * deeper only passes through. */
#define NEST_MAX 2

/* chk: the caller used a _chk form, whose flag goes on unchanged.  The
 * bridge formats from *work, a copy of ap: ap stays whole for the real
 * vsyslog. */
static inline __attribute__((always_inline)) void
log_common(int pri, bool chk, int flag, const char *fmt, va_list ap, va_list *work)
{
	int saved = errno;
	bool pass = true, armed = false;

	if (ehs_busy < NEST_MAX) {
		/* The configuration unread: this is one of the first calls,
		 * where everything is resolved (see real.h). */
		int mode = ehs_config_mode();
		/* With the stubs, only a call whose byte says traced (or
		 * not registered yet) comes here: the bridge's own check of
		 * the tracepoint decides, without this one first. */
		if (mode == EHS_MODE_UNREAD || EHS_STUBS || !ehs_syslog_idle(pri)) {
			ehs_busy++;
			if (mode == EHS_MODE_UNREAD)
				ehs_real_init();
			struct ehs_vsyslog_done done =
				ehs_vsyslog_inline(pri, saved, fmt, ap, work);
			armed = done.routed;
			pass = ehs_passthrough() || !done.deliverable;
			ehs_busy--;
		} else {
			pass = mode == EHS_MODE_PASS || !ehs_syslog_deliverable(pri);
		}
		ehs_stub_arm(pri, armed);
	}
	errno = saved;
	/* Last, so that the program sees the errno glibc's call leaves (its
	 * failure to open the socket, say), as it would without us. */
	if (pass) {
		if (!chk) {
			ehs_vsyslog_fn real = EHS_REAL(vsyslog);
			if (real)
				real(pri, fmt, ap);
		} else {
			ehs_vsyslog_chk_fn real = EHS_REAL(vsyslog_chk);
			if (real)
				real(pri, flag, fmt, ap);
		}
	}
}

void __syslog_chk(int pri, int flag, const char *fmt, ...);
void __vsyslog_chk(int pri, int flag, const char *fmt, va_list ap);

ENTRY_VISIBILITY void ENTRY(syslog)(int pri, const char *fmt, ...)
{
	if (!EHS_STUBS && replaced_and_idle(pri))
		return;
	va_list ap, work;
	va_start(ap, fmt);
	va_copy(work, ap);
	log_common(pri, false, 0, fmt, ap, &work);
	va_end(work);
	va_end(ap);
}

ENTRY_VISIBILITY void ENTRY(vsyslog)(int pri, const char *fmt, va_list ap)
{
	if (!EHS_STUBS && replaced_and_idle(pri))
		return;
	va_list work;
	va_copy(work, ap);
	log_common(pri, false, 0, fmt, ap, &work);
	va_end(work);
}


ENTRY_VISIBILITY void ENTRY(__syslog_chk)(int pri, int flag, const char *fmt, ...)
{
	if (!EHS_STUBS && replaced_and_idle(pri))
		return;
	va_list ap, work;
	va_start(ap, fmt);
	va_copy(work, ap);
	log_common(pri, true, flag, fmt, ap, &work);
	va_end(work);
	va_end(ap);
}

ENTRY_VISIBILITY void ENTRY(__vsyslog_chk)(int pri, int flag, const char *fmt, va_list ap)
{
	if (!EHS_STUBS && replaced_and_idle(pri))
		return;
	va_list work;
	va_copy(work, ap);
	log_common(pri, true, flag, fmt, ap, &work);
	va_end(work);
}

EHS_INTERPOSE void openlog(const char *ident, int option, int facility)
{
	int saved = errno;
	ehs_real_init();
	ehs_openlog(ident, option, facility);
	errno = saved;
	ehs_openlog_fn real = EHS_REAL(openlog);
	if (real)
		real(ident, option, facility);	/* its errno is the program's */
}

EHS_INTERPOSE void closelog(void)
{
	int saved = errno;
	ehs_closelog();
	errno = saved;
	ehs_closelog_fn real = EHS_REAL(closelog);
	if (real)
		real();
}

EHS_INTERPOSE int setlogmask(int mask)
{
	int saved = errno;
	ehs_setlogmask(mask);
	errno = saved;
	ehs_setlogmask_fn real = EHS_REAL(setlogmask);
	return real ? real(mask) : 0;
}
