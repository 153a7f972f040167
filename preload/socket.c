/* SPDX-License-Identifier: MIT */
/*
 * The calls a program sends syslog with when it does not call syslog():
 * logger, Python's SysLogHandler, Perl's, Java's and Node's socket
 * clients open the socket themselves.  connect() notes a socket of a
 * syslog destination (syslog_socket.h); send, sendto, sendmsg, sendmmsg,
 * write and writev then hand its bytes to the bridge, one event a
 * datagram, before they go on (or, in replace mode, instead).  A send
 * that names its destination (sendto, sendmsg, sendmmsg) is checked by
 * that name.
 *
 * What every other call costs: write(), writev(), send() and the
 * unaddressed sendto/sendmsg/sendmmsg jump through a pointer, which is
 * the real function until a syslog socket is first connected: one load
 * and a branch.  After it the pointer is the watched form, which tests
 * the descriptor's bit before the real function.  The pointer starts at
 * the watched form too, whose slow path looks the real function up
 * (nothing at load time, see real.h).  The library's own writes (the
 * writer's writev) are made with ehs_busy raised and pass at once.
 * Where the real function is missing (the library loaded after libc,
 * out of RTLD_NEXT's reach) the system call is made directly.
 *
 * Built without the sanitizers, as fd.c: write() runs in other
 * libraries' constructors, before the ASan runtime is set up.
 */
#include "config.h"

#undef _FORTIFY_SOURCE

#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "preload/next.h"
#include "preload/real.h"
#include "preload/syslog_socket.h"

/* UIO_MAXIOV (<sys/uio.h>) is the kernel's limit: the most iovecs a
 * call takes, and the most messages one sendmmsg() sends. */
typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef ssize_t (*send_fn)(int, const void *, size_t, int);
typedef ssize_t (*sendto_fn)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
typedef ssize_t (*sendmsg_fn)(int, const struct msghdr *, int);
typedef int (*sendmmsg_fn)(int, struct mmsghdr *, unsigned, int);

static void *real_connect, *real_write, *real_writev, *real_send, *real_sendto,
	*real_sendmsg, *real_sendmmsg;

static ssize_t write_slow(int fd, const void *buf, size_t n);
static ssize_t writev_slow(int fd, const struct iovec *iov, int n);
static ssize_t send_slow(int fd, const void *buf, size_t n, int flags);
static ssize_t sendto_slow(int fd, const void *buf, size_t n, int flags,
			   const struct sockaddr *addr, socklen_t len);
static ssize_t sendmsg_slow(int fd, const struct msghdr *msg, int flags);
static int sendmmsg_slow(int fd, struct mmsghdr *v, unsigned n, int flags);

/* Set, never cleared, when a syslog socket is first watched. */
static bool watching;

/* True when a call on fd may go straight to real: resolved, the entry
 * settled (watching), and fd surely not watched. */
static inline bool plain_call(const void *real, int fd)
{
	return real && __atomic_load_n(&watching, __ATOMIC_RELAXED) &&
	       !ehs_sock_maybe_watched(fd);
}

/* name_watched, where the entry points once a socket is watched: the real
 * function at once for any other number (a few loads and tests, no
 * frame), else name_slow, which also resolves the real function and
 * settles the entry before the first watch. */
#define WATCHED(name, ret, params, args) \
	static ret name##_watched params \
	{ \
		void *p_ = __atomic_load_n(&real_##name, __ATOMIC_RELAXED); \
		if (__builtin_expect(plain_call(p_, fd), 1)) { \
			name##_fn f_; \
			__builtin_memcpy(&f_, &p_, sizeof p_); \
			return f_ args; \
		} \
		return name##_slow args; \
	}

WATCHED(write, ssize_t, (int fd, const void *buf, size_t n), (fd, buf, n))
WATCHED(writev, ssize_t, (int fd, const struct iovec *iov, int n), (fd, iov, n))
WATCHED(send, ssize_t, (int fd, const void *buf, size_t n, int flags), (fd, buf, n, flags))
WATCHED(sendto, ssize_t,
	(int fd, const void *buf, size_t n, int flags, const struct sockaddr *addr,
	 socklen_t len),
	(fd, buf, n, flags, addr, len))
WATCHED(sendmsg, ssize_t, (int fd, const struct msghdr *msg, int flags), (fd, msg, flags))
WATCHED(sendmmsg, int, (int fd, struct mmsghdr *v, unsigned n, int flags), (fd, v, n, flags))

/* Where each call goes: its watched form (which also resolves), then the
 * real function once resolved while nothing is watched. */
static write_fn write_entry = write_watched;
static writev_fn writev_entry = writev_watched;
static send_fn send_entry = send_watched;
static sendto_fn sendto_entry = sendto_watched;
static sendmsg_fn sendmsg_entry = sendmsg_watched;
static sendmmsg_fn sendmmsg_entry = sendmmsg_watched;

/* Points entry at real while nothing is watched.  Stored, then checked
 * again: a connect() that starts watching in between stores the watched
 * form after us (watch_all), so the entry never stays at real. */
#define SETTLE(entry, real) do { \
	if ((real) && !__atomic_load_n(&watching, __ATOMIC_SEQ_CST)) { \
		__atomic_store_n(&(entry), (real), __ATOMIC_SEQ_CST); \
		if (__atomic_load_n(&watching, __ATOMIC_SEQ_CST)) \
			watch_all(); \
	} \
} while (0)

static void watch_all(void)
{
	__atomic_store_n(&watching, true, __ATOMIC_SEQ_CST);
	__atomic_store_n(&write_entry, write_watched, __ATOMIC_SEQ_CST);
	__atomic_store_n(&writev_entry, writev_watched, __ATOMIC_SEQ_CST);
	__atomic_store_n(&send_entry, send_watched, __ATOMIC_SEQ_CST);
	__atomic_store_n(&sendto_entry, sendto_watched, __ATOMIC_SEQ_CST);
	__atomic_store_n(&sendmsg_entry, sendmsg_watched, __ATOMIC_SEQ_CST);
	__atomic_store_n(&sendmmsg_entry, sendmmsg_watched, __ATOMIC_SEQ_CST);
}

/* The kind fd is watched as; NONE from inside the library.  For any
 * other number, one bit test. */
static inline enum ehs_sock_kind kind_of_fd(int fd)
{
	if (__builtin_expect(!ehs_sock_maybe_watched(fd), 1) || ehs_busy)
		return EHS_SOCK_NONE;
	return ehs_sock_watched(fd);
}

/* The kind of a call's destination: named, else fd's. */
static enum ehs_sock_kind kind_of_call(int fd, const struct sockaddr *addr, socklen_t len)
{
	if (ehs_busy)
		return EHS_SOCK_NONE;
	return addr ? ehs_sock_kind_of(fd, addr, len) : kind_of_fd(fd);
}

static size_t iov_bytes(const struct iovec *iov, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += iov[i].iov_len;
	return total;
}

EHS_INTERPOSE int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	NEXT(connect_fn, real, real_connect, "connect");
	int r = real ? real(fd, addr, len) : (int)syscall(SYS_connect, fd, addr, len);
	int saved = errno;
	if (ehs_busy || !addr)
		return r;
	enum ehs_sock_kind k = EHS_SOCK_NONE;
	if (r == 0 || saved == EINPROGRESS) {
		k = ehs_sock_kind_of(fd, addr, len);
	} else if (ehs_sock_pretend_connected(fd, addr, len, saved)) {
		watch_all();
		errno = saved;
		return 0;
	}
	/* Connected elsewhere (or again): whatever fd was, it is now this. */
	if (k != EHS_SOCK_NONE) {
		if (ehs_sock_watch(fd, k))
			watch_all();
	} else if (__atomic_load_n(&watching, __ATOMIC_RELAXED)) {
		ehs_sock_watch(fd, EHS_SOCK_NONE);
	}
	errno = saved;
	return r;
}

EHS_INTERPOSE ssize_t write(int fd, const void *buf, size_t n)
{
	return __atomic_load_n(&write_entry, __ATOMIC_RELAXED)(fd, buf, n);
}

static __attribute__((noinline)) ssize_t write_slow(int fd, const void *buf, size_t n)
{
	NEXT(write_fn, real, real_write, "write");
	SETTLE(write_entry, real);
	enum ehs_sock_kind k = kind_of_fd(fd);
	if (k != EHS_SOCK_NONE) {
		const struct iovec one = { (void *)buf, n };
		if (ehs_sock_observe(fd, k, &one, 1))
			return (ssize_t)n;
	}
	return real ? real(fd, buf, n) : syscall(SYS_write, fd, buf, n);
}

EHS_INTERPOSE ssize_t writev(int fd, const struct iovec *iov, int n)
{
	return __atomic_load_n(&writev_entry, __ATOMIC_RELAXED)(fd, iov, n);
}

static __attribute__((noinline)) ssize_t writev_slow(int fd, const struct iovec *iov, int n)
{
	NEXT(writev_fn, real, real_writev, "writev");
	SETTLE(writev_entry, real);
	enum ehs_sock_kind k = kind_of_fd(fd);
	if (k != EHS_SOCK_NONE && n > 0 && n <= UIO_MAXIOV &&
	    ehs_sock_observe(fd, k, iov, (size_t)n))
		return (ssize_t)iov_bytes(iov, (size_t)n);
	return real ? real(fd, iov, n) : syscall(SYS_writev, fd, iov, n);
}

EHS_INTERPOSE ssize_t send(int fd, const void *buf, size_t n, int flags)
{
	return __atomic_load_n(&send_entry, __ATOMIC_RELAXED)(fd, buf, n, flags);
}

static __attribute__((noinline)) ssize_t send_slow(int fd, const void *buf, size_t n, int flags)
{
	NEXT(send_fn, real, real_send, "send");
	SETTLE(send_entry, real);
	enum ehs_sock_kind k = kind_of_fd(fd);
	if (k != EHS_SOCK_NONE) {
		const struct iovec one = { (void *)buf, n };
		if (ehs_sock_observe(fd, k, &one, 1))
			return (ssize_t)n;
	}
	return real ? real(fd, buf, n, flags) : syscall(SYS_sendto, fd, buf, n, flags, NULL, 0);
}

/* An addressed send is checked by its address on every call: a UDP
 * client (Python's SysLogHandler() among them) need not connect. */
EHS_INTERPOSE ssize_t sendto(int fd, const void *buf, size_t n, int flags,
			     const struct sockaddr *addr, socklen_t len)
{
	if (addr)
		return sendto_slow(fd, buf, n, flags, addr, len);
	return __atomic_load_n(&sendto_entry, __ATOMIC_RELAXED)(fd, buf, n, flags, addr, len);
}

static __attribute__((noinline)) ssize_t sendto_slow(int fd, const void *buf, size_t n, int flags,
			      const struct sockaddr *addr, socklen_t len)
{
	NEXT(sendto_fn, real, real_sendto, "sendto");
	SETTLE(sendto_entry, real);
	enum ehs_sock_kind k = kind_of_call(fd, addr, len);
	if (k != EHS_SOCK_NONE) {
		const struct iovec one = { (void *)buf, n };
		if (ehs_sock_observe(addr ? -1 : fd, k, &one, 1))
			return (ssize_t)n;
	}
	return real ? real(fd, buf, n, flags, addr, len)
		    : syscall(SYS_sendto, fd, buf, n, flags, addr, len);
}

EHS_INTERPOSE ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	if (msg && msg->msg_name)
		return sendmsg_slow(fd, msg, flags);
	return __atomic_load_n(&sendmsg_entry, __ATOMIC_RELAXED)(fd, msg, flags);
}

/* Whether the message is syslog's and replace mode keeps it. */
static bool message_kept(int fd, const struct msghdr *msg)
{
	if (!msg || msg->msg_iovlen > UIO_MAXIOV)
		return false;
	enum ehs_sock_kind k = kind_of_call(fd, msg->msg_name, msg->msg_namelen);
	return k != EHS_SOCK_NONE &&
	       ehs_sock_observe(msg->msg_name ? -1 : fd, k, msg->msg_iov, msg->msg_iovlen);
}

static __attribute__((noinline)) ssize_t sendmsg_slow(int fd, const struct msghdr *msg, int flags)
{
	NEXT(sendmsg_fn, real, real_sendmsg, "sendmsg");
	SETTLE(sendmsg_entry, real);
	if (message_kept(fd, msg))
		return (ssize_t)iov_bytes(msg->msg_iov, msg->msg_iovlen);
	return real ? real(fd, msg, flags) : syscall(SYS_sendmsg, fd, msg, flags);
}

/* True when the vector names a destination in some message. */
static bool any_named(const struct mmsghdr *v, unsigned n)
{
	for (unsigned i = 0; v && i < n && i < UIO_MAXIOV; i++)
		if (v[i].msg_hdr.msg_name)
			return true;
	return false;
}

EHS_INTERPOSE int sendmmsg(int fd, struct mmsghdr *v, unsigned n, int flags)
{
	if (any_named(v, n))
		return sendmmsg_slow(fd, v, n, flags);
	return __atomic_load_n(&sendmmsg_entry, __ATOMIC_RELAXED)(fd, v, n, flags);
}

/* Each message is its own datagram and event.  Replace mode keeps the
 * call only when it keeps every message, else all are sent. */
static __attribute__((noinline)) int sendmmsg_slow(int fd, struct mmsghdr *v, unsigned n, int flags)
{
	NEXT(sendmmsg_fn, real, real_sendmmsg, "sendmmsg");
	SETTLE(sendmmsg_entry, real);
	unsigned count = n < UIO_MAXIOV ? n : UIO_MAXIOV;
	bool all_kept = v && count > 0;
	for (unsigned i = 0; v && i < count; i++)
		if (!message_kept(fd, &v[i].msg_hdr))
			all_kept = false;
	if (!all_kept)
		return real ? real(fd, v, n, flags) : (int)syscall(SYS_sendmmsg, fd, v, n, flags);
	for (unsigned i = 0; i < count; i++)
		v[i].msg_len = (unsigned)iov_bytes(v[i].msg_hdr.msg_iov, v[i].msg_hdr.msg_iovlen);
	return (int)count;
}
