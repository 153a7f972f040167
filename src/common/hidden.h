/* SPDX-License-Identifier: MIT */
/*
 * Visibility inside libehsyslog.so.  EHS_HIDDEN: for the declarations of
 * variables the fast path reads.  -fvisibility covers definitions only:
 * a plain extern declaration makes the compiler fetch the address from
 * the GOT first (one more load per variable per call).  Declared hidden,
 * the variable is read PC-relative in one load.
 */
#ifndef EHS_COMMON_HIDDEN_H
#define EHS_COMMON_HIDDEN_H

#define EHS_HIDDEN __attribute__((visibility("hidden")))

/*
 * own, a hidden second name of fn, an exported function defined in the
 * same file: the library's own calls of it through own are bound when
 * the library is linked, never through its PLT to whichever object of
 * the process defines fn's name first.
 */
#define EHS_HIDDEN_ALIAS(fn, own) \
	extern __typeof(fn) own __attribute__((alias(#fn), visibility("hidden")))

#endif
