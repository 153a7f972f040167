/* SPDX-License-Identifier: MIT */
/*
 * The names of the library's uprobe events (ehs_uprobes.h): group
 * "ehsyslog" for the installed library (paths.h), "ehsyslog_" and 8
 * lowercase hex digits, FNV-1a (32 bits) of its real path, for any other
 * copy; events critical, error, warning, info and verbose, one per
 * EventHeader level 1..5, named as the library's probes are (not L1..L5:
 * perf 6.1 reads "L2" as the L2 cache and refuses ehsyslog:L2).
 */
#ifndef EHSYSLOG_TRACEEVENT_UPROBE_GROUP_H
#define EHSYSLOG_TRACEEVENT_UPROBE_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#define EHS_UPROBE_GROUP "ehsyslog"
#define EHS_UPROBE_LEVELS 5	/* EventHeader levels 1..5 */
#define EHS_UPROBE_GROUP_MAX sizeof EHS_UPROBE_GROUP "_12345678"

/* The group of the library at real (a real path; NULL for the
 * installed library) into g. */
void ehs_uprobe_group_name(const char *real, bool installed, char *g, size_t cap);

/* True for a group name of ehsyslog's. */
bool ehs_uprobe_group(const char *group);

/* True for the event names of the five levels; *level (may be NULL)
 * gets the level. */
bool ehs_uprobe_event(const char *event, unsigned *level);

/* The event (and probe) name of level 1..EHS_UPROBE_LEVELS. */
const char *ehs_uprobe_event_name(unsigned level);

#endif
