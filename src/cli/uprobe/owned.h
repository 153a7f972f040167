/* SPDX-License-Identifier: MIT */
/*
 * Which uprobe events a reader (tail, export) defined, so that they go
 * again when it is gone.  The definitions are kernel-wide and outlive
 * their process; a reader that reused definitions it found (another
 * reader's, or 'ehsyslog register --uprobes's, which stay until deleted)
 * must not remove them.  So each reader that defines events writes
 * DIR/uprobes-PID-START-NS (cli_runtime_dir(); the reader's name and
 * lock, reader_alive.h, held while it runs), one line "GROUP LEVELS"
 * (LEVELS: hexadecimal, bit per level 1..5), and at exit removes the
 * events, and the file once none is left.  An event another reader still has enabled
 * cannot be removed (EBUSY): the file stays, and since its process is
 * gone, the next reader or 'ehsyslog cleanup' removes what is no longer
 * enabled anywhere, as also after a SIGKILL.
 */
#ifndef EHSYSLOG_CLI_UPROBE_OWNED_H
#define EHSYSLOG_CLI_UPROBE_OWNED_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/uprobe/ehs_uprobes.h"

#define OWNED_PREFIX "uprobes-"

struct owned {
	char path[4096];	/* "" until owned_claim succeeded */
	int fd;	/* then: the file, locked */
};

/* Writes this process's file for group's levels, before defining them.
 * 0, or -errno (the caller says what follows: nothing removes them after
 * a SIGKILL). */
int owned_claim(struct owned *o, const char *dir, const char *group, unsigned levels);

/* Rewrites o's file (if claimed) to the levels this process still owns
 * (those it defined, then those it could not remove); 0 removes it. */
void owned_update(struct owned *o, const char *group, unsigned levels);

/*
 * For each file in dir of a process that is gone: removes its events
 * from tracing where no tracer has them enabled (with remove), calling
 * cb (may be NULL) as ehs_uprobes_remove does; the file goes once they are.
 * Returns how many such files were found, or -errno when dir cannot be
 * read (-ENOENT: none).
 */
int owned_stale(const char *dir, const char *tracing, bool remove, ehs_uprobes_cb cb, void *ctx);

/* The levels of group that running readers defined (and will remove
 * when they exit), 0 when none; *pid gets one such reader's. */
unsigned owned_running(const char *dir, const char *group, long *pid);

#endif
