/* SPDX-License-Identifier: MIT */
/*
 * A program's standard output and error as events, a line each, where
 * they are a log: a stream to journald (a socket whose inode
 * JOURNAL_STREAM names, or whose peer is /run/systemd/journal/stdout),
 * or a stream EHSYSLOG_STDIO names.  Descriptors 1 and 2 are looked at
 * once, at the program's first write() or writev() (none at start-up);
 * one found is watched as a socket of kind EHS_SOCK_OUTPUT
 * (../socket/socket.h), so that the interposer's write calls hand its
 * bytes here after the kernel took them.
 *
 * Lines are cut as journald cuts them (line.h), with its priority rules:
 * the "<N>" prefix when present, else info; facility daemon; the event
 * named by the program's short name, with a "stream" field of "stdout"
 * or "stderr".  A line written in several calls is one event, several
 * lines in one call several events.  What the program writes while no
 * one traces is not kept: the first line traced is the first that
 * starts after tracing did.
 */
#ifndef EHS_BRIDGE_OUTPUT_OUTPUT_H
#define EHS_BRIDGE_OUTPUT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

struct iovec;

/* Looks at descriptors 1 and 2 and watches those that are a log, unless
 * done: the first call does the work (an fstat of each, a getpeername of
 * a socket), every later one is a load.  Whether this call watched one.
 * errno preserved. */
bool ehs_output_find(void);

/* The kernel took the first sent bytes of iov[0..n) written to fd, a
 * watched output stream: their lines' events, the rest kept until the
 * line ends.  Only for iovecs the kernel has read.  errno preserved. */
void ehs_output_sent(int fd, const struct iovec *iov, size_t n, size_t sent);

#endif
