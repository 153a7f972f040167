/* SPDX-License-Identifier: MIT */
/*
 * uprobe event definitions in tracefs's uprobe_events, which are
 * kernel-wide (every instance sees them): defined by appending
 * "p:GROUP/EVENT PATH:0xOFFSET(0xREFCTR) ARGS" and removed by appending
 * "-:GROUP/EVENT".  The file is only ever opened for appending: opened
 * with truncation it would remove every uprobe event of the machine.
 */
#ifndef EHSYSLOG_CLI_UPROBE_EVENTS_H
#define EHSYSLOG_CLI_UPROBE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

/* Appends the line (without its newline) to tracing/uprobe_events.
 * 0, or -errno: -ENOENT when this kernel has no uprobe events, -EEXIST
 * for an event already defined, -EINVAL for a definition it refuses. */
int uprobe_events_write(const char *tracing, const char *line);

/* Removes GROUP/EVENT.  0, -ENOENT when it is not defined, -EBUSY
 * while a tracer has it enabled (in any instance, or through perf), or
 * another -errno. */
int uprobe_events_remove(const char *tracing, const char *group, const char *event);

/*
 * Takes the exclusive flock(2) on tracing/uprobe_events that ehsyslog's
 * readers and register hold while they add probes to the events and
 * arm them (rearm.h), so that one reader's arming is over before
 * another tries the same file's probe (and gets EEXIST, with no gap).
 * The lock is the inode's: every mount of tracefs, in any namespace,
 * shares it.  Waits up to 5 s for a holder (one stopped by a debugger,
 * say), then goes on without.  Returns the descriptor to pass to
 * uprobe_events_unlock(), or -1 when not locked.
 */
int uprobe_events_lock(const char *tracing);
void uprobe_events_unlock(int fd);

/* Whether GROUP/EVENT is defined: 1, 0, or -errno. */
int uprobe_events_defined(const char *tracing, const char *group, const char *event);

/* Whether this kernel offers uprobe events there (tracing/uprobe_events
 * exists); false with errno set otherwise (EACCES: cannot be told). */
bool uprobe_events_available(const char *tracing);

/*
 * Calls cb for each uprobe event defined, with its group, event and the
 * rest of its definition line (what the kernel shows: PATH:0x...(0x...)
 * ARGS).  Returns how many, or -errno when the list cannot be read.
 */
typedef void (*uprobe_events_cb)(const char *group, const char *event, const char *rest,
				 void *ctx);
int uprobe_events_each(const char *tracing, uprobe_events_cb cb, void *ctx);

#endif
