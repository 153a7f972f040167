/* SPDX-License-Identifier: MIT */
/*
 * Where an event is enabled in tracefs: the top level and each
 * instance whose events/GROUP/EVENT/enable begins with "1" ("1*": on,
 * by a trigger's soft mode).  A perf session's use of an event does not
 * show there.
 */
#ifndef EHSYSLOG_CLI_UPROBE_ENABLED_H
#define EHSYSLOG_CLI_UPROBE_ENABLED_H

/* Calls cb for each place GROUP/EVENT is enabled in the tracefs at
 * tracing, the top level first: with the place's enable file and the
 * instance's name (NULL for the top level).  Stops at cb's first
 * nonzero answer and returns it; 0 otherwise. */
typedef int (*uprobe_enabled_cb)(const char *enable, const char *instance, void *ctx);
int uprobe_each_enabled(const char *tracing, const char *group, const char *event,
			uprobe_enabled_cb cb, void *ctx);

#endif
