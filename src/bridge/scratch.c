/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/scratch.h"

#include <limits.h>

#include "common/map_once.h"

_Static_assert(EHS_SCRATCH_SLOTS <= sizeof(unsigned long) * CHAR_BIT,
	       "one bit of the bitmap per slot");

/* The slots, mapped by the first taker; bit k of taken set while slot k
 * is someone's. */
static void *slots;
static unsigned long taken;

#define ALL_SLOTS (~0ul >> (sizeof(unsigned long) * CHAR_BIT - EHS_SCRATCH_SLOTS))

void *ehs_scratch_take(void)
{
	unsigned long was = __atomic_load_n(&taken, __ATOMIC_RELAXED), bit;
	do {
		unsigned long free = ~was & ALL_SLOTS;
		if (!free)
			return NULL;
		bit = free & -free;	/* the lowest: the fewest pages touched */
	} while (!__atomic_compare_exchange_n(&taken, &was, was | bit, true, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	char *all = ehs_map_once(&slots, (size_t)EHS_SCRATCH_SLOTS * EHS_SCRATCH_SIZE);
	if (!all) {
		__atomic_fetch_and(&taken, ~bit, __ATOMIC_RELEASE);
		return NULL;
	}
	return all + (size_t)__builtin_ctzl(bit) * EHS_SCRATCH_SIZE;
}

void ehs_scratch_give(void *p)
{
	if (!p)
		return;
	size_t k = (size_t)((char *)p - (char *)__atomic_load_n(&slots, __ATOMIC_RELAXED)) /
		   EHS_SCRATCH_SIZE;
	__atomic_fetch_and(&taken, ~(1ul << k), __ATOMIC_RELEASE);
}
