/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/scratch.h"

#include <stddef.h>

#include "common/map_once.h"

char *ehs_scratch_slots;
unsigned char ehs_scratch_taken[EHS_SCRATCH_SLOTS];

char *ehs_scratch_map(void)
{
	return ehs_map_once((void **)&ehs_scratch_slots,
			    (size_t)EHS_SCRATCH_SLOTS * EHS_SCRATCH_SIZE);
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
