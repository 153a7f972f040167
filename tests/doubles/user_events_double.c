/* SPDX-License-Identifier: MIT */
/*
 * The writer's API for tests (user_events_double.h).  The bridge only
 * reads the enable words and calls these functions, so a double that
 * keeps those words the way the kernel does lets the bridge's own code
 * run unchanged.  The private fields of struct ue_tracepoint and struct
 * ue_enabler are ours here, as they are the real writer's.
 */
#include "config.h"

#include "user_events_double.h"
#include "user_events/channel.h"

#include <errno.h>
#include <stdlib.h>
#include <stddef.h>

/* Where writes go while nothing is traced (a write that raced with
 * the tracer stopping): nowhere.  Never NULL, so a write makes no test:
 * the benchmark's traced figures count the double's instructions. */
static int untraced_write(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx, (void)iov, (void)iovcnt;
	return 0;
}

static ue_double_fn trace_fn = untraced_write;
static void *trace_ctx;

/* Registered tracepoints and enablers, so that ue_double_trace can flip
 * their bits.  Each is pushed once and never taken off (a listed one
 * has a non-NULL priv_next: the lists end at a sentinel), without a
 * lock, so a signal handler may register too. */
static struct ue_tracepoint tp_end;
static struct ue_tracepoint *tp_list = &tp_end;
static struct ue_enabler en_end;
static struct ue_enabler *en_list = &en_end;

static bool traced(void)
{
	return __atomic_load_n(&trace_fn, __ATOMIC_ACQUIRE) != untraced_write;
}

/* Pushes x on list (ending at end) unless it is there: the first
 * thread to move its priv_next off NULL does it.  The same for both
 * kinds of item, whose structs only share the field's name. */
#define LISTED(type, list, end)                                                         \
	static void type##_listed(struct ue_##type *x)                                 \
	{                                                                               \
		struct ue_##type *none = NULL;                                          \
		if (!__atomic_compare_exchange_n(&x->priv_next, &none, &end, false,     \
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))   \
			return;                                                         \
		struct ue_##type *head = __atomic_load_n(&list, __ATOMIC_ACQUIRE);      \
		do                                                                      \
			__atomic_store_n(&x->priv_next, head, __ATOMIC_RELAXED);        \
		while (!__atomic_compare_exchange_n(&list, &head, x, true,              \
						    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)); \
	}
LISTED(tracepoint, tp_list, tp_end)
LISTED(enabler, en_list, en_end)

/* Sets or clears e's bit, as the kernel does while its event is traced. */
static void en_flip(struct ue_enabler *e, bool on)
{
	uint32_t bit = 1u << e->bit;
	if (on)
		__atomic_or_fetch(e->word, bit, __ATOMIC_RELAXED);
	else
		__atomic_and_fetch(e->word, ~bit, __ATOMIC_RELAXED);
}

/* An enabler's priv_flags: registered, or its registration failed. */
#define EN_DONE 1u
#define EN_FAILED 2u

static bool failing;

void ue_double_trace(ue_double_fn fn, void *ctx)
{
	/* The context first: a writer that sees fn sees it. */
	__atomic_store_n(&trace_ctx, ctx, __ATOMIC_RELAXED);
	__atomic_store_n(&trace_fn, fn ? fn : untraced_write, __ATOMIC_RELEASE);
	for (struct ue_tracepoint *tp = __atomic_load_n(&tp_list, __ATOMIC_ACQUIRE);
	     tp != &tp_end; tp = tp->priv_next)
		if (ue_tracepoint_registered(tp))
			__atomic_store_n(&tp->state, fn ? UE_STATE_ENABLED : 0, __ATOMIC_RELAXED);
	for (struct ue_enabler *e = __atomic_load_n(&en_list, __ATOMIC_ACQUIRE);
	     e != &en_end; e = e->priv_next)
		if (__atomic_load_n(&e->priv_flags, __ATOMIC_ACQUIRE) == EN_DONE)
			en_flip(e, fn != NULL);
}

void ue_double_fail(bool fail)
{
	__atomic_store_n(&failing, fail, __ATOMIC_RELAXED);
}

/* A registration: the channel is a marker (the double writes through no
 * descriptor), set so that ue_tracepoint_registered says what the
 * writer's would. */
UE_API int ue_tracepoint_register(struct ue_tracepoint *tp, unsigned flags)
{
	(void)flags;
	tracepoint_listed(tp);
	uint32_t unregistered = UE_STATE_UNREGISTERED;
	if (__atomic_load_n(&failing, __ATOMIC_RELAXED)) {
		__atomic_compare_exchange_n(&tp->state, &unregistered, 0, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		return ue_tracepoint_registered(tp) ? 0 : -ENOENT;
	}
	__atomic_store_n(&tp->priv_channel, 1, __ATOMIC_RELEASE);
	__atomic_compare_exchange_n(&tp->state, &unregistered,
				    traced() ? UE_STATE_ENABLED : 0, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return 0;
}

UE_API bool ue_tracepoint_slow(struct ue_tracepoint *tp)
{
	ue_tracepoint_register(tp, 0);
	return __atomic_load_n(&tp->state, __ATOMIC_RELAXED) == UE_STATE_ENABLED;
}

/* As the kernel: the event goes to whoever traces, whatever the word
 * says. */
UE_API int ue_tracepoint_write(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt)
{
	(void)tp;
	ue_double_fn fn = __atomic_load_n(&trace_fn, __ATOMIC_ACQUIRE);
	/* iov[0] is the writer's, whatever the caller left there: the
	 * sinks see it empty. */
	iov[0] = (struct iovec){ NULL, 0 };
	return fn(__atomic_load_n(&trace_ctx, __ATOMIC_RELAXED), iov, iovcnt);
}

/* The caller's size must be the sum the writer would make: a wrong one
 * fails the test at once. */
UE_API int ue_tracepoint_write_sized(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt,
				     size_t size)
{
	size_t total = 0;

	for (int i = 1; i < iovcnt; i++)
		total += iov[i].iov_len;
	if (total != size)
		abort();
	return ue_tracepoint_write(tp, iov, iovcnt);
}

UE_API void ue_tracepoint_unregister(struct ue_tracepoint *tp)
{
	/* Stays listed: the bit it would get is not read until it registers
	 * again, which sets it afresh. */
	__atomic_store_n(&tp->priv_channel, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&tp->state, UE_STATE_UNREGISTERED, __ATOMIC_RELAXED);
}

/* As the writer: a failed registration leaves the bit clear for good. */
UE_API int ue_enabler_add(struct ue_tracepoint *tp, struct ue_enabler *e)
{
	unsigned f = __atomic_load_n(&e->priv_flags, __ATOMIC_ACQUIRE);
	if (f)
		return f == EN_DONE ? 0 : -ENOTCONN;
	int r = ue_tracepoint_register(tp, 0);
	enabler_listed(e);
	en_flip(e, r == 0 && traced());
	__atomic_store_n(&e->priv_flags, r == 0 ? EN_DONE : EN_FAILED, __ATOMIC_RELEASE);
	return r == 0 ? 0 : -ENOTCONN;
}

UE_API void ue_enabler_remove(struct ue_enabler *e)
{
	if (!ue_enabler_done(e))
		return;
	/* Not registered: the bit set, so that its next check asks again. */
	__atomic_store_n(&e->priv_flags, 0, __ATOMIC_RELEASE);
	en_flip(e, true);
}

UE_API void ue_close(void)
{
	for (struct ue_tracepoint *tp = __atomic_load_n(&tp_list, __ATOMIC_ACQUIRE);
	     tp != &tp_end; tp = tp->priv_next)
		ue_tracepoint_unregister(tp);
	for (struct ue_enabler *e = __atomic_load_n(&en_list, __ATOMIC_ACQUIRE);
	     e != &en_end; e = e->priv_next)
		ue_enabler_remove(e);
}

/* Nothing ever fails here, so there is nothing to forget. */
UE_API int ue_retry(void)
{
	return 0;
}

/* The writer's copies of channels (user_events/channel.h), for the
 * bridge's EHS_EMIT sites: the double has no descriptor to write to, so
 * it hands out no copy, and every traced site write goes through
 * ue_tracepoint_write_sized, where the test sees it.  The fast path
 * behind a copy is the real writer's, tested in the guest. */
uint32_t ue__channel_gen = 1;
int ue__live_fd = -1;

uint64_t ue__channel_copy(struct ue_tracepoint *tp)
{
	(void)tp;
	return 0;
}

void ue__channel_moved(void)
{
	__atomic_add_fetch(&ue__channel_gen, 2, __ATOMIC_SEQ_CST);
}
