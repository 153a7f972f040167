/* SPDX-License-Identifier: MIT */
/* Private to src/user_events and its unit tests. */
#ifndef UE_INTERNAL_H
#define UE_INTERNAL_H

#include <stddef.h>

#include "ehsyslog/user_events.h"

#define UE_FIXED_PATH "/sys/kernel/tracing/user_events_data"
#define UE_MOUNTS_PATH "/proc/mounts"

/* After a transient failure, the write path tries to get a traced
 * tracepoint's registration back at most once per this many ms (the
 * public header and libehsyslog(7) say 100 ms). */
#define UE_RETRY_INTERVAL_MS 100

/* statfs f_type of tracefs (also what <debugfs>/tracing automounts). */
#define UE_TRACEFS_MAGIC 0x74726163

/* Where to look for user_events_data. */
struct ue_paths {
	const char *fixed;	/* tried first */
	const char *mounts;	/* a /proc/mounts-format file */
};

/* The result of a search. */
struct ue_found {
	int fd;			/* open O_WRONLY|O_CLOEXEC and raised, or -1 */
	int state;		/* UE_STATUS_OK or why not */
	int error;		/* errno of the failure */
	char path[UE_PATH_MAX];	/* opened, or the most telling one tried */
};

/* Finds and opens user_events_data: the fixed path, then the first
 * tracefs mount, then the first debugfs mount's tracing/.  No allocation. */
void ue__discover(const struct ue_paths *paths, struct ue_found *out);

/* Moves fd to a high number (see the public header); returns the new fd,
 * or fd itself when it cannot be moved. */
int ue__fd_raise(int fd);

/* Writes "<name> <EH_REGISTRATION_FIELDS>" into buf; returns its length,
 * or -E2BIG when it exceeds the kernel's limit or cap. */
int ue__registration_string(char *buf, size_t cap, const char *name);

/* Tests only: search other paths from now on (NULL restores a default). */
void ue__set_paths(const char *fixed, const char *mounts);

#endif /* UE_INTERNAL_H */
