/* SPDX-License-Identifier: MIT */
/* ehsyslog register --uprobes: the library's uprobe events
 * (uprobe/ehs_uprobes.h) defined or deleted, for perf and trace-cmd to
 * name (perf record -e ehsyslog:info). */
#ifndef CLI_REGISTER_UPROBES_H
#define CLI_REGISTER_UPROBES_H

#include <stdbool.h>

/*
 * Defines (or, with remove, deletes) the events of levels (bit per
 * level 1..5) for each of the libs (none: the installed library), and
 * prints each event's name as perf names it, GROUP:EVENT.  Events already
 * defined at the same place are kept and printed.  Returns an exit code.
 */
int register_uprobes(const char *cmd, unsigned levels, bool remove, char **libs, int nlibs);

#endif
