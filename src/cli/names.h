/* SPDX-License-Identifier: MIT */
/*
 * Syslog severity and facility names, as users type them on the command
 * line and as the tool prints them.  Facilities are numbers 0..23 (what
 * LOG_FAC() gives, not the shifted LOG_* constants); the keyword of an
 * event is 1 << facility.
 */
#ifndef CLI_NAMES_H
#define CLI_NAMES_H

#define SYSLOG_SEVERITY_COUNT 8
#define SYSLOG_FACILITY_COUNT 24

/*
 * Severity 0..7 for "emerg", "ERR", "LOG_ERR", an alias ("panic",
 * "error", "warn") or a decimal number 0..7; -1 if name is none of these.
 * Case does not matter.
 */
int syslog_severity_from_name(const char *name);

/* "emerg" ... "debug", or NULL outside 0..7. */
const char *syslog_severity_name(int severity);

/*
 * Facility 0..23 for "user", "LOG_DAEMON", "local0", the alias "security"
 * (auth) or a decimal number 0..23; -1 otherwise.  Case does not matter.
 */
int syslog_facility_from_name(const char *name);

/* "kern" ... "local7", or NULL for the unnamed 12..15 and outside 0..23. */
const char *syslog_facility_name(int facility);

/* EventHeader level 1..5 of a severity 0..7 (the fixed schema), or -1. */
int syslog_severity_level(int severity);

#endif /* CLI_NAMES_H */
