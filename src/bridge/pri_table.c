/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/pri_table.h"

#include <stdbool.h>
#include <syslog.h>

#include <ehsyslog/user_events.h>

#include "bridge/config/config_load.h"
#include "common/map_once.h"
#include "bridge/ident.h"
#include "bridge/schema.h"

_Static_assert(EHS_PRI_MAX == (LOG_PRIMASK | LOG_FACMASK), "pri_table.h");

/* Initialised data, 1 KiB: every priority starts on the full path. */
union ehs_pri_table ehs_pri_table = { .full = { [0 ... EHS_PRI_MAX] = EHS_PRI_TRACED } };

/* The routes (32 KiB on 64-bit machines), mapped at the first
 * registration: as bss they would cost every program a mapping at
 * start-up, logging or not, and in initialised data 1024 relocations. */
struct ehs_pri_route *ehs_pri_routes;

static struct ehs_pri_route *routes_get(void)
{
	return ehs_map_once((void **)&ehs_pri_routes,
			    (EHS_PRI_MAX + 1) * sizeof *ehs_pri_routes);
}

/* The top bit of byte pri%4 of its word, whatever the byte order. */
static unsigned bit_of(int pri)
{
	unsigned byte = (unsigned)pri % 4;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	byte = 3 - byte;
#endif
	return 8 * byte + 7;
}

/* Sets or clears pri's EHS_PRI_PASS bit. */
static void mark_pass(int pri, bool on)
{
	uint32_t bit = (uint32_t)EHS_PRI_PASS << (bit_of(pri) - 7);
	if (on)
		__atomic_fetch_or(&ehs_pri_table.word[pri / 4], bit, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&ehs_pri_table.word[pri / 4], ~bit, __ATOMIC_RELEASE);
}

/* pri's events cannot be written (events off, or its registration
 * failed): its byte says pass-through, in replace mode too, so that the
 * stubs send its calls on to glibc and nothing is lost.  After a failed
 * registration the top bit is the writer's: clear after a failure for
 * good, set while the writer waits to try again, so that the calls come
 * to the full path, which passes them on until it succeeds.  The writer
 * sets it again when it can register once more (enablers_retry, a
 * descriptor found lost, openlog's retry), and the next arming clears
 * the pass-through bit in replace mode. */
static void pass_for_now(int pri)
{
	mark_pass(pri, true);
}

/* Events off: the top bit is cleared here too. */
static void pass_events_off(int pri)
{
	mark_pass(pri, true);
	__atomic_and_fetch(&ehs_pri_table.word[pri / 4], ~(1u << bit_of(pri)), __ATOMIC_RELEASE);
}

void ehs_pri_table_pass_through(void)
{
	for (unsigned i = 0; i < sizeof ehs_pri_table.word / sizeof ehs_pri_table.word[0]; i++)
		__atomic_or_fetch(&ehs_pri_table.word[i], 0x01010101u * EHS_PRI_PASS,
				  __ATOMIC_RELEASE);
}

void ehs_pri_table_arm_slow(int pri)
{
	if ((unsigned)pri > EHS_PRI_MAX)
		return;
	enum ehs_config_state config = ehs_config_load();
	if (config == EHS_CONFIG_RETRY)
		return;	/* the byte stays set: the next call asks again */
	if (config != EHS_CONFIG_ON) {
		pass_events_off(pri);
		return;
	}
	struct ehs_pri_route *all = routes_get();
	if (!all)
		return;	/* no memory: the top bit stays set, each call asks in C */
	struct ehs_pri_route *route = &all[pri];
	struct ue_enabler *e = &route->byte;
	/* Stored by every thread that gets here first, with the same values. */
	if (!__atomic_load_n(&e->word, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&e->bit, (uint8_t)bit_of(pri), __ATOMIC_RELAXED);
		__atomic_store_n(&e->word, &ehs_pri_table.word[pri / 4], __ATOMIC_RELEASE);
	}
	for (;;) {
		int openlog_facility = ehs_ident_facility();
		unsigned facility = (unsigned)pri >> 3;
		if (!facility)
			facility = (unsigned)openlog_facility >> 3;
		struct ue_tracepoint *tp = ehs_tracepoint(pri & LOG_PRIMASK, facility);
		/* Before the registration, which publishes it.  Every thread
		 * here stores the same, unless openlog moved the facility
		 * meanwhile: then the check below goes round. */
		_Static_assert(sizeof ehs_table <= UINT16_MAX, "a byte offset in 16 bits");
		__atomic_store_n(&route->where,
				 facility << 16 | (uint32_t)((char *)tp - (char *)ehs_table),
				 __ATOMIC_RELAXED);
		int failed = ue_enabler_add(tp, e) < 0;
		/* An openlog meanwhile may have let the registration go
		 * before it was made: then it is for the old facility. */
		if (pri > LOG_PRIMASK || ehs_ident_facility() == openlog_facility) {
			if (failed)
				pass_for_now(pri);
			else
				/* Replace mode's once registered (again); in
				 * pass-through set here too, not only by the
				 * stubs' routing: a native site or an output
				 * stream may arm a byte before any syslog()
				 * call routed them, and a byte left 0 would
				 * have the stub return, the call lost. */
				mark_pass(pri, ehs_config_mode() != EHS_MODE_REPLACE);
			return;
		}
		ue_enabler_remove(e);
	}
}

void ehs_pri_table_facility_changed(void)
{
	struct ehs_pri_route *all = __atomic_load_n(&ehs_pri_routes, __ATOMIC_ACQUIRE);
	for (int pri = 0; all && pri <= LOG_PRIMASK; pri++)
		ue_enabler_remove(&all[pri].byte);
}
