/* SPDX-License-Identifier: MIT */
/*
 * The priority table: one byte per syslog priority 0..EHS_PRI_MAX, clear
 * when a syslog() at that priority has nothing to do, so that the x86-64
 * entry stubs (preload/syslog_stubs.S) answer an untraced call with one
 * load and one compare, before any variadic prologue.
 *
 * Each byte holds two bits.  EHS_PRI_TRACED is the kernel's: the byte's
 * top bit, a bit of a 32-bit word registered with user_events as an
 * enabler of the tracepoint the priority logs to (ue_enabler_add), so it
 * is set exactly while that tracepoint is traced.  EHS_PRI_PASS is ours,
 * set in every byte in pass-through (by the stubs' routing, and by each
 * byte's arming, which a native site or an output stream may do first):
 * the stubs read the mode from the same byte, with the same compare.  Every byte starts at EHS_PRI_TRACED,
 * which sends the call to the full path: there the first call of each
 * priority reads the configuration, marks the mode (once) and registers
 * the byte (ehs_pri_table_arm), and from then on the top bit is the
 * kernel's.  A registration that fails for good, or events turned off,
 * clear it and set EHS_PRI_PASS, in replace mode too: no event can be
 * written, so the call goes on to glibc and nothing is lost.  One that
 * failed for a reason that may go away sets EHS_PRI_PASS and leaves the
 * top bit set: the calls go on to glibc from the full path, whose
 * arming tries the registration again when the writer says it is due
 * (ue_enabler_add).  When the writer can
 * register again it sets the top bit back (its retry, a lost descriptor
 * forgotten, openlog), the next call arms the byte again, and in replace
 * mode that clears EHS_PRI_PASS.
 * The priorities without a facility follow openlog's: openlog lets their
 * registrations go, which sets their top bits again, and their next call
 * registers them for the new facility.
 *
 * Included by the stubs: constants only when __ASSEMBLER__ is defined.
 */
#ifndef EHS_BRIDGE_PRI_TABLE_H
#define EHS_BRIDGE_PRI_TABLE_H

/* Largest priority without stray bits (LOG_PRIMASK | LOG_FACMASK). */
#define EHS_PRI_MAX 0x3ff
/* A byte's bits: traced or not registered yet (the kernel's), and
 * pass-through (ours).  So a byte is EHS_PRI_PASS exactly for an untraced
 * call in pass-through, 0 for one in replace mode, above either else. */
#define EHS_PRI_TRACED 0x80
#define EHS_PRI_PASS 0x01

#ifndef __ASSEMBLER__
#include <stdint.h>

#include <ehsyslog/user_events.h>

#include "bridge/schema.h"
#include "common/hidden.h"

/* One cache line for the common priorities (facility USER and below). */
union ehs_pri_table {
	uint8_t full[EHS_PRI_MAX + 1];		/* EHS_PRI_TRACED: the full path */
	uint32_t word[(EHS_PRI_MAX + 1) / 4];	/* as the kernel sees them */
	uint64_t by_facility[(EHS_PRI_MAX + 1) / 8];	/* a facility's eight at once */
} __attribute__((aligned(64)));

extern EHS_HIDDEN union ehs_pri_table ehs_pri_table;

/* Sets EHS_PRI_PASS in every byte: for the stubs' pass-through, before
 * any byte is armed. */
void ehs_pri_table_pass_through(void);

/* A priority's byte registration, and where the priority's events go
 * while it stands: the tracepoint and facility it was made for, stored
 * before the registration, in one word (ehs_pri_route_where), so that a
 * caller that sees it done (ue_enabler_done) reads a tracepoint and a
 * facility that belong together, even while an openlog in another
 * thread moves them.  openlog lets the registrations of the priorities
 * without a facility go: a route that stands is for the current
 * facility. */
struct ehs_pri_route {
	struct ue_enabler byte;
	uint32_t where;		/* facility << 16 | the tracepoint's byte offset in ehs_table */
};

/* Every priority's route: mapped at the first registration (see
 * pri_table.c), NULL until then. */
extern EHS_HIDDEN struct ehs_pri_route *ehs_pri_routes;

/* ehs_pri_table_arm's work when pri's byte is not registered yet. */
void ehs_pri_table_arm_slow(int pri);

/* pri's route (pri <= EHS_PRI_MAX) once its byte is registered, or its
 * registration failed for good; else NULL (also while it waits for a
 * retry).  Two loads. */
static inline const struct ehs_pri_route *ehs_pri_route(int pri)
{
	struct ehs_pri_route *all = __atomic_load_n(&ehs_pri_routes, __ATOMIC_ACQUIRE);
	if (__builtin_expect(all != NULL, 1) && ue_enabler_done(&all[pri].byte))
		return &all[pri];
	return NULL;
}

/* route's tracepoint, and its facility (0..127) in *facility. */
static inline struct ue_tracepoint *ehs_pri_route_where(const struct ehs_pri_route *route,
							unsigned *facility)
{
	uint32_t where = __atomic_load_n(&route->where, __ATOMIC_RELAXED);
	*facility = where >> 16;
	return (struct ue_tracepoint *)((char *)ehs_table + (uint16_t)where);
}

/* Makes pri's top bit the kernel's (registers it for pri's tracepoint),
 * or clears it when events are off; nothing once done.  For the full
 * path of the syslog family's stubs, after the configuration is read. */
static inline void ehs_pri_table_arm(int pri)
{
	if ((unsigned)pri > EHS_PRI_MAX || !ehs_pri_route(pri))
		ehs_pri_table_arm_slow(pri);
}

/* ehs_pri_table_arm of each priority of facility (0..127): one load of
 * the routes and one of each byte's flags where all are registered. */
static inline void ehs_pri_table_arm_facility(unsigned facility)
{
	struct ehs_pri_route *all = __atomic_load_n(&ehs_pri_routes, __ATOMIC_ACQUIRE);
	int first = (int)(facility & 127) << 3;
	for (int pri = first; pri < first + 8; pri++)
		if (__builtin_expect(!all, 0) || !ue_enabler_done(&all[pri].byte))
			ehs_pri_table_arm_slow(pri);
}

/* openlog changed the facility: the priorities without one register
 * again at their next call. */
void ehs_pri_table_facility_changed(void);

/* Whether a priority of facility (0..127) has its top bit set (traced,
 * or not registered yet): its eight bytes in one load.  For callers that
 * log at several priorities of one facility (bridge/output/output.h). */
static inline bool ehs_pri_table_facility_busy(unsigned facility)
{
	return __atomic_load_n(&ehs_pri_table.by_facility[facility & 127], __ATOMIC_RELAXED) &
	       (0x0101010101010101ull * EHS_PRI_TRACED);
}

/* Whether pri's byte says the call has nothing to do here: the stubs'
 * check, in C.  A priority with stray bits always has something to do. */
static inline int ehs_pri_table_idle(int pri)
{
	return (unsigned)pri <= EHS_PRI_MAX &&
	       !(__atomic_load_n(&ehs_pri_table.full[pri], __ATOMIC_RELAXED) & EHS_PRI_TRACED);
}
#endif

#endif
