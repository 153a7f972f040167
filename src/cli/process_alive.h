/* SPDX-License-Identifier: MIT */
/*
 * Whether a process that left something behind (a tracefs instance, a
 * state file) still runs: it is known by its pid and its start time,
 * field 22 of /proc/<pid>/stat (clock ticks since boot), so that a pid
 * reused since is not taken for it.
 */
#ifndef CLI_PROCESS_ALIVE_H
#define CLI_PROCESS_ALIVE_H

#include <stdbool.h>
#include <stdint.h>

/* The state (field 3) and start time (field 22) of /proc/<pid>/stat,
 * pid being a number or "self".  0, or -errno: -ENOENT when no such
 * process. */
int process_stat(const char *pid, char *state, uintmax_t *start);

/* True when process pid is surely gone: no such process, a zombie, or
 * (start not NULL) one started at another time.  False when it runs or
 * /proc cannot tell. */
bool process_gone(long pid, const uintmax_t *start);

#endif /* CLI_PROCESS_ALIVE_H */
