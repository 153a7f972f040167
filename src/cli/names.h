/* SPDX-License-Identifier: MIT */
/*
 * Syslog severity and facility names, as users type them on the command
 * line and as the tool prints them.  Facilities are numbers 0..127 (what
 * LOG_FAC() gives, not the shifted LOG_* constants, up to LOG_FACMASK as
 * glibc accepts them); 0..23 have names where glibc has them.  The
 * keyword of an event is 1 << facility for 0..23, and 0 for 24..127.
 */
#ifndef CLI_NAMES_H
#define CLI_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYSLOG_SEVERITY_COUNT 8
/* Facilities with a keyword of their own. */
#define SYSLOG_FACILITY_COUNT 24
/* Facility numbers: 0..127. */
#define SYSLOG_FACILITY_NUMBERS 128
/* Keywords, so tracepoints per level: 0 and 1 << 0 .. 1 << 23. */
#define SYSLOG_KEYWORD_COUNT (SYSLOG_FACILITY_COUNT + 1)

/* A set of facility numbers 0..127. */
struct facility_set {
	uint64_t bits[SYSLOG_FACILITY_NUMBERS / 64];
};

/*
 * Severity 0..7 for "emerg", "ERR", "LOG_ERR", an alias ("panic",
 * "error", "warn") or a decimal number 0..7; -1 if name is none of these.
 * Case does not matter.
 */
int syslog_severity_from_name(const char *name);

/* "emerg" ... "debug", or NULL outside 0..7. */
const char *syslog_severity_name(int severity);

/*
 * Facility 0..127 for "user", "LOG_DAEMON", "local0", the alias "security"
 * (auth) or a decimal number 0..127; -1 otherwise.  Case does not matter.
 */
int syslog_facility_from_name(const char *name);

/* The keyword of facility's tracepoints (the bridge's schema). */
uint64_t syslog_facility_keyword(unsigned facility);

void facility_set_add(struct facility_set *s, unsigned facility);
void facility_set_all(struct facility_set *s);
bool facility_set_has(const struct facility_set *s, unsigned facility);
bool facility_set_empty(const struct facility_set *s);

/*
 * The keywords of the facilities in s, each once and in increasing order
 * (keyword 0 first), into keywords[SYSLOG_KEYWORD_COUNT]; returns how
 * many.  These are the tracepoints that can carry s's events.
 */
size_t facility_set_keywords(const struct facility_set *s, uint64_t *keywords);

/* "kern" ... "local7", or NULL for the unnamed 12..15 and outside 0..23. */
const char *syslog_facility_name(int facility);

/* EventHeader level 1..5 of a severity 0..7 (the fixed schema), or -1. */
int syslog_severity_level(int severity);

#endif /* CLI_NAMES_H */
