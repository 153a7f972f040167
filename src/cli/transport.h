/* SPDX-License-Identifier: MIT */
/*
 * Which transport this kernel offers the library's events: user_events
 * (the library's own tracepoints) where it has them, else the library's
 * USDT probes read through uprobe events (uprobe/ehs_uprobes.h), else
 * none.  Readers (tail, export) follow user_events where both exist,
 * uprobes only when asked.
 */
#ifndef CLI_TRANSPORT_H
#define CLI_TRANSPORT_H

#include <stddef.h>

enum cli_transport {
	CLI_TRANSPORT_NONE,	/* no tracefs, or neither file in it */
	CLI_TRANSPORT_USER_EVENTS,
	CLI_TRANSPORT_UPROBES,
	CLI_TRANSPORT_HIDDEN,	/* tracefs cannot be searched by this user */
};

/* The transport of the tracefs ue_tracefs_dir() finds; its directory
 * into tracing (cap bytes; "" when there is none). */
enum cli_transport cli_transport(char *tracing, size_t cap);

/* The tracefs where uprobe events are defined into tracing: 0, or the
 * exit code with why in err: CLI_EXIT_NO_USER_EVENTS for no tracefs or
 * a kernel without uprobe events, CLI_EXIT_PERMISSION for a tracefs
 * this user may not search. */
int cli_uprobe_tracing(char *tracing, size_t cap, char *err, size_t errlen);

/* Where user_events are missing (rc, an exit code, is
 * CLI_EXIT_NO_USER_EVENTS) but uprobe events are not, says on stderr as
 * cmd's "this kernel has uprobe events: " and what. */
void cli_uprobes_hint(const char *cmd, int rc, const char *what);

#endif
