/* SPDX-License-Identifier: MIT */
#ifndef CLI_READ_FILE_H
#define CLI_READ_FILE_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * Reads a whole regular file of at most max bytes into a malloc'ed,
 * NUL-terminated *text.  open_flags are added to O_RDONLY|O_CLOEXEC
 * (O_NOFOLLOW, say).  Returns 0 or a negative errno: EFBIG beyond max,
 * EISDIR for a directory, EINVAL for
 * anything else but a regular file.  *st describes the file.
 */
int cli_read_file(const char *path, int open_flags, size_t max,
		  char **text, size_t *len, struct stat *st);

#endif /* CLI_READ_FILE_H */
