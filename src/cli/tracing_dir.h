/* SPDX-License-Identifier: MIT */
#ifndef CLI_TRACING_DIR_H
#define CLI_TRACING_DIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The tracefs directory, looked for where the library looks for it:
 * /sys/kernel/tracing when user_events_data is there, else the first
 * tracefs mount in /proc/mounts, else <debugfs>/tracing.
 * $EHSYSLOG_TRACEFS replaces the search (for testing).  False if none.
 */
bool cli_tracing_dir(char *buf, size_t cap);

#endif /* CLI_TRACING_DIR_H */
