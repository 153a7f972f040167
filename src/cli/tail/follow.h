/* SPDX-License-Identifier: MIT */
/*
 * What a reader on the uprobe transport does so that its events reach
 * every process, as user_events' do (live.c calls it each read pass).
 * A uprobe is bound to one file, the inode its path named when it was
 * defined, so two kinds of process are out of reach of the events as
 * first defined:
 *   - those that load the file now at the library's path, after an
 *     upgrade renamed a new one over it: the path's inode is compared at
 *     each pass, and a new file's probes are added to the events;
 *   - those that load another copy (a container image's, a vendored
 *     one): unless the reader was given its library by name, the files
 *     running processes map are searched once a second (copies.h), and
 *     the probes of each copy of ours are added to the same events.
 * The kernel appends a probe with the same arguments to an existing
 * event, so the names stay (ehsyslog:info covers every file), and the
 * probes added stay until the events are deleted: the kernel refuses to
 * take one probe out of an enabled event.  What cannot be followed is
 * said once on standard error.
 */
#ifndef EHSYSLOG_CLI_TAIL_FOLLOW_H
#define EHSYSLOG_CLI_TAIL_FOLLOW_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "cli/uprobe/ehs_uprobes.h"

struct copies;

struct follow {
	char path[PATH_MAX];	/* the library's path */
	dev_t dev;		/* and the file last found there */
	ino_t ino;
	const char *tracing;	/* where uprobe_events is */
	const char *group;
	unsigned levels;	/* bit per level 1..5 */
	struct copies *copies;	/* NULL: only the path is followed */
	struct timespec next_search;
};

/* Notes the file at path now; copies: search running processes for
 * other copies too.  tracing and group are kept, not copied.  0, or
 * -1 when the search cannot be set up (out of memory). */
int follow_start(struct follow *f, const char *path, const char *tracing, const char *group,
		 unsigned levels, bool copies);

/* One pass: the path's file, and once a second the copies.  The bits
 * of the events it had to define again (deleted meanwhile), which are
 * then the reader's to remove. */
unsigned follow_pass(struct follow *f);

void follow_end(struct follow *f);

#endif
