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
 * takes the full path.  The table is filled only in replace mode, once
 * the configuration is read (pass-through goes on to glibc in C), and
 * the entries of priorities without a facility follow openlog's.
 *
 * Included by the stubs: constants only when __ASSEMBLER__ is defined.
 */
#ifndef EHS_BRIDGE_PRI_TABLE_H
#define EHS_BRIDGE_PRI_TABLE_H

/* Largest priority without stray bits (LOG_PRIMASK | LOG_FACMASK). */
#define EHS_PRI_MAX 0x3ff
/* Where the offsets start in struct ehs_pri_table. */
#define EHS_PRI_OFF_AT 4

#ifndef __ASSEMBLER__
#include <stdint.h>

#include "bridge/hidden.h"

struct ehs_pri_table {
	uint32_t full;			/* never 0: "take the full path" */
	int32_t off[EHS_PRI_MAX + 1];	/* from &full to the enable word */
};

extern EHS_HIDDEN struct ehs_pri_table ehs_pri_table;

/* Points every priority at its tracepoint's enable word (replace mode,
 * configuration read), or back at the full path. */
void ehs_pri_table_fill(void);
void ehs_pri_table_clear(void);

/* Follows openlog's facility for the priorities that have none. */
void ehs_pri_table_facility_changed(void);

/* Whether the table says pri is untraced: the stubs' check, in C. */
static inline int ehs_pri_table_idle(int pri)
{
	if ((unsigned)pri > EHS_PRI_MAX)
		return 0;
	const char *base = (const char *)&ehs_pri_table;
	int32_t off = __atomic_load_n(&ehs_pri_table.off[pri], __ATOMIC_RELAXED);
	return __atomic_load_n((const uint32_t *)(base + off), __ATOMIC_RELAXED) == 0;
}
#endif

#endif
