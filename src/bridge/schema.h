/* SPDX-License-Identifier: MIT */
/*
 * The fixed syslog event schema: severity to EventHeader level, facility
 * to keyword, and the table of tracepoints one process may write to.
 *
 * The table is static and starts with every state word at
 * UE_STATE_UNREGISTERED, names unset: the first check of any tracepoint
 * therefore leaves the one-load fast path, and that slow path reads the
 * configuration, names the tracepoints (ehs_tracepoints_init) or turns
 * them all off (ehs_tracepoints_off) before anything registers.
 */
#ifndef EHS_BRIDGE_SCHEMA_H
#define EHS_BRIDGE_SCHEMA_H

#include <stdint.h>

#include <ehsyslog/settings.h>
#include <ehsyslog/user_events.h>

#include "common/hidden.h"

/* Facilities 0..23 have a tracepoint with keyword 1 << facility.  glibc
 * accepts facility numbers up to 127 (LOG_FACMASK); those keep their
 * number in the facility field and share one slot with keyword 0
 * (EHS_FACILITIES, EHS_FACILITY_SLOTS and EHS_LEVELS are public). */

extern EHS_HIDDEN const unsigned char ehs_level_of_severity[8];
/* Row by row, one row per level: EHS_FACILITY_SLOTS tracepoints each. */
extern EHS_HIDDEN struct ue_tracepoint ehs_table[EHS_LEVELS * EHS_FACILITY_SLOTS];
/* Where severity's row starts: (level - 1) * EHS_FACILITY_SLOTS. */
extern EHS_HIDDEN const unsigned char ehs_row_of_severity[8];

/* ehs_severity_level(), inline for the logging path: one load. */
static inline unsigned ehs_level(int severity)
{
	return ehs_level_of_severity[severity & 7];
}

/*
 * Formats every tracepoint name from provider (into pages mapped here the
 * first time: the names are needed for the process's lifetime, and kept
 * out of .bss so that loading the library maps nothing extra) and sets
 * every state word to UE_STATE_UNREGISTERED.  Runs once, before any
 * tracepoint is used (config.c publishes the result).  Returns 0, or a
 * negative eh_error if provider makes an invalid name, or -1 when no
 * memory can be mapped.
 */
int ehs_tracepoints_init(const char *provider);

/* Sets every state word to 0: each check is then the idle one load, and
 * the writer never sees these tracepoints (the library is disabled). */
void ehs_tracepoints_off(void);

/* tp's level, 1..EHS_LEVELS, from its row; 0 for a tracepoint outside
 * the table (a test's). */
static inline unsigned ehs_tracepoint_level(const struct ue_tracepoint *tp)
{
	uintptr_t at = (uintptr_t)tp - (uintptr_t)ehs_table;
	return at < sizeof ehs_table ? (unsigned)(at / sizeof *tp / EHS_FACILITY_SLOTS) + 1 : 0;
}

/* The tracepoint for (level of severity, facility 0..127). */
static inline struct ue_tracepoint *ehs_tracepoint(int severity, unsigned facility)
{
	return &ehs_table[ehs_row_of_severity[severity & 7] +
			  (facility < EHS_FACILITIES ? facility : EHS_FACILITIES)];
}

#endif
