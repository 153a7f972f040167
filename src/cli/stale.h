/* SPDX-License-Identifier: MIT */
/*
 * Tracefs instances that `ehsyslog tail` left behind.  A tail names its
 * instance "ehsyslog-tail-PID-START-NS" (reader_alive.h), holds the lock
 * on its directory while it runs, and removes it on exit.  A tail killed
 * by SIGKILL, the OOM killer or a crash cannot: its instance keeps every
 * tracepoint it enabled, and every preloaded program keeps paying for
 * traced calls.  Such an instance is stale when reader_gone() says its
 * tail is gone; one that cannot be judged so stays.
 */
#ifndef CLI_STALE_H
#define CLI_STALE_H

#include <stdbool.h>
#include <stddef.h>

#define STALE_PREFIX "ehsyslog-tail-"

/* This process's instance name into buf: 0, or -errno (-ENAMETOOLONG
 * when len is short; others from reading /proc/self). */
int stale_own_name(char *buf, size_t len);

/* Called for each stale instance: err is 0 when it was removed (or only
 * found, when not removing), else the errno of the failed removal. */
typedef void (*stale_cb)(const char *name, int err, void *ctx);

/*
 * Finds our stale instances under <tracing>/instances and, with remove,
 * disables their events and removes them.  An instance another process
 * removed meanwhile is skipped silently.  Returns how many were found
 * stale, or -errno when the directory cannot be read or /proc cannot
 * tell who is alive (then nothing is judged stale).  A missing instances
 * directory holds nothing: 0.
 */
int stale_instances(const char *tracing, bool remove, stale_cb cb, void *ctx);

/* For commands that start tracing (tail, register): removes the stale
 * instances, reporting each on stderr as "ehsyslog CMD: removed stale
 * instance NAME (its tail is gone)" or why it could not, then the uprobe
 * events that readers now gone defined and no tracer has enabled
 * (uprobe/owned.h).  Never fails: the command goes on. */
void stale_remove_reporting(const char *cmd);

/* An ehs_uprobes_cb (uprobe/ehs_uprobes.h) that reports on stderr, as
 * stale_remove_reporting does, for the command named by ctx. */
void stale_report_uprobe(const char *group, unsigned level, int rc, void *ctx);

#endif /* CLI_STALE_H */
