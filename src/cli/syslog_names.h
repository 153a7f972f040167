/* SPDX-License-Identifier: MIT */
/* syslog severity and facility names, as syslog.conf spells them. */
#ifndef EHSYSLOG_CLI_SYSLOG_NAMES_H
#define EHSYSLOG_CLI_SYSLOG_NAMES_H

#define SYSLOG_SEVERITIES 8
#define SYSLOG_FACILITIES 24

/* "emerg".."debug"; NULL outside 0..7. */
const char *severity_name(unsigned severity);
/* "kern".."local7"; NULL outside 0..23. */
const char *facility_name(unsigned facility);

/* A name (case-insensitive) or a number in range; -1 if neither. */
int severity_parse(const char *s);
int facility_parse(const char *s);

/* The EventHeader level a severity maps to (DESIGN.md's schema). */
unsigned severity_level(unsigned severity);

#endif
