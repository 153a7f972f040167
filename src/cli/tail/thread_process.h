/* SPDX-License-Identifier: MIT */
/*
 * The process a thread that logged belongs to, for export's records'
 * resource and tail's pid: the trace gives the thread id only (ftrace's common_pid), so
 * the process id is /proc/TID/status's Tgid (the kernel's saved_tgids
 * once the thread is gone), and its executable's name
 * the base name of /proc/PID/exe's target, as the semantic conventions
 * say for process.executable.name; where that link cannot be read (a
 * kernel thread, or not permitted), /proc/PID/comm, the name the kernel
 * gave the process's first thread at exec.  Read once per thread and
 * kept a few seconds, so a busy logger costs one read, and a reused id
 * is seen again soon.
 */
#ifndef EHSYSLOG_CLI_TAIL_THREAD_PROCESS_H
#define EHSYSLOG_CLI_TAIL_THREAD_PROCESS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct thread_process {
	uint32_t pid;
	char executable[NAME_MAX + 1];	/* empty when none could be read */
};

/* NULL when the thread is gone and the kernel kept nothing of it (or
 * /proc cannot say). */
const struct thread_process *thread_process(uint32_t tid, int64_t now_ns);

/* The tracefs directory whose saved_tgids and saved_cmdlines say which
 * process a thread that is gone was in, and its name: the kernel fills
 * them while a reader's instance has record-tgid on (tail/live.c).  The
 * name is then the process's comm, not its executable's (the same name
 * cut to 15 bytes, unless the process renamed itself).  NULL: /proc only. */
void thread_process_kernel(const char *dir);

/* The Tgid of a /proc/TID/status text s[0..n); false when it has none. */
bool thread_process_tgid(const char *s, size_t n, uint32_t *tgid);

/* Into out, the base name of the executable an /proc/PID/exe target
 * names, without the " (deleted)" the kernel adds once the file was
 * removed (a package upgrade); false when nothing is left. */
bool thread_process_exe_name(const char *target, char *out, size_t cap);

#endif
