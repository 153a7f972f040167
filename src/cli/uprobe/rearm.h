/* SPDX-License-Identifier: MIT */
/*
 * Arming a probe added to an enabled uprobe event.  The kernel appends
 * a probe to an event that has one already (same group, name and
 * arguments), but registers an event's probes only when the event goes
 * from enabled nowhere to enabled somewhere (trace_uprobe.c's
 * probe_event_enable): a probe appended while any instance has the
 * event enabled never fires.  Checked on 6.12's source and on 6.18.
 * So a probe is added between a pause, which disables the event in
 * every instance that has it enabled, and a resume, which enables it
 * there again and so registers all its probes.  What the probes already
 * armed fire in between is lost to every reader: milliseconds, once per
 * file added.  A perf session's use of the event (not an instance's)
 * cannot be reset so: a probe added meanwhile stays unarmed for it.
 */
#ifndef EHSYSLOG_CLI_UPROBE_REARM_H
#define EHSYSLOG_CLI_UPROBE_REARM_H

struct uprobe_paused;

/* Disables event GROUP/EVENT of the tracefs at tracing wherever it is
 * enabled (the top level, each instance); *paused holds where, for
 * uprobe_resume().  0, or -errno with nothing disabled (*paused NULL). */
int uprobe_pause(const char *tracing, const char *group, const char *event,
		 struct uprobe_paused **paused);

/* Enables the event again where uprobe_pause() disabled it, and frees
 * paused (NULL: nothing).  0, or -errno of the first failure (an
 * instance removed meanwhile is not one). */
int uprobe_resume(struct uprobe_paused *paused);

#endif
