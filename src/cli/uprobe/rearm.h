/* SPDX-License-Identifier: MIT */
/*
 * Arming probes appended to enabled uprobe events.  The kernel appends
 * a probe to an event that has one already (same group, name and
 * arguments), but registers an event's probes only when the event goes
 * from enabled nowhere to enabled somewhere (trace_uprobe.c's
 * probe_event_enable): a probe appended while any instance has the
 * event enabled never fires.  Checked on 6.12's source and on 6.18.
 * So after appending, the event is disabled in every instance that has
 * it enabled and enabled there again, which registers all its probes.
 * What the probes already armed fire in between is lost to every
 * reader: milliseconds, once per file added.  A perf session's use of
 * the event (not an instance's) cannot be reset so: a probe added
 * meanwhile stays unarmed for it.
 */
#ifndef EHSYSLOG_CLI_UPROBE_REARM_H
#define EHSYSLOG_CLI_UPROBE_REARM_H

#include <stddef.h>

/* Disables the events GROUP/EVENTS[0..n) of the tracefs at tracing
 * wherever one is enabled (the top level, each instance), then enables
 * them there again.  0, or -errno of the first failure (an instance
 * removed meanwhile is not one); a failure to disable leaves enabled
 * what was. */
int uprobe_rearm(const char *tracing, const char *group, const char *const *events, size_t n);

#endif
