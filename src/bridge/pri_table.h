/* SPDX-License-Identifier: MIT */
/*
 * The priority table: for each syslog priority 0..EHS_PRI_MAX, where the
 * enable word of the tracepoint it logs to is, so that the x86-64 entry
 * stubs (preload/syslog_stubs.S) find an untraced call's answer with one
 * indexed load and one compare, before any variadic prologue.
 *
 * Entries are byte offsets from the table's start, not pointers: a table
 * of pointers would need 1024 relocations at load time, while offsets
 * start as 0 in initialised data the loader does not touch.  Offset 0 is
 * the table's own first word, which is never 0: a priority not filled in
 * takes the full path.  Once the configuration is read, replace mode
 * fills off[] (an untraced call returns) and pass-through fills pass_off[]
 * (an untraced call goes on to glibc's function), and the entries of
 * priorities without a facility follow openlog's.
 *
 * limit is the stubs' bound: a priority at or above it leaves the
 * replace-mode check at once.  It is EHS_PRI_MAX + 1 (stray bits go to
 * the C wrapper) until pass-through sets it to 0, which sends every call
 * to the pass-through check.  Pass-through never fills off[], so a call
 * that read limit before it changed still takes the full path.
 *
 * Included by the stubs: constants only when __ASSEMBLER__ is defined.
 */
#ifndef EHS_BRIDGE_PRI_TABLE_H
#define EHS_BRIDGE_PRI_TABLE_H

/* Largest priority without stray bits (LOG_PRIMASK | LOG_FACMASK). */
#define EHS_PRI_MAX 0x3ff
/* Where the fields are in struct ehs_pri_table. */
#define EHS_PRI_LIMIT_AT 8
#define EHS_PRI_OFF_AT 16
#define EHS_PRI_PASS_OFF_AT (EHS_PRI_OFF_AT + 4 * (EHS_PRI_MAX + 1))

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

#include "bridge/hidden.h"

/* full, limit and the first offsets share a cache line. */
struct ehs_pri_table {
	uint32_t full;			/* never 0: "take the full path" */
	uint32_t unused;
	uint64_t limit;			/* EHS_PRI_MAX + 1, or 0 in pass-through */
	int32_t off[EHS_PRI_MAX + 1];	/* replace mode: from &full to the enable word */
	int32_t pass_off[EHS_PRI_MAX + 1];	/* pass-through: the same */
} __attribute__((aligned(64)));

extern EHS_HIDDEN struct ehs_pri_table ehs_pri_table;

/* Points every priority at its tracepoint's enable word, in the table of
 * the mode the configuration chose. */
void ehs_pri_table_fill(bool passthrough);

/* Follows openlog's facility for the priorities that have none. */
void ehs_pri_table_facility_changed(void);

/* Whether an entry of off[] or pass_off[] says pri is untraced: the
 * stubs' check, in C. */
static inline int ehs_pri_table_idle_in(const int32_t *offs, int pri)
{
	if ((unsigned)pri > EHS_PRI_MAX)
		return 0;
	const char *base = (const char *)&ehs_pri_table;
	int32_t off = __atomic_load_n(&offs[pri], __ATOMIC_RELAXED);
	return __atomic_load_n((const uint32_t *)(base + off), __ATOMIC_RELAXED) == 0;
}

/* Replace mode: the stub returns. */
static inline int ehs_pri_table_idle(int pri)
{
	return ehs_pri_table_idle_in(ehs_pri_table.off, pri);
}

/* Pass-through: the stub goes straight on to glibc's function. */
static inline int ehs_pri_table_pass_idle(int pri)
{
	return __atomic_load_n(&ehs_pri_table.limit, __ATOMIC_RELAXED) == 0 &&
	       ehs_pri_table_idle_in(ehs_pri_table.pass_off, pri);
}
#endif

#endif
