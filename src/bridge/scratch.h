/* SPDX-License-Identifier: MIT */
/*
 * Room for one traced call's big buffers (a formatted text, a socket
 * message's record, an event's heads) off the stack: a signal handler
 * may log on a small sigaltstack, and every path it reaches is to take
 * at most 2 KiB of stack more than libc's own call (issue 35).
 *
 * A few slots of EHS_SCRATCH_SIZE bytes, mapped once, at the first
 * call that takes one (in .bss they would cost every program a mapping
 * at start-up: common/map_once.h).  A slot is claimed with a
 * compare-and-swap on a byte of its own and given back with a plain
 * store (one locked instruction a call, not two): no lock, so a signal
 * handler that interrupts a call holding one simply takes another.  A
 * call holds one to four at once (a socket message: its gathering, its
 * record, its event's heads, a uprobe's strings).  When every slot is
 * taken (many threads logging at once, or the mapping failed)
 * ehs_scratch_take answers NULL and the caller uses its old buffer on
 * the stack, in a frame of its own: the event is the same, only its
 * stack is the old one.  A slot is lost for good only to a call that
 * never returns (a handler's longjmp, a thread cancelled in its writev,
 * a fork while another thread holds one); then there are fewer, never
 * wrong ones.
 */
#ifndef EHS_BRIDGE_SCRATCH_H
#define EHS_BRIDGE_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "common/hidden.h"

#define EHS_SCRATCH_SLOTS 16
#define EHS_SCRATCH_SIZE 8192

/* scratch.c's: the slots once mapped, else NULL; byte k of taken is 1
 * while slot k is someone's. */
extern EHS_HIDDEN char *ehs_scratch_slots;
extern EHS_HIDDEN unsigned char ehs_scratch_taken[EHS_SCRATCH_SLOTS];

/* The slots, mapped by the first caller; NULL when they cannot be. */
EHS_HIDDEN char *ehs_scratch_map(void);

/* A free slot, taken for the caller, or NULL when there is none: the
 * lowest free one, so that the fewest pages are touched.  Inline, as the
 * traced syslog call makes no call of ours on its way. */
static inline void *ehs_scratch_take(void)
{
	char *all = __atomic_load_n(&ehs_scratch_slots, __ATOMIC_ACQUIRE);
	if (__builtin_expect(!all, 0) && !(all = ehs_scratch_map()))
		return NULL;
	for (size_t k = 0; k < EHS_SCRATCH_SLOTS; k++) {
		unsigned char free = 0;
		if (!__atomic_load_n(&ehs_scratch_taken[k], __ATOMIC_RELAXED) &&
		    __atomic_compare_exchange_n(&ehs_scratch_taken[k], &free, 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return all + k * EHS_SCRATCH_SIZE;
	}
	return NULL;
}

/* Gives back the slot p (from ehs_scratch_take; NULL is nothing): a
 * plain store, each slot having a byte of its own. */
static inline void ehs_scratch_give(void *p)
{
	if (!p)
		return;
	size_t k = (size_t)((char *)p - ehs_scratch_slots) / EHS_SCRATCH_SIZE;
	__atomic_store_n(&ehs_scratch_taken[k], 0, __ATOMIC_RELEASE);
}

#endif
