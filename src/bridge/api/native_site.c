/* SPDX-License-Identifier: MIT */
/*
 * EHS_EMIT's library half.  The call site checks the enable byte the
 * site points at and encodes the values itself (<ehsyslog.h>); here the
 * site's head, kept in its cache as ehs_event_cached keeps one, goes in
 * front and the event to the writer.  Nothing is compared: the site's
 * priority, name and field types are fixed where it is written.  After
 * its first write through the writer the site keeps a copy of its
 * tracepoint's channel (user_events/channel.h), and while that copy is
 * current a traced call is a compare and the writev.  The
 * first call of a site, a call after openlog moved the facility, and
 * anything unusual take ehs_site_event: ehs_native_event, as
 * ehs_event_cached's misses do, and the site pointed at its tracepoint
 * and head again.
 *
 * The enable byte is the priority's byte of the syslog stubs' table
 * (bridge/pri_table.h), which the library keeps registered as an enabler of
 * the priority's tracepoint: its top bit is clear exactly while a
 * syslog call, or a native event, at that priority has nothing to do,
 * and openlog setting it again for the priorities without a facility
 * sends their sites here, where the epoch tells that they moved.  So the
 * untraced check is two loads and a test, and no site registers
 * anything of its own (a site may be in a module that is unloaded).
 */
#include "config.h"

#include <syslog.h>

#include <ehsyslog.h>

#include "bridge/bridge.h"
#include "bridge/emit.h"
#include "bridge/ident.h"
#include "bridge/api/native_cache.h"
#include "bridge/pri_table.h"
#include "bridge/schema.h"
#include "user_events/channel.h"

_Static_assert(EHS_SITE_CALL == EHS_PRI_TRACED, "a site's enable byte is a pri_table byte");
_Static_assert(EHS_SITE_CALL == USDT_GATE_TRACED, "or the probes' semaphore");

/* Moves whenever openlog changes the facility.  Sites point at it: not
 * exported, so that a program never shares it with a second copy of
 * the library's code (ASan would count that as an ODR violation). */
static unsigned long epoch_now;

void ehs_site_epoch_next(void)
{
	__atomic_add_fetch(&epoch_now, 1, __ATOMIC_RELEASE);
	/* Then the copies of the channels of before go stale. */
	ue__channel_moved();
}

/* Points the site at pri's byte of the table once the library has
 * armed it (registered, or cleared for events off); a priority with
 * stray bits has none, and its site stays on its own byte, calling
 * here each time, as ehs_event is called. */
static void site_arm(struct ehs_event_site *site, int priority)
{
	if ((unsigned)priority > EHS_PRI_MAX || ehs_busy)
		return;
	ehs_pri_table_arm(priority);
	const uint8_t *byte = &ehs_pri_table.full[priority];
	/* No user_events for the priority for good (none in this kernel,
	 * say: the byte's top bit clear): the site reads the probe sites'
	 * semaphore instead, whose top bit is set while a uprobe is on one
	 * (usdt.h), and comes back here then.  A byte left set while the
	 * writer waits to retry brings the site back here at each call. */
	if (!ehs_deliverable(priority & LOG_PRIMASK, ehs_priority_facility(priority)) &&
	    !(__atomic_load_n(byte, __ATOMIC_RELAXED) & EHS_PRI_TRACED))
		byte = (const uint8_t *)&usdt_gate;
	__atomic_store_n(&site->enabled, byte, __ATOMIC_RELEASE);
}

EHS_API int ehs_site_event(struct ehs_event_site *site, int priority, const char *event_name,
			   const struct ehs_field *fields, unsigned nfields)
{
	/* The epoch before the facility: a site that shows an epoch points
	 * at a tracepoint found at least that late. */
	unsigned long epoch = __atomic_load_n(&epoch_now, __ATOMIC_ACQUIRE);
	struct ue_tracepoint *tp = native_tracepoint(priority);
	__atomic_store_n(&site->priv_tp, tp, __ATOMIC_RELAXED);
	__atomic_store_n(&site->priv_epoch, epoch, __ATOMIC_RELEASE);
	site_arm(site, priority);

	int r = ehs_native_event(&site->cache, priority, event_name, fields, nfields);
	const struct native_cache *c = ehs_native_cache_get(&site->cache, event_name, nfields);
	if (c && !__atomic_load_n(&site->priv_head.iov_base, __ATOMIC_ACQUIRE)) {
		/* Once: the cache keeps its head for good.  The room and the
		 * length first: a reader that sees the head sees them. */
		__atomic_store_n(&site->priv_room, EHS_EVENT_MAX - (size_t)c->head_len,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&site->priv_head.iov_len, (size_t)c->head_len, __ATOMIC_RELAXED);
		__atomic_store_n(&site->priv_head.iov_base, (void *)ehs_native_cache_head(c),
				 __ATOMIC_RELEASE);
	}
	return r;
}

/* A copy of tp's channel for the site's fast path, once a write went
 * through the writer: only while the epoch is still the site's, read
 * after the copy's generation, so that a facility moved meanwhile (the
 * epoch, then the generation) leaves no current copy of the tracepoint
 * of before. */
static void site_copy_channel(struct ehs_event_site *site, struct ue_tracepoint *tp)
{
	uint64_t copy = ue__channel_copy(tp);

	if (copy && __atomic_load_n(&epoch_now, __ATOMIC_ACQUIRE) ==
			    __atomic_load_n(&site->priv_epoch, __ATOMIC_RELAXED))
		__atomic_store_n(&site->priv_channel, copy, __ATOMIC_RELEASE);
}

/* ehs_site_write without a current copy of the channel, or after its
 * system call failed: the site's own checks, then the writer's whole
 * path, which tells why and recovers what it can.  An openlog that moves
 * the facility after the epoch's check lets this one event go to the
 * tracepoint of before, as a call that began before it would. */
static __attribute__((noinline)) int site_write_slow(struct ehs_event_site *site,
						     struct iovec *iov, unsigned long iovcnt)
{
	void *head = __atomic_load_n(&site->priv_head.iov_base, __ATOMIC_ACQUIRE);
	if (!head || __atomic_load_n(&site->priv_epoch, __ATOMIC_RELAXED) !=
			     __atomic_load_n(&epoch_now, __ATOMIC_RELAXED))
		return EHS_SITE_FULL;	/* first call, or the facility moved */
	struct ue_tracepoint *tp = __atomic_load_n(&site->priv_tp, __ATOMIC_RELAXED);
	/* The head is only kept while the configuration is on, and it
	 * never goes off after: the state word alone says. */
	uint32_t state = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
	if (state != UE_STATE_ENABLED) {
		/* A byte that stays set while untraced (the table had no
		 * memory to register it) costs no system call per call. */
		__atomic_store_n(&site->priv_channel, 0, __ATOMIC_RELAXED);
		/* registering, or a uprobe on a probe site; else untraced */
		return state || usdt_any() ? EHS_SITE_FULL : 0;
	}
	if (ehs_busy)
		return 0;
	/* The values' length, which the fast path does not keep. */
	size_t size = 0;
	for (unsigned long i = 2; i < iovcnt; i++)
		size += iov[i].iov_len;
	if (size > __atomic_load_n(&site->priv_room, __ATOMIC_RELAXED))
		return EHS_SITE_FULL;	/* E2BIG or EINVAL, as ehs_event says */
	size_t head_len = __atomic_load_n(&site->priv_head.iov_len, __ATOMIC_RELAXED);
	iov[1] = (struct iovec){ head, head_len };
	if (ue_tracepoint_write_sized(tp, iov, (int)iovcnt, size + head_len) == 0)
		site_copy_channel(site, tp);
	return 1;
}

/* The traced call: one compare of the site's copy of the channel, the
 * room for the values, the head in front, one system call.  Nothing
 * here takes a lock or calls out, so it needs no ehs_busy: a signal
 * handler that interrupts the library writes its event; the slow path
 * does what could not be done from there. */
EHS_API int ehs_site_write(struct ehs_event_site *site, struct iovec *iov,
			   unsigned long iovcnt, size_t size)
{
	uint64_t copy = __atomic_load_n(&site->priv_channel, __ATOMIC_ACQUIRE);

	/* The room and the head were written once, before any copy: read
	 * as they are. */
	if (__builtin_expect(ue__channel_current(copy), 1) &&
	    __builtin_expect(size <= site->priv_room, 1)) {
		iov[1] = site->priv_head;
		if (__builtin_expect(ue__channel_writev(copy, iov, iovcnt) >= 0, 1))
			return 1;
	}
	return site_write_slow(site, iov, iovcnt);
}
