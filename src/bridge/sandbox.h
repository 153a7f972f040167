/* SPDX-License-Identifier: MIT */
/*
 * Whether a seccomp filter the program installed forbids a system call
 * the library makes (the interposer's prctl and seccomp calls find out
 * and set the flag).  Then the library is off for good: every call
 * passes through, and the socket watches (socket/socket.h) make no call
 * of their own.
 */
#ifndef EHS_BRIDGE_SANDBOX_H
#define EHS_BRIDGE_SANDBOX_H

#include "common/hidden.h"

extern EHS_HIDDEN int ehs_sandbox_closed;

static inline int ehs_sandboxed(void)
{
	return __atomic_load_n(&ehs_sandbox_closed, __ATOMIC_ACQUIRE);
}

#endif
