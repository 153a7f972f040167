/* SPDX-License-Identifier: MIT */
/*
 * The real functions behind the interposed ones, found with
 * dlsym(RTLD_NEXT) from a constructor (dlsym may allocate: never from a
 * logging call if it can be helped, never from a signal handler).
 * libbsd's are NULL when the program does not load libbsd.
 */
#ifndef EHS_PRELOAD_REAL_H
#define EHS_PRELOAD_REAL_H

#include <stdarg.h>

/* Interposed symbols are the library's only exports besides its API. */
#define EHS_INTERPOSE __attribute__((visibility("default")))

typedef void (*ehs_vsyslog_fn)(int, const char *, va_list);
typedef void (*ehs_vsyslog_chk_fn)(int, int, const char *, va_list);
typedef void (*ehs_openlog_fn)(const char *, int, int);
typedef void (*ehs_closelog_fn)(void);
typedef int (*ehs_setlogmask_fn)(int);
typedef void (*ehs_verr_fn)(int, const char *, va_list) __attribute__((noreturn));
typedef void (*ehs_vwarn_fn)(const char *, va_list);
typedef void (*ehs_error_fn)(int, int, const char *, ...);
typedef void (*ehs_error_at_line_fn)(int, int, const char *, unsigned, const char *, ...);
typedef void (*ehs_verrc_fn)(int, int, const char *, va_list) __attribute__((noreturn));
typedef void (*ehs_vwarnc_fn)(int, const char *, va_list);

struct ehs_real {
	ehs_vsyslog_fn vsyslog;
	ehs_vsyslog_chk_fn vsyslog_chk;
	ehs_openlog_fn openlog;
	ehs_closelog_fn closelog;
	ehs_setlogmask_fn setlogmask;
	ehs_verr_fn verr, verrx;
	ehs_vwarn_fn vwarn, vwarnx;
	ehs_error_fn error;
	ehs_error_at_line_fn error_at_line;
	ehs_verrc_fn verrc;	/* libbsd, may be NULL */
	ehs_vwarnc_fn vwarnc;	/* libbsd, may be NULL */
};

/* The table, resolved on first use if the constructor has not run yet
 * (another library's constructor may log before ours runs). */
const struct ehs_real *ehs_real(void);

#endif
