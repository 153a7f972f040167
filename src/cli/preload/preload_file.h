/* SPDX-License-Identifier: MIT */
/*
 * Reading and replacing /etc/ld.so.preload safely: every process on the
 * machine reads it, so it is never seen half-written (a new file is
 * written beside it, synced, then renamed over it) and concurrent edits
 * are serialised with a lock file.
 */
#ifndef CLI_PRELOAD_FILE_H
#define CLI_PRELOAD_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct preload_file {
	const char *path;
	char *text;		/* malloc'ed contents, NUL-terminated */
	size_t len;
	bool exists;
	struct stat st;		/* when exists */
	int lock_fd;		/* -1 unless locked */
};

/*
 * Takes the lock "<dir>/.<name>.lock" (kept: removing it would race with
 * another waiter).  Returns 0, or prints cmd's error and returns an exit
 * code.
 */
int preload_file_lock(const char *cmd, struct preload_file *f, const char *path);

/* Reads the file (a missing file is empty).  Refuses a symbolic link or
 * anything but a regular file.  0 or an exit code, error printed. */
int preload_file_read(const char *cmd, struct preload_file *f, const char *path);

/* Replaces the file with text atomically, keeping its mode and owner
 * (new file: 0644).  0 or an exit code, error printed. */
int preload_file_replace(const char *cmd, struct preload_file *f, const char *text, size_t len);

/* Removes the file.  0 or an exit code, error printed. */
int preload_file_remove(const char *cmd, struct preload_file *f);

/* Prints "cannot WHAT PATH: <err>", with the hint that it needs root when
 * err is a permission error, and returns the exit code for err.  For the
 * files beside /etc/ld.so.preload and the systemd drop-ins alike. */
int preload_file_error(const char *cmd, const char *what, const char *path, int err);

/* Frees the text and drops the lock. */
void preload_file_release(struct preload_file *f);

#endif /* CLI_PRELOAD_FILE_H */
