/* SPDX-License-Identifier: MIT */
/*
 * For the declarations of variables the fast path reads.  -fvisibility
 * covers definitions only: a plain extern declaration makes the compiler
 * fetch the address from the GOT first (one more load per variable per
 * call).  Declared hidden, the variable is read PC-relative in one load.
 */
#ifndef EHS_COMMON_HIDDEN_H
#define EHS_COMMON_HIDDEN_H

#define EHS_HIDDEN __attribute__((visibility("hidden")))

#endif
