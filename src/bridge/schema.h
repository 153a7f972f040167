/* SPDX-License-Identifier: MIT */
/*
 * The fixed syslog event schema: severity to EventHeader level, facility
 * to keyword, and the table of tracepoints one process may write to.
 */
#ifndef EHS_BRIDGE_SCHEMA_H
#define EHS_BRIDGE_SCHEMA_H

#include <stdint.h>

#include <ehsyslog/user_events.h>

/* Facilities 0..23 have a tracepoint with keyword 1 << facility.  glibc
 * accepts facility numbers up to 127 (LOG_FACMASK); those keep their
 * number in the facility field and share one slot with keyword 0. */
#define EHS_FACILITIES 24
#define EHS_FACILITY_SLOTS (EHS_FACILITIES + 1)
#define EHS_LEVELS 5

/* EMERG, ALERT, CRIT -> 1; ERR -> 2; WARNING -> 3; NOTICE, INFO -> 4;
 * DEBUG -> 5.  severity is masked to 0..7. */
unsigned ehs_level(int severity);

/* 1 << facility for 0..23, 0 beyond. */
uint64_t ehs_keyword(unsigned facility);

/*
 * Formats every tracepoint name from provider and resets the table.  Runs
 * once, before any tracepoint is used (config.c publishes the result).
 * Returns 0, or a negative eh_error if provider makes an invalid name.
 */
int ehs_tracepoints_init(const char *provider);

/* The tracepoint for (level of severity, facility). */
struct ue_tracepoint *ehs_tracepoint(int severity, unsigned facility);

#endif
