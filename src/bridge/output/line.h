/* SPDX-License-Identifier: MIT */
/*
 * A service's standard output or error cut into entries as journald cuts
 * the stream it reads (journald-stream.c): pure functions of the bytes,
 * no allocation, no NUL terminator assumed.
 *
 *   An entry ends at the first '\n' or NUL, which is not part of it, or
 *   after EHS_OUTPUT_LINE_MAX bytes holding neither (journald's LineMax=
 *   default): those bytes are the entry, and the next starts after them.
 *   With the level prefix on (journald's default), an entry that starts
 *   with "<N>", N a digit 0..7 after at most two zeros, has severity N
 *   and its message is what follows; else it has the stream's (info).
 *   The prefix never sets a facility.  An empty message makes no entry.
 */
#ifndef EHS_BRIDGE_OUTPUT_LINE_H
#define EHS_BRIDGE_OUTPUT_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define EHS_OUTPUT_LINE_MAX (48 * 1024)

/* Whether byte c ends an entry. */
static inline bool ehs_output_ends(char c)
{
	return c == '\n' || c == '\0';
}

/* Where the first end lies in p[0..len), or len when there is none. */
size_t ehs_output_end(const char *p, size_t len);

/* The first entry of p[0..len): how many bytes it takes (its end
 * included), its length in *line_len; 0 when p holds no whole entry yet
 * (no end in its first len bytes, and len < EHS_OUTPUT_LINE_MAX). */
size_t ehs_output_cut(const char *p, size_t len, size_t *line_len);

/* The length of the level prefix at line[0..len) (0: none), and the
 * severity it gives in *severity (left alone without one). */
size_t ehs_output_prefix(const char *line, size_t len, int *severity);

#endif
