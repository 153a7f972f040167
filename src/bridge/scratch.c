/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/scratch.h"

#include <stddef.h>

#include "common/map_once.h"

/* The stand-in for the slots until they are mapped: one slot, always
 * taken. */
static unsigned char no_slots[EHS_SCRATCH_HEAD] = { 1 };
static void *mapping;

char *ehs_scratch_slots = (char *)no_slots;

_Static_assert(EHS_SCRATCH_HEAD % _Alignof(max_align_t) == 0 &&
		       EHS_SCRATCH_STRIDE % _Alignof(max_align_t) == 0,
	       "a slot's bytes are aligned for any type");

char *ehs_scratch_map(void)
{
	char *p = ehs_map_once(&mapping, (size_t)EHS_SCRATCH_SLOTS * EHS_SCRATCH_STRIDE);
	/* Every caller that gets here stores the same mapping. */
	if (p)
		__atomic_store_n(&ehs_scratch_slots, p, __ATOMIC_RELEASE);
	return p;
}

void *ehs_scratch_take_later(char *all)
{
	size_t k = 1;
	if (all == (char *)no_slots) {
		if (!(all = ehs_scratch_map()))
			return NULL;
		k = 0;
	}
	for (; k < EHS_SCRATCH_SLOTS; k++) {
		unsigned char *claim = (unsigned char *)all + k * EHS_SCRATCH_STRIDE;
		/* A load first: a taken slot is not written to. */
		if (!__atomic_load_n(claim, __ATOMIC_RELAXED) && ehs_scratch_claim(claim))
			return claim + EHS_SCRATCH_HEAD;
	}
	return NULL;
}

/* The stack's buffer comes in a few sizes, each in a frame of its own,
 * so that a call that needs little takes little: no variable-length
 * array (-Wvla), whose size a bad length could make any. */
#define ON_STACK(bytes)                                                          \
	static __attribute__((noinline)) int on_stack_##bytes(ehs_scratch_fn *fn, \
							      void *ctx)         \
	{                                                                        \
		max_align_t buf[(bytes) / sizeof(max_align_t)];                   \
		return fn(buf, ctx);                                             \
	}
ON_STACK(1024)
ON_STACK(2048)
ON_STACK(4096)
ON_STACK(8192)

_Static_assert(EHS_SCRATCH_SIZE == 8192, "the largest stack buffer is a slot's size");

int ehs_scratch_on_stack(size_t need, ehs_scratch_fn *fn, void *ctx)
{
	if (need <= 1024)
		return on_stack_1024(fn, ctx);
	if (need <= 2048)
		return on_stack_2048(fn, ctx);
	if (need <= 4096)
		return on_stack_4096(fn, ctx);
	return on_stack_8192(fn, ctx);
}
