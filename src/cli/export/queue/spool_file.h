/* SPDX-License-Identifier: MIT */
/*
 * The queue's directory and its files, opened as ssh opens its own: the
 * directory only when it is owned by the user export runs as and no one
 * else can write it, its files relative to it, never through a symbolic
 * link, never blocking (a FIFO cannot hang export), and used only when
 * they are regular files of that user.  Within such a directory nobody
 * else can add, replace, rename or remove a file, so what export finds
 * there is what it or its user left.
 */
#ifndef EHSYSLOG_CLI_EXPORT_SPOOL_FILE_H
#define EHSYSLOG_CLI_EXPORT_SPOOL_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* The directory at path, made (mode 0700) when it is missing, opened;
 * -1 after saying why on stderr: it is a symbolic link, not owned by
 * the user export runs as, writable by its group or others, or cannot
 * be made or opened. */
int spool_dir_open(const char *path);

/* Returned by spool_file_open for a name that is there but is no
 * regular file of export's user. */
#define SPOOL_FILE_FOREIGN (-2)

/* The file name of directory dir opened with flags (O_CREAT's mode
 * 0600); -1 with errno, or SPOOL_FILE_FOREIGN (a symbolic link, a
 * directory, a FIFO, a device, another user's file). */
int spool_file_open(int dir, const char *name, int flags);

/* Whether the entry name of dir, not followed, is a regular file of
 * export's user; its size into *size.  -1 with errno when it cannot be
 * looked at. */
int spool_file_own(int dir, const char *name, off_t *size);

/* Renames the entry name of dir out of the way, to "NAME.aside" or
 * "NAME.aside.N" when that is taken, that name into aside (of len
 * bytes); -1 with errno when no name is free or it cannot be renamed. */
int spool_set_aside(int dir, const char *name, char *aside, size_t len);

#endif
