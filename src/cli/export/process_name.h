/* SPDX-License-Identifier: MIT */
/*
 * The name of a process that logged, for process.executable.name: its
 * /proc/PID/comm, as the data model's appendix maps journald's _COMM.
 * Read once per process and kept a few seconds, so a busy logger costs
 * one read, and a reused pid is seen again soon.
 */
#ifndef EHSYSLOG_CLI_EXPORT_PROCESS_NAME_H
#define EHSYSLOG_CLI_EXPORT_PROCESS_NAME_H

#include <stdbool.h>
#include <stdint.h>

/* NULL when the process is gone (or /proc cannot say). */
const char *process_name(uint32_t pid, int64_t now_ns);

#endif
