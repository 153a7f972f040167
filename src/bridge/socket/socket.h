/* SPDX-License-Identifier: MIT */
/*
 * Which sockets carry syslog, and what is done with the bytes a program
 * sends on them itself: destination.c, watch.c and send.c here; the
 * interposed socket calls (preload/socket.c) ask and hand over.
 *
 * A descriptor of the program's standard output or error that is a log
 * (../output/output.h) is watched here too, of kind EHS_SOCK_OUTPUT,
 * whatever file it is; the calls here do nothing with its bytes.
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
#ifndef EHS_BRIDGE_SOCKET_H
#define EHS_BRIDGE_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "bridge/bridge.h"
#include "common/hidden.h"

struct iovec;

enum ehs_sock_kind {
	EHS_SOCK_NONE = 0,
	EHS_SOCK_DGRAM,		/* one syslog message per datagram */
	EHS_SOCK_STREAM,	/* RFC 6587 frames: TCP, or a stream /dev/log */
	EHS_SOCK_JOURNAL,	/* journald's native protocol */
	EHS_SOCK_OUTPUT,	/* standard output or error as a log: its
				 * bytes go to ../output/output.h, not here */
};

/* The kind of destination addr is for socket fd (whose type a stream or
 * datagram port needs), or NONE.  A few compares for any address that is
 * not AF_UNIX, AF_INET or AF_INET6; a port check reads the
 * configuration the first time.  errno preserved. */
enum ehs_sock_kind ehs_sock_kind_of(int fd, const struct sockaddr *addr, socklen_t len);

/* Watches fd as a socket of kind k (NONE: stops watching it), and reads
 * the configuration and opens the writer unless done (ehs_prepare), so
 * that the calls on fd know the mode and its first event, maybe from a
 * signal handler, does not open the writer.
 * False when every slot is taken by a live socket: fd's datagrams make
 * no event. */
bool ehs_sock_watch(int fd, enum ehs_sock_kind k);

/* The kind fd is watched as, or NONE.  A scan of a few slots. */
enum ehs_sock_kind ehs_sock_watched(int fd);

/* True when fd, watched, still holds the socket it was watched for (its
 * inode): else the watch goes, and a number a raw close() freed and
 * another file took makes no event. */
bool ehs_sock_holds(int fd);

/* A bit per descriptor number below EHS_WATCH_BITS, set while a slot may
 * hold it, so that once a socket is watched a call on any other number
 * costs one bit test; the word after them counts the watched numbers from
 * EHS_WATCH_BITS up, so that a call there costs one load while none is
 * (a server's thousands of connections).  NULL until the first watch. */
#define EHS_WATCH_BITS 1024
#define EHS_WATCH_WORD_BITS (8 * sizeof(unsigned long))
#define EHS_WATCH_HIGH (EHS_WATCH_BITS / EHS_WATCH_WORD_BITS)
extern EHS_HIDDEN unsigned long *ehs_watch_bits;

/* False when fd is surely not watched. */
static inline bool ehs_sock_maybe_watched(int fd)
{
	const unsigned long *b = __atomic_load_n(&ehs_watch_bits, __ATOMIC_ACQUIRE);
	if (!b || fd < 0)
		return false;
	if (fd >= EHS_WATCH_BITS)
		return __atomic_load_n(&b[EHS_WATCH_HIGH], __ATOMIC_ACQUIRE) != 0;
	return (__atomic_load_n(&b[(unsigned)fd / EHS_WATCH_WORD_BITS], __ATOMIC_ACQUIRE) >>
		((unsigned)fd % EHS_WATCH_WORD_BITS)) & 1;
}

/* Bits 1 << 1 and 1 << 2: standard output or error watched as an
 * output stream (EHS_SOCK_OUTPUT), so that their writes find it in one
 * load, without a scan of the slots. */
extern EHS_HIDDEN unsigned ehs_watch_outputs;

static inline bool ehs_sock_is_output(int fd)
{
	return (fd == 1 || fd == 2) && (__atomic_load_n(&ehs_watch_outputs, __ATOMIC_ACQUIRE) >> fd & 1);
}

/* fd was closed or replaced through libc (close, dup2, dup3): whatever
 * takes its number next is not the socket.  One bit test unless fd was
 * watched. */
static inline void ehs_sock_forget(int fd)
{
	if (__builtin_expect(ehs_sock_maybe_watched(fd), 0))
		ehs_sock_watch(fd, EHS_SOCK_NONE);
}

/* Whether the library acts on a send to a syslog destination from this
 * thread: never from inside the library for a named destination
 * (libsystemd's and GLib's own sends under a call passed on), and for a
 * watched socket up to one level of nesting (a signal handler that
 * interrupted the library), as for syslog(): its event is made, and in
 * replace mode the send is answered as any other. */
#define EHS_SOCK_NEST_MAX 2
static inline bool ehs_sock_acts(bool watched)
{
	return ehs_busy < (watched ? EHS_SOCK_NEST_MAX : 1);
}

/*
 * Pass-through: the kernel took the first sent bytes of iov[0..n) for a
 * syslog destination of kind k; makes their events if traced.  The
 * kernel has read the header, the iovecs and those bytes by then, so
 * nothing is read that it refused.  watched: found by fd's watch (whose
 * socket is checked first), not by the call's named address.  Nothing
 * is done where ehs_sock_acts says no.  errno preserved.
 */
void ehs_sock_sent(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		   size_t n, size_t sent);

/*
 * Replace mode: whether the library answers a send of iov[0..n) (the
 * program's pointers, unchecked) to a syslog destination of kind k
 * instead of the kernel: then its events are made and *taken is its byte
 * count.  Only when the kernel would surely have taken it all: the
 * iovecs and every byte readable (read with process_vm_readv(2), so a
 * bad pointer makes no fault but an EFAULT), the size within what the
 * socket takes in one datagram (SO_SNDBUF for a local one) and at most
 * 256 KiB, and each event deliverable (ehs_deliverable).  Else false:
 * the caller passes the call to the kernel, whose answer (EFAULT,
 * EINVAL, EMSGSIZE or the bytes sent) the program then gets.  False
 * where ehs_sock_acts says no.  errno preserved.
 */
bool ehs_sock_replace(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		      size_t n, size_t *taken);

/*
 * Pass-through: the kernel refused to send iov[0..n) (the program's
 * pointers, unchecked) with err.  Where the message was good but the
 * daemon unreachable (no one listening, no route, a reset connection),
 * makes its events, read as ehs_sock_replace reads them: the program
 * logged, whether or not a daemon runs.  Not where the kernel refused
 * the call itself (EFAULT, EINVAL, EMSGSIZE, EBADF, ENOTSOCK) or asked
 * for it again (EAGAIN, EINTR): its retry makes the event.  errno is
 * err on return.
 */
void ehs_sock_not_sent(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		       size_t n, int err);

/* Copies len bytes at the program's src to dst, or fails (-1) where
 * reading them would fault, without faulting; for the replace-mode
 * checks of a header or an address.  errno preserved. */
int ehs_sock_copy_in(void *dst, const void *src, size_t len);

/* Stores len bytes at the program's dst, or fails (-1) without faulting. */
int ehs_sock_copy_out(void *dst, const void *src, size_t len);

/* Whether replace mode makes a failed connect() to a local syslog socket
 * (nobody listening: ENOENT, ECONNREFUSED) succeed, so that the client
 * goes on as it would with a daemon there; fd is then watched. */
bool ehs_sock_pretend_connected(int fd, const struct sockaddr *addr, socklen_t len, int err);

#endif
