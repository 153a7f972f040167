/* SPDX-License-Identifier: MIT */
/*
 * Room for one traced call's big buffers (a formatted text, a socket
 * message's record, an event's heads) off the stack: a signal handler
 * may log on a small sigaltstack, and every path it reaches is to take
 * at most 2 KiB of stack more than libc's own call (docs/performance.md).
 *
 * A few slots of EHS_SCRATCH_SIZE bytes, mapped once, at the first
 * call that takes one (in .bss they would cost every program a mapping
 * at start-up: common/map_once.h).  A slot is claimed by an exchange on
 * its claim byte, which sits just before its bytes, on a cache line of
 * its own, and given back with a plain store there (one locked
 * instruction a call, not two; the give needs no index): no lock, so a signal
 * handler that interrupts a call holding one simply takes another.  A
 * call holds one to four at once (a socket message: its gathering, its
 * record, its event's heads, a uprobe's strings).  When every slot is
 * taken (many threads logging at once, or the mapping failed)
 * ehs_scratch_take answers NULL; ehs_scratch_run then gives the call its
 * buffer on the stack, in a frame of its own: the event is the same,
 * only the stack it takes is larger.  A slot is lost for good only to a call that
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
/* A slot's claim byte and the rest of its line, before its bytes. */
#define EHS_SCRATCH_HEAD 64
#define EHS_SCRATCH_STRIDE (EHS_SCRATCH_HEAD + EHS_SCRATCH_SIZE)

/* scratch.c's: the slots once mapped, else a stand-in whose one claim
 * byte is always 1, so that the first slot's claim needs no test of the
 * mapping first.  Slot k's claim byte is at k * EHS_SCRATCH_STRIDE, 1
 * while the slot is someone's; its bytes follow its head. */
extern EHS_HIDDEN char *ehs_scratch_slots;

/* The slots, mapped by the first caller; NULL when they cannot be. */
EHS_HIDDEN char *ehs_scratch_map(void);

/* Claims the slot whose claim byte is at claim: true when it was free.
 * The exchange writes 1 over a 1 when another call holds the slot: that
 * changes nothing. */
static inline bool ehs_scratch_claim(unsigned char *claim)
{
	return !__atomic_exchange_n(claim, 1, __ATOMIC_ACQUIRE);
}

/* ehs_scratch_take when the first slot is taken or not mapped yet: the
 * mapping made, the lowest free slot, or NULL.  all is what
 * ehs_scratch_slots held. */
EHS_HIDDEN void *ehs_scratch_take_later(char *all);

/* A free slot, taken for the caller, or NULL when there is none: the
 * lowest free one, so that the fewest pages are touched.  Inline, as the
 * traced syslog call makes no call of ours on its way: the first slot,
 * the one a call takes unless another holds it, is tried here. */
static inline void *ehs_scratch_take(void)
{
	char *all = __atomic_load_n(&ehs_scratch_slots, __ATOMIC_ACQUIRE);
	if (__builtin_expect(ehs_scratch_claim((unsigned char *)all), 1))
		return all + EHS_SCRATCH_HEAD;
	return ehs_scratch_take_later(all);
}

/* Gives back the slot p (from ehs_scratch_take; NULL is nothing): a
 * plain store to its claim byte. */
static inline void ehs_scratch_give(void *p)
{
	if (!p)
		return;
	__atomic_store_n((unsigned char *)p - EHS_SCRATCH_HEAD, 0, __ATOMIC_RELEASE);
}

/* A call's work on a buffer: buf is at least the size the caller asked
 * ehs_scratch_run for, aligned for any type. */
typedef int ehs_scratch_fn(void *buf, void *ctx);

/* fn(buf, ctx) with buf on the stack, need bytes or a little more, in a
 * frame only this case makes; for ehs_scratch_run. */
EHS_HIDDEN int ehs_scratch_on_stack(size_t need, ehs_scratch_fn *fn, void *ctx);

/*
 * fn(buf, ctx) with buf a scratch slot, given back after, or, when none
 * is free, need bytes of stack (ehs_scratch_on_stack); fn's answer.
 * need is at most EHS_SCRATCH_SIZE.  Inline, so that a constant fn is
 * called directly and the traced call's path keeps its instructions.
 */
static inline __attribute__((always_inline)) int ehs_scratch_run(size_t need,
								 ehs_scratch_fn *fn,
								 void *ctx)
{
	void *slot = ehs_scratch_take();
	if (__builtin_expect(!slot, 0))
		return ehs_scratch_on_stack(need, fn, ctx);
	int r = fn(slot, ctx);
	ehs_scratch_give(slot);
	return r;
}

#endif
