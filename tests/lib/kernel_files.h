/* SPDX-License-Identifier: MIT */
/* What the real-kernel tests read and write outside the library: its
 * descriptor in /proc/self/fd and the tracefs files.  No Check here:
 * the helper programs that run without Check use it too. */
#ifndef TESTS_KERNEL_FILES_H
#define TESTS_KERNEL_FILES_H

#include <stddef.h>

#define TRACING "/sys/kernel/tracing"

/* 0 if this process is root and may write user_events_data; else prints
 * the SKIP line the real-kernel programs exit 77 with, and returns 77. */
int kf_skip_unless_usable(void);

/* The highest of this process's descriptors whose /proc/self/fd link
 * contains one of needles (NULL-terminated); -1 if none, -2 if
 * /proc/self/fd cannot be read. */
int proc_fd_find(const char *const needles[]);

/* The writer's descriptor, found the way an outsider would: the highest
 * one on user_events_data; -1 if none, -2 on error. */
int user_events_fd(void);

/* The start of path's contents in buf (at most cap - 1 bytes, then a
 * NUL); NULL if it cannot be read. */
char *kf_read(const char *path, char *buf, size_t cap);

/* Replaces path's contents with text: 0, or -1 if open, write or close
 * failed. */
int kf_write(const char *path, const char *text);

/* 1 if a line of user_events_status is name (possibly with " # ..."
 * after), 0 if none is, -1 if the file cannot be read. */
int kf_status_lists(const char *name);

/* Writes "1\n" or "0\n" to TRACING/events/user_events/EVENT/enable
 * (every user_events event when event is NULL): 0, or -1. */
int kf_enable(const char *event, int on);

#endif
