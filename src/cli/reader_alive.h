/* SPDX-License-Identifier: MIT */
/*
 * Whether a reader (tail, export) that left something behind still runs,
 * told the same in every PID namespace.  A pid means nothing outside its
 * namespace: a reader in a container is pid 7 there and another number,
 * or none that can be seen, elsewhere.  So a reader names what it leaves
 * "PID-START-NS" (START: field 22 of /proc/PID/stat; NS: the inode of
 * /proc/PID/ns/pid) and, for its whole life, holds an exclusive flock(2)
 * on it (a tracefs instance's directory, a file under /run/ehsyslog):
 * the kernel drops the lock when the reader dies, and every namespace
 * that reaches the file sees it.  Another reader judges it:
 *
 *   - locked: alive;
 *   - else, in the judge's own PID namespace (and /proc showing it):
 *     gone when no process PID started at START runs (process_alive.h);
 *   - else, from another namespace: gone when the lock can be tested,
 *     is free, and the thing was made READER_GRACE seconds ago or more
 *     (a reader takes its lock just after making it);
 *   - anything that cannot be tested (not opened: no permission) is
 *     alive.
 *
 * Names of older versions, "PID-START" and "PID", carry no namespace:
 * only a judge in the initial PID namespace takes them for its own and
 * judges them by pid; any other leaves them alone.  (Export's counters
 * keep their name, export-PID.state, and their pid rule; a lock held
 * on them only says their export runs: cli/export/state.h.)
 */
#ifndef CLI_READER_ALIVE_H
#define CLI_READER_ALIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define READER_GRACE 5

struct reader_id {
	long pid;
	uintmax_t start;
	uintmax_t pidns;	/* 0: an older name, without it */
	bool has_start;		/* false: "PID" alone */
};

/* This process's: 0, or -errno from reading /proc/self. */
int reader_self(struct reader_id *id);

/* "PID-START-NS" into buf: 0, or -ENAMETOOLONG. */
int reader_format(const struct reader_id *id, char *buf, size_t len);

/* Parses all of s as "PID-START-NS", "PID-START" or, with pid_only,
 * "PID" (decimal, no leading zero); false when it is none of these. */
bool reader_parse(const char *s, struct reader_id *id, bool pid_only);

/* The reader's lock on fd (its instance's directory, its file), held
 * until fd is closed: 0, or -errno. */
int reader_hold(int fd);

/* Whether a reader holds its lock on path (under dirfd, as openat takes
 * them): 1 held, 0 free, -1 cannot tell (path cannot be opened).  Where
 * it could be opened, *st (if not NULL) gets its status. */
int reader_locked(int dirfd, const char *path, struct stat *st);

/* Whether the reader id, that left path (under dirfd, as openat takes
 * them), is surely gone, by the rule above. */
bool reader_gone(const struct reader_id *id, int dirfd, const char *path);

#endif /* CLI_READER_ALIVE_H */
