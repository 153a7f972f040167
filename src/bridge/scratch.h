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
 * compare-and-swap on a bitmap and given back with an atomic and: no
 * lock, so a signal handler that interrupts a call holding one simply
 * takes another.  When every slot is taken (many threads logging at
 * once, or the mapping failed) ehs_scratch_take answers NULL and the
 * caller uses its old buffer on the stack, in a frame of its own: the
 * event is the same, only its stack is the old one.  A slot is lost for
 * good only to a call that never returns (a handler's longjmp, a thread
 * cancelled in its writev, a fork while another thread holds one); then
 * there are fewer, never wrong ones.
 */
#ifndef EHS_BRIDGE_SCRATCH_H
#define EHS_BRIDGE_SCRATCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/hidden.h"

#define EHS_SCRATCH_SLOTS 16
#define EHS_SCRATCH_SIZE 8192

_Static_assert(EHS_SCRATCH_SLOTS <= sizeof(unsigned long) * CHAR_BIT,
	       "one bit of the bitmap per slot");

/* scratch.c's: the slots once mapped, else NULL; bit k of the bitmap
 * set while slot k is someone's. */
extern EHS_HIDDEN char *ehs_scratch_slots;
extern EHS_HIDDEN unsigned long ehs_scratch_taken;

/* The slots, mapped by the first caller; NULL when they cannot be. */
EHS_HIDDEN char *ehs_scratch_map(void);

/* A free slot, taken for the caller, or NULL when there is none.
 * Inline, as the traced syslog call makes no call of ours on its way. */
static inline void *ehs_scratch_take(void)
{
	char *all = __atomic_load_n(&ehs_scratch_slots, __ATOMIC_ACQUIRE);
	if (__builtin_expect(!all, 0) && !(all = ehs_scratch_map()))
		return NULL;
	unsigned long was = __atomic_load_n(&ehs_scratch_taken, __ATOMIC_RELAXED), bit;
	do {
		unsigned long free = ~was & (~0ul >> (sizeof was * CHAR_BIT - EHS_SCRATCH_SLOTS));
		if (!free)
			return NULL;
		bit = free & -free;	/* the lowest: the fewest pages touched */
	} while (!__atomic_compare_exchange_n(&ehs_scratch_taken, &was, was | bit, true,
					      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return all + (size_t)__builtin_ctzl(bit) * EHS_SCRATCH_SIZE;
}

/* Gives back the slot p (from ehs_scratch_take; NULL is nothing). */
static inline void ehs_scratch_give(void *p)
{
	if (!p)
		return;
	size_t k = (size_t)((char *)p - ehs_scratch_slots) / EHS_SCRATCH_SIZE;
	__atomic_fetch_and(&ehs_scratch_taken, ~(1ul << k), __ATOMIC_RELEASE);
}

#endif
