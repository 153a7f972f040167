/* SPDX-License-Identifier: MIT */
/*
 * EHS_EMIT's library half.  The call site checks the enable byte the
 * site points at and encodes the values itself (<ehsyslog.h>); here the
 * site's head, kept in its cache as ehs_event_cached keeps one, goes in
 * front and the event to the writer.  Nothing is compared: the site's
 * priority, name and field types are fixed where it is written.  The
 * first call of a site, a call after openlog moved the facility, and
 * anything unusual take ehs_site_event: ehs_native_event, as
 * ehs_event_cached's misses do, and the site pointed at its tracepoint
 * and head again.
 *
 * The enable byte is the priority's byte of the syslog stubs' table
 * (pri_table.h), which the library keeps registered as an enabler of
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
#include "bridge/native_cache.h"
#include "bridge/pri_table.h"
#include "bridge/schema.h"

_Static_assert(EHS_SITE_CALL == EHS_PRI_TRACED, "a site's enable byte is a pri_table byte");

/* Moves whenever openlog changes the facility.  Sites point at it: not
 * exported, so that a program never shares it with a second copy of
 * the library's code (ASan would count that as an ODR violation). */
static unsigned long epoch_now;

void ehs_site_epoch_next(void)
{
	__atomic_add_fetch(&epoch_now, 1, __ATOMIC_RELEASE);
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
	__atomic_store_n(&site->enabled, &ehs_pri_table.full[priority], __ATOMIC_RELEASE);
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
	if (c) {
		/* The room first: a reader that sees the head sees it. */
		__atomic_store_n(&site->priv_room, EHS_EVENT_MAX - (size_t)c->head_len,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&site->priv_head, ehs_native_cache_head(c), __ATOMIC_RELEASE);
	}
	return r;
}

/* An openlog that moves the facility after the epoch's check lets this
 * one event go to the tracepoint of before, as a call that began before
 * it would. */
EHS_API int ehs_site_write(struct ehs_event_site *site, struct iovec *iov, int iovcnt,
			   size_t size)
{
	const uint8_t *head = __atomic_load_n(&site->priv_head, __ATOMIC_ACQUIRE);
	if (__builtin_expect(!head || __atomic_load_n(&site->priv_epoch, __ATOMIC_RELAXED) !=
					      __atomic_load_n(&epoch_now, __ATOMIC_RELAXED), 0))
		return EHS_SITE_FULL;	/* first call, or the facility moved */
	struct ue_tracepoint *tp = __atomic_load_n(&site->priv_tp, __ATOMIC_RELAXED);
	/* The head is only kept while the configuration is on, and it
	 * never goes off after: the state word alone says. */
	uint32_t state = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
	if (__builtin_expect(state != UE_STATE_ENABLED, 0))
		return state ? EHS_SITE_FULL : 0;	/* registering, or untraced */
	if (ehs_busy)
		return 0;
	if (size > __atomic_load_n(&site->priv_room, __ATOMIC_RELAXED))
		return EHS_SITE_FULL;	/* E2BIG or EINVAL, as ehs_event says */
	size_t head_len = ((const struct native_cache *)&site->cache)->head_len;
	iov[1] = (struct iovec){ (void *)head, head_len };
	/* Straight to the writer, without native_send's ehs_busy: its
	 * traced write is one system call that calls nothing, and anything
	 * else it does, it guards itself (a signal handler that logs
	 * meanwhile writes its own event). */
	ue_tracepoint_write_sized(tp, iov, iovcnt, size + head_len);
	return 1;
}
