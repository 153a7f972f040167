/* SPDX-License-Identifier: MIT */
/*
 * The files running processes have mapped to run code from, found in
 * /proc/PID/maps, so that a reader can add the probes of every copy of
 * the library to its events: a uprobe reaches one file (one inode), and
 * a program may load a copy the reader does not follow by name (a
 * container image's, a vendored one, a build tree's).  Each file, told
 * apart by the device and inode maps shows, is handed on once; the
 * caller decides whether it is ours.
 */
#ifndef EHSYSLOG_CLI_UPROBE_COPIES_H
#define EHSYSLOG_CLI_UPROBE_COPIES_H

#include <stddef.h>
#include <sys/types.h>

struct copies;

/* path reaches the file from this process, whatever mount namespace the
 * process that maps it is in: /proc/PID/root/ and the path it maps
 * where that is the same file, else /proc/PID/map_files/START-END. */
typedef void copies_found(const char *path, pid_t pid, void *ctx);

struct copies *copies_new(void);
void copies_free(struct copies *c);

/* Reads the maps of every process in /proc and calls found for each
 * executable file mapping of a file not handed on before.  The number
 * of processes read, or -errno when /proc cannot be listed. */
int copies_scan(struct copies *c, const char *proc, copies_found *found, void *ctx);

/* How many files copies_scan has seen so far. */
size_t copies_seen(const struct copies *c);

#endif
