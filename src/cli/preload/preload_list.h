/* SPDX-License-Identifier: MIT */
/*
 * The text of /etc/ld.so.preload, as glibc's ld.so reads it: library
 * paths separated by white space or ':', '#' starting a comment that runs
 * to the end of the line.  Pure functions over a buffer, no I/O.
 */
#ifndef CLI_PRELOAD_LIST_H
#define CLI_PRELOAD_LIST_H

#include <stdbool.h>
#include <stddef.h>

/* True if an entry outside comments equals path. */
bool preload_list_has(const char *text, size_t len, const char *path);

/*
 * The text with path appended on a line of its own (after a newline if
 * the text does not end with one).  Malloc'ed, *out_len set; NULL when
 * out of memory.
 */
char *preload_list_add(const char *text, size_t len, const char *path, size_t *out_len);

/*
 * The text without the entries equal to path.  Lines that do not name it
 * are kept byte for byte; a line that does keeps its other entries (joined
 * by single spaces) and its comment, and disappears when nothing is left.
 * Malloc'ed, *out_len set; NULL when out of memory.
 */
char *preload_list_remove(const char *text, size_t len, const char *path, size_t *out_len);

/* True if the text holds nothing but white space. */
bool preload_list_blank(const char *text, size_t len);

#endif /* CLI_PRELOAD_LIST_H */
