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
#include <stdint.h>

#include "common/hidden.h"

/* The number of our user_events_data descriptor, -1 when none or when it
 * may no longer be ours, UE_FD_WAITING when none because the last open
 * failed for a reason that may go away (descriptors ran out, say): then a
 * wrapper that sees the program free a descriptor calls ue__fds_freed().
 * Written by the writer and the wrappers. */
extern EHS_HIDDEN int ue__live_fd;
#define UE_FD_WAITING (-2)

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

/*
 * A dup2() or dup3() of the program may put its file at the writer's
 * number between the writer's check of the number and its writev().
 * Where the writer checks each write (its descriptor below the soft
 * limit) the two exclude each other: the wrapper announces its call and
 * waits for writes in progress to end (ue__swap_begin), a write announces
 * itself and waits for announced calls to end (ue__write_begin in the
 * writer).  Each side waits a bounded number of rounds, so a signal
 * handler that interrupts the other side in the same thread cannot hang.
 * ue__swaps_guarded: nonzero once the writer has had a checked
 * descriptor; until then a wrapper costs one more load.
 */
extern EHS_HIDDEN int ue__swaps_guarded;
void ue__swap_begin(void);
void ue__swap_end(void);

static inline bool ue__swaps_need_guard(void)
{
	return __atomic_load_n(&ue__swaps_guarded, __ATOMIC_RELAXED) != 0;
}

/* The program freed descriptors (close, close_range, closefrom, fclose)
 * while ue__live_fd was UE_FD_WAITING: the next traced write opens again
 * at once instead of waiting out the retry pause.  Lock-free and
 * async-signal-safe. */
void ue__fds_freed(void);

/* True when fd still is the user_events_data we opened (one fstat); else
 * the program reused the number after a close we did not see (a raw
 * syscall), and fd is forgotten as by ue__fd_lost().  errno kept. */
bool ue__fd_check(int fd);

/* The program is about to set RLIMIT_NOFILE (setrlimit, prlimit): from
 * now on each traced write checks its descriptor, since the new soft
 * limit may put the number in the program's reach.  Each call is
 * followed by one ue__nofile_changed(), whether the change succeeded or
 * not, which moves the descriptor past the limit if it can and tells
 * whether the writes may stop checking. */
void ue__nofile_changing(void);
void ue__nofile_changed(void);

/* The soft RLIMIT_NOFILE (raw syscall, not the wrappers); UINT64_MAX
 * when unlimited or unknown.  errno kept only on success. */
uint64_t ue__nofile_soft(void);

/* True when the program's close(), dup2()... are the wrappers of the
 * object the writer is linked into (libehsyslog.so comes first in the
 * global lookup order: preloaded or linked), so they see the program's
 * calls.  Not when it was dlopen()ed, nor in a build without the
 * wrappers (the writer's unit tests).  Looks up close once (dlsym may
 * allocate): call it where an allocation is allowed. */
bool ue__fd_wrappers_first(void);

/* Gives up the descriptor and every registration without a system call
 * (preload/seccomp.c, under a filter that forbids the library's calls). */
EHS_HIDDEN void ue__abandon(void);

#endif /* UE_FDGUARD_H */
