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

#include "common/hidden.h"

#define EHS_SCRATCH_SLOTS 16
#define EHS_SCRATCH_SIZE 8192

/* A free slot, taken for the caller, or NULL when there is none. */
EHS_HIDDEN void *ehs_scratch_take(void);

/* Gives back the slot p (from ehs_scratch_take; NULL is nothing). */
EHS_HIDDEN void ehs_scratch_give(void *p);

#endif
