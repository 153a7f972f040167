/* SPDX-License-Identifier: MIT */
/* Finding a process's own descriptors by what they point at. */
#ifndef RELIAB_PROC_FD_H
#define RELIAB_PROC_FD_H

/* The highest of this process's descriptors whose /proc/self/fd link
 * contains one of needles (NULL-terminated); -1 if none, -2 if
 * /proc/self/fd cannot be read. */
int proc_fd_find(const char *const needles[]);

#endif
