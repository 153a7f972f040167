/* SPDX-License-Identifier: MIT */
/* Private to src/user_events and its unit tests. */
#ifndef UE_INTERNAL_H
#define UE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ehsyslog/user_events.h"

#define UE_FIXED_PATH "/sys/kernel/tracing/user_events_data"
#define UE_MOUNTS_PATH "/proc/mounts"

/* After a transient failure, the write path tries to get a traced
 * tracepoint's registration back at most once per this many ms (the
 * public header and libehsyslog(7) say 100 ms). */
#define UE_RETRY_INTERVAL_MS 100

/* statfs f_type of tracefs (also what <debugfs>/tracing automounts). */
#define UE_TRACEFS_MAGIC 0x74726163

/* Names the tracefs directory instead of the search (see the public
 * header); ignored under secure execution. */
#define UE_TRACEFS_ENV "EHSYSLOG_TRACEFS"

/* Where to look for user_events_data. */
struct ue_paths {
	const char *fixed;	/* tried first */
	const char *mounts;	/* a /proc/mounts-format file */
	bool env;		/* UE_TRACEFS_ENV, when set, replaces both */
};

/* The result of a search. */
struct ue_found {
	int fd;			/* open O_WRONLY|O_CLOEXEC and raised, or -1 */
	bool beyond;		/* fd is at the soft RLIMIT_NOFILE (fdlimit.c) */
	int state;		/* UE_STATUS_OK or why not */
	int error;		/* errno of the failure */
	uint64_t dev, ino;	/* the file opened, checked against path */
	char path[UE_PATH_MAX];	/* opened, or the most telling one tried */
};

/* Finds and opens user_events_data: in $EHSYSLOG_TRACEFS if paths->env
 * and it is set, else the fixed path, then the first tracefs mount, then
 * the first debugfs mount's tracing/; but when the fixed path's
 * directory is a tracefs without it, the kernel has no user_events and
 * the search ends there (UE_STATUS_NO_USER_EVENTS).  No allocation.
 * Another thread of the program may close or dup2() onto the number
 * open() returned before the writer publishes it (fdguard.h): then the
 * number is the program's, and the search ends with UE_STATUS_ERROR and
 * EAGAIN, a transient failure, leaving that number alone. */
void ue__discover(const struct ue_paths *paths, struct ue_found *out);

/* ue_tracefs_dir() for these paths: the directory of the first of
 * ue__discover's candidates that exists ($EHSYSLOG_TRACEFS as given). */
int ue__tracefs_dir(const struct ue_paths *paths, char *buf, size_t cap);

/* Moves fd, the file dev/ino, to a high number (see the public header):
 * the soft RLIMIT_NOFILE itself where ue__fd_beyond_limit() can (*beyond
 * set), else below it.  Returns the new fd, or fd itself when it cannot
 * be moved.  The old number is closed only while it still holds dev/ino. */
int ue__fd_raise(int fd, bool *beyond, uint64_t dev, uint64_t ino);

/* True when fd is open on the file dev/ino (one fstat); errno kept. */
bool ue__fd_is(int fd, uint64_t dev, uint64_t ino);

/* Closes fd if it still holds the file dev/ino, else leaves the number
 * to whoever put a file there; errno kept. */
void ue__close_if(int fd, uint64_t dev, uint64_t ino);

/* The highest soft RLIMIT_NOFILE at which the descriptor goes to the
 * limit itself: the kernel's descriptor table then costs at most 64 KiB
 * (see fdlimit.c). */
#define UE_FD_BEYOND_MAX 4096

/* A close-on-exec duplicate of fd at the number equal to the soft
 * RLIMIT_NOFILE, which no open(), dup2() or F_DUPFD of the program can
 * reach while the limit stays; -1 when it cannot be had (soft == hard,
 * soft above UE_FD_BEYOND_MAX, the number taken, the limit changed
 * meanwhile).  fd stays open; errno kept. */
int ue__fd_beyond_limit(int fd);

/* Writes "<name> <EH_REGISTRATION_FIELDS>" into buf; returns its length,
 * or -E2BIG when it exceeds the kernel's limit or cap (kernel.c). */
int ue__registration_string(char *buf, size_t cap, const char *name);

/* DIAG_IOCSUNREG on fd: the kernel stops updating bit of *word.
 * Returns 0 or -errno; errno kept (kernel.c). */
int ue__kernel_unregister(int fd, uint32_t *word, unsigned bit);

/* Tests only: search other paths from now on, and ignore
 * $EHSYSLOG_TRACEFS; both NULL restore the defaults, the variable too. */
void ue__set_paths(const char *fixed, const char *mounts);

#endif /* UE_INTERNAL_H */
