/* SPDX-License-Identifier: MIT */
/*
 * Syslog over a stream (TCP to port 514 or 601, RFC 6587): where one
 * message ends in what a send hands over, so that each becomes one
 * datagram for ehs_datagram_parse (datagram.h).  A pure function of the
 * bytes: no allocation, no NUL assumed, and no byte is lost: the frames
 * tile the bytes exactly, and what does not frame is a message.
 *
 *   Octet counting   MSG-LEN, a digit run not starting with '0', one
 *                    space, then MSG-LEN bytes: the message.  Only when
 *                    that many bytes remain; a count larger than what
 *                    remains makes the rest one frame, all of it (count
 *                    included) the message.
 *   Non-transparent  anything else: the bytes up to the first '\n', or
 *                    NUL (some clients end a message with one), which
 *                    ends the frame and is not in the message.  Without
 *                    either, the rest is one frame and the message.
 *
 * The library keeps no buffer per descriptor: a send that splits a
 * message makes two messages of it, and a send that holds several makes
 * several.
 */
#ifndef EHS_BRIDGE_SYSLOG_STREAM_H
#define EHS_BRIDGE_SYSLOG_STREAM_H

#include <stddef.h>

/* The first frame of p[0..len): returns how many bytes it takes (0 only
 * when len is 0, 1..len else) and sets *msg, *msg_len to its message,
 * which lies inside it (len 0: p and 0). */
size_t ehs_syslog_frame(const char *p, size_t len, const char **msg, size_t *msg_len);

#endif
