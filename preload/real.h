/* SPDX-License-Identifier: MIT */
/*
 * The real functions behind the interposed ones, found with
 * dlsym(RTLD_NEXT).  Not at load time: dlsym may allocate (glibc sets up
 * malloc for its error state: brk, getrandom), and a preloaded library
 * must make no syscall before the program first logs.  All of them are
 * resolved at once by the first interposed call of any kind (a logging
 * call, openlog, setlogmask...), so only a program whose very first such
 * call is made from a signal handler runs dlsym there, where an
 * allocation is not async-signal-safe.  libbsd's and GLib's are NULL
 * when the program does not load that library.  The descriptor wrappers
 * (fd.c) look theirs up one by one instead: close() is called by programs
 * that never log, and looking up libbsd's missing symbols is what
 * allocates.
 */
#ifndef EHS_PRELOAD_REAL_H
#define EHS_PRELOAD_REAL_H

#include <stdarg.h>

#include "common/hidden.h"
#include "preload/glib.h"

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
/* libsystemd's journal calls (preload/journal.c). */
struct iovec;
typedef int (*ehs_sd_printv_fn)(int, const char *, va_list);
typedef int (*ehs_sd_printv_loc_fn)(int, const char *, const char *, const char *,
				    const char *, va_list);
typedef int (*ehs_sd_sendv_fn)(const struct iovec *, int);
typedef int (*ehs_sd_sendv_loc_fn)(const char *, const char *, const char *,
				   const struct iovec *, int);
typedef int (*ehs_sd_perror_fn)(const char *);
typedef int (*ehs_sd_perror_loc_fn)(const char *, const char *, const char *, const char *);

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
	struct ehs_glib_fns glib;	/* GLib's, NULL without GLib */
	/* libsystemd, NULL when the program does not load it */
	ehs_sd_printv_fn sd_printv;
	ehs_sd_printv_loc_fn sd_printv_loc;
	ehs_sd_sendv_fn sd_sendv;
	ehs_sd_sendv_loc_fn sd_sendv_loc;
	ehs_sd_perror_fn sd_perror;
	ehs_sd_perror_loc_fn sd_perror_loc;
};

extern EHS_HIDDEN struct ehs_real ehs_real_fns;
extern EHS_HIDDEN int ehs_real_done;	/* set once every pointer is stored */

/* Looks every function up (again); idempotent. */
void ehs_real_resolve(void);

/* Resolves unless done.  Cheap once done: call it first thing in every
 * wrapper's full path. */
static inline void ehs_real_init(void)
{
	if (__builtin_expect(!__atomic_load_n(&ehs_real_done, __ATOMIC_ACQUIRE), 0))
		ehs_real_resolve();
}

/* The real function, or NULL: EHS_REAL(vsyslog).  Resolves first. */
#define EHS_REAL(field) \
	(ehs_real_init(), __atomic_load_n(&ehs_real_fns.field, __ATOMIC_RELAXED))

#endif
