/* SPDX-License-Identifier: MIT */
/*
 * Which sockets carry syslog, and what is done with the bytes a program
 * sends on them itself (socket.c has the interposed calls).
 *
 * A destination is syslog when it is one of the local sockets
 *
 *   /dev/log, /run/systemd/journal/dev-log, /var/run/log   syslog datagrams
 *   /run/systemd/journal/socket                           journald's native protocol
 *
 * (the path as the program gives it: /dev/log is what clients name, and
 * on systemd machines the second is where it points), or a TCP or UDP
 * port of the syslog_ports setting at a loopback address, or at any
 * address with remote_syslog set.  A socket connected to one is watched
 * by its descriptor number, with the socket's inode, so that a number a
 * raw close() freed and another file took is told apart before anything
 * is done with its bytes.
 */
#ifndef EHS_PRELOAD_SYSLOG_SOCKET_H
#define EHS_PRELOAD_SYSLOG_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "common/hidden.h"

struct iovec;

enum ehs_sock_kind {
	EHS_SOCK_NONE = 0,
	EHS_SOCK_DGRAM,		/* one syslog message per datagram */
	EHS_SOCK_STREAM,	/* RFC 6587 frames: TCP, or a stream /dev/log */
	EHS_SOCK_JOURNAL,	/* journald's native protocol */
};

/* The kind of destination addr is for socket fd (whose type a stream or
 * datagram port needs), or NONE.  A few compares for any address that is
 * not AF_UNIX, AF_INET or AF_INET6; a port check reads the
 * configuration the first time.  errno preserved. */
enum ehs_sock_kind ehs_sock_kind_of(int fd, const struct sockaddr *addr, socklen_t len);

/* Watches fd as a socket of kind k (NONE: stops watching it).  False when
 * every slot is taken by a live socket: fd's datagrams make no event. */
bool ehs_sock_watch(int fd, enum ehs_sock_kind k);

/* The kind fd is watched as, or NONE.  A scan of a few slots. */
enum ehs_sock_kind ehs_sock_watched(int fd);

/* A bit per descriptor number below EHS_WATCH_BITS, set while a slot may
 * hold it, so that once a socket is watched a call on any other number
 * costs one bit test.  NULL until the first watch. */
#define EHS_WATCH_BITS 1024
#define EHS_WATCH_WORD_BITS (8 * sizeof(unsigned long))
extern EHS_HIDDEN unsigned long *ehs_watch_bits;

/* False when fd is surely not watched. */
static inline bool ehs_sock_maybe_watched(int fd)
{
	const unsigned long *b = __atomic_load_n(&ehs_watch_bits, __ATOMIC_ACQUIRE);
	if (!b || fd < 0)
		return false;
	if (fd >= EHS_WATCH_BITS)
		return true;
	return (__atomic_load_n(&b[(unsigned)fd / EHS_WATCH_WORD_BITS], __ATOMIC_ACQUIRE) >>
		((unsigned)fd % EHS_WATCH_WORD_BITS)) & 1;
}

/*
 * The bytes iov[0..n) are about to go to a syslog destination of kind k
 * (by fd, watched; fd -1 when the call names the destination): makes
 * their event if traced.  True when the call must not send them (replace
 * mode) but return as if it had.  Nothing is done from inside the
 * library (ehs_busy), nor for a watched number that no longer holds the
 * socket.  errno preserved.
 */
bool ehs_sock_observe(int fd, enum ehs_sock_kind k, const struct iovec *iov, size_t n);

/* Whether replace mode makes a failed connect() to a local syslog socket
 * (nobody listening: ENOENT, ECONNREFUSED) succeed, so that the client
 * goes on as it would with a daemon there; fd is then watched. */
bool ehs_sock_pretend_connected(int fd, const struct sockaddr *addr, socklen_t len, int err);

#endif
