/* SPDX-License-Identifier: MIT */
/*
 * What the descriptor wrappers (preload/fd.c) need to know about the
 * writer's descriptor.  The writer's fast path trusts a descriptor only
 * while it is ue__live_fd; the wrappers see the program close or replace
 * numbers and keep that true without a syscall per event.
 */
#ifndef UE_FDGUARD_H
#define UE_FDGUARD_H

#include <stdbool.h>

#include "bridge/hidden.h"

/* The number of our user_events_data descriptor, -1 when none or when it
 * may no longer be ours.  Written by the writer and the wrappers. */
extern EHS_HIDDEN int ue__live_fd;

/* One relaxed load: all a wrapper costs while nothing is open. */
static inline int ue__our_fd(void)
{
	return __atomic_load_n(&ue__live_fd, __ATOMIC_RELAXED);
}

/* The program is about to replace (or has reused) number fd: stop writing
 * there.  The next traced write opens a new descriptor and registers
 * again; the old number is left to the program.  Lock-free and
 * async-signal-safe. */
void ue__fd_lost(int fd);

/* True when fd still is the user_events_data we opened (one fstat); else
 * the program reused the number after a close we did not see (a raw
 * syscall), and fd is forgotten as by ue__fd_lost().  errno kept. */
bool ue__fd_check(int fd);

/* True when the program's close(), dup2()... are preload/fd.c's: the
 * library comes first in the global lookup order (preloaded or linked).
 * Not when it was dlopen()ed, or in the writer's unit tests (no
 * preload/, the weak reference is null). */
bool ue__fd_calls_seen(void) __attribute__((weak));

#endif /* UE_FDGUARD_H */
