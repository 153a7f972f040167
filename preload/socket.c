/* SPDX-License-Identifier: MIT */
/*
 * The calls a program sends syslog with when it does not call syslog():
 * logger, Python's SysLogHandler, Perl's, Java's and Node's socket
 * clients open the socket themselves.  connect() notes a socket of a
 * syslog destination (bridge/socket/socket.h); send, sendto, sendmsg, sendmmsg,
 * write and writev then hand its bytes to the bridge, one event a
 * datagram.  A send that names its destination (sendto, sendmsg,
 * sendmmsg) is checked by that name.
 *
 * Nothing the program passes is read before the kernel has judged it:
 * in pass-through (the default) the real call comes first and its
 * events are made from the bytes the kernel took, so a bad pointer gets
 * the kernel's EFAULT as without the library.  In replace mode the
 * library answers a send itself only when the kernel would have taken
 * it whole, reading the program's header, iovecs and bytes with
 * process_vm_readv(2), which fails where a plain read would fault (see
 * ehs_sock_replace); every other call goes to the kernel.
 *
 * What every other call costs: write(), writev(), send() and the
 * unaddressed sendto() jump through a pointer, which is the real
 * function until a syslog socket is first connected: one load and a
 * branch.  After it the pointer is the watched form, which tests the
 * descriptor's bit before the real function.  The pointer starts at the
 * watched form too, whose slow path looks the real function up (nothing
 * at load time, see real.h).  sendmsg() and sendmmsg() read the mode
 * before and the header after the real call.  The library's own sends
 * (libsystemd's under a passed-on journal call) are made with ehs_busy
 * raised and make no event (ehs_sock_acts).  Where the real function is missing (the
 * library loaded after libc, out of RTLD_NEXT's reach) the system call
 * is made directly.
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
#include "bridge/output/output.h"
#include "bridge/socket/socket.h"
#include "common/syscall.h"
#include "preload/next.h"
#include "preload/real.h"

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
 * frame) once looked holds, else name_slow, which also resolves the real
 * function and settles the entry before the first watch (and, for write
 * and writev, looks at the output streams: a syslog socket watched
 * before the first write must not keep them from being looked at). */
#define WATCHED(name, ret, params, args, looked) \
	static ret name##_watched params \
	{ \
		void *p_ = __atomic_load_n(&real_##name, __ATOMIC_RELAXED); \
		if (__builtin_expect(plain_call(p_, fd) && (looked), 1)) { \
			name##_fn f_; \
			__builtin_memcpy(&f_, &p_, sizeof p_); \
			return f_ args; \
		} \
		return name##_slow args; \
	}

/* write() on a log's stream: nobody tracing it, the usual case, only
 * the last byte the kernel took is kept, one store (from inside the
 * library too: a handler's untraced line is the stream's as any).  Out
 * of write_watched, whose other numbers then need no frame. */
static __attribute__((noinline)) ssize_t write_output(int fd, const void *buf, size_t n)
{
	void *p_ = __atomic_load_n(&real_write, __ATOMIC_RELAXED);
	write_fn f_;
	__builtin_memcpy(&f_, &p_, sizeof p_);
	if (!p_ || ehs_output_lines_traced() || ehs_config_replacing())
		return write_slow(fd, buf, n);
	ssize_t r = f_(fd, buf, n);
	if (r > 0)
		ehs_output_idle_sent(fd, ((const char *)buf)[r - 1]);
	return r;
}

/* write's, as WATCHED's, with a log's stream first. */
static ssize_t write_watched(int fd, const void *buf, size_t n)
{
	void *p_ = __atomic_load_n(&real_write, __ATOMIC_RELAXED);
	if (ehs_sock_is_output(fd))
		return write_output(fd, buf, n);
	if (__builtin_expect(plain_call(p_, fd) && ehs_output_looked(), 1)) {
		write_fn f_;
		__builtin_memcpy(&f_, &p_, sizeof p_);
		return f_(fd, buf, n);
	}
	return write_slow(fd, buf, n);
}
WATCHED(writev, ssize_t, (int fd, const struct iovec *iov, int n), (fd, iov, n),
	ehs_output_looked())
WATCHED(send, ssize_t, (int fd, const void *buf, size_t n, int flags), (fd, buf, n, flags), true)
WATCHED(sendto, ssize_t,
	(int fd, const void *buf, size_t n, int flags, const struct sockaddr *addr,
	 socklen_t len),
	(fd, buf, n, flags, addr, len), true)

/* Where each call goes: its watched form (which also resolves), then the
 * real function once resolved while nothing is watched. */
static write_fn write_entry = write_watched;
static writev_fn writev_entry = writev_watched;
static send_fn send_entry = send_watched;
static sendto_fn sendto_entry = sendto_watched;

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
}

/* Standard output and error, looked at by the first write or writev
 * (bridge/output/output.h) before its entry settles, whether or not a
 * syslog socket is watched already: a thread that writes meanwhile
 * comes to the slow path too, and waits for the looking.  A stream that
 * is a log is watched as the sockets are. */
static inline void watch_output(void)
{
	bool w = __atomic_load_n(&watching, __ATOMIC_RELAXED);
	if ((!w || !ehs_output_looked()) && ehs_output_any() && !w)
		watch_all();
}

/* The kind fd is watched as, or NONE.  For any other number, one bit
 * test. */
static inline enum ehs_sock_kind kind_of_fd(int fd)
{
	if (__builtin_expect(!ehs_sock_maybe_watched(fd), 1))
		return EHS_SOCK_NONE;
	return ehs_sock_watched(fd);
}

/* The kind of a named destination (the program's address, read with
 * ehs_sock_copy_in where the kernel has not judged it yet: read_safely). */
static enum ehs_sock_kind kind_of_name(int fd, const struct sockaddr *addr, socklen_t len,
				       bool read_safely)
{
	struct sockaddr_storage copy;
	if (!read_safely)
		return ehs_sock_kind_of(fd, addr, len);
	if (len > sizeof copy || ehs_sock_copy_in(&copy, addr, len) < 0)
		return EHS_SOCK_NONE;	/* the kernel refuses it: EINVAL, EFAULT */
	return ehs_sock_kind_of(fd, (const struct sockaddr *)&copy, len);
}

EHS_INTERPOSE int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	NEXT(connect_fn, real, real_connect, "connect");
	int before = errno;
	int r = real ? real(fd, addr, len) : (int)ehs_syscall(SYS_connect, fd, addr, len);
	int saved = errno;
	if (ehs_busy || !addr)
		return r;
	/* A failed connect leaves the socket as it was (EISCONN, EALREADY,
	 * a refused one): so does its watch, but where replace mode makes
	 * it succeed. */
	if (r < 0 && saved != EINPROGRESS) {
		if (!ehs_sock_pretend_connected(fd, addr, len, saved))
			return r;
		watch_all();
		errno = before;	/* a call that succeeds leaves errno alone */
		return 0;
	}
	/* Connected (or connecting): whatever fd was, it is now this.  The
	 * kernel read the address. */
	enum ehs_sock_kind k = ehs_sock_kind_of(fd, addr, len);
	if (k != EHS_SOCK_NONE) {
		if (ehs_sock_watch(fd, k))
			watch_all();
	} else if (__atomic_load_n(&watching, __ATOMIC_RELAXED)) {
		ehs_sock_watch(fd, EHS_SOCK_NONE);
	}
	errno = saved;
	return r;
}

/* A call's bytes iov[0..n) on a watched fd of kind k: replace mode's
 * answer in *r (true), else nothing done yet (false).  The file is not
 * read for the mode: a watch reads it (ehs_sock_watch); a named send
 * made before anything read the file, in a replace mode that only the
 * file sets, goes to the kernel first, as in pass-through. */
static bool replaced(int fd, enum ehs_sock_kind k, const struct iovec *iov, size_t n,
		     ssize_t *r)
{
	size_t taken;
	if (!ehs_config_replacing() || !(k == EHS_SOCK_OUTPUT ? ehs_output_replace(fd, iov, n, &taken)
						   : ehs_sock_replace(fd, true, k, iov, n, &taken)))
		return false;
	*r = (ssize_t)taken;
	return true;
}

/* After the kernel's answer r to a send of iov[0..n) on a watched fd of
 * kind k: the events of what it sent, or of what it could not deliver. */
static void answered(int fd, enum ehs_sock_kind k, const struct iovec *iov, size_t n, ssize_t r)
{
	if (k == EHS_SOCK_NONE)
		return;
	if (k == EHS_SOCK_OUTPUT) {
		if (r > 0 && ehs_sock_acts(true))
			ehs_output_sent(fd, iov, n, (size_t)r);
		return;
	}
	if (r > 0)
		ehs_sock_sent(fd, true, k, iov, n, (size_t)r);
	else if (r < 0)
		ehs_sock_not_sent(fd, true, k, iov, n, errno);
}

EHS_INTERPOSE ssize_t write(int fd, const void *buf, size_t n)
{
	return __atomic_load_n(&write_entry, __ATOMIC_RELAXED)(fd, buf, n);
}

static __attribute__((noinline)) ssize_t write_slow(int fd, const void *buf, size_t n)
{
	NEXT(write_fn, real, real_write, "write");
	watch_output();
	SETTLE(write_entry, real);
	enum ehs_sock_kind k = kind_of_fd(fd);
	const struct iovec one = { (void *)buf, n };
	ssize_t r;
	if (k != EHS_SOCK_NONE && replaced(fd, k, &one, 1, &r))
		return r;
	r = real ? real(fd, buf, n) : ehs_syscall(SYS_write, fd, buf, n);
	answered(fd, k, &one, 1, r);
	return r;
}

EHS_INTERPOSE ssize_t writev(int fd, const struct iovec *iov, int n)
{
	return __atomic_load_n(&writev_entry, __ATOMIC_RELAXED)(fd, iov, n);
}

static __attribute__((noinline)) ssize_t writev_slow(int fd, const struct iovec *iov, int n)
{
	NEXT(writev_fn, real, real_writev, "writev");
	watch_output();
	SETTLE(writev_entry, real);
	enum ehs_sock_kind k = n > 0 ? kind_of_fd(fd) : EHS_SOCK_NONE;
	ssize_t r;
	if (k != EHS_SOCK_NONE && replaced(fd, k, iov, (size_t)n, &r))
		return r;
	r = real ? real(fd, iov, n) : ehs_syscall(SYS_writev, fd, iov, n);
	answered(fd, k, iov, (size_t)n, r);
	return r;
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
	const struct iovec one = { (void *)buf, n };
	ssize_t r;
	if (k != EHS_SOCK_NONE && replaced(fd, k, &one, 1, &r))
		return r;
	r = real ? real(fd, buf, n, flags) : ehs_syscall(SYS_sendto, fd, buf, n, flags, NULL, 0);
	answered(fd, k, &one, 1, r);
	return r;
}

/* An addressed send is checked by its address on every call: a UDP
 * client (Python's SysLogHandler() among them) need not connect.  In
 * pass-through the address is read once the kernel took it. */
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
	const struct iovec one = { (void *)buf, n };
	size_t taken;
	if (ehs_config_replacing() && ehs_sock_acts(!addr)) {
		enum ehs_sock_kind k = addr ? kind_of_name(fd, addr, len, true) : kind_of_fd(fd);
		if (k != EHS_SOCK_NONE && ehs_sock_replace(fd, !addr, k, &one, 1, &taken))
			return (ssize_t)taken;
	}
	ssize_t r = real ? real(fd, buf, n, flags, addr, len)
			 : ehs_syscall(SYS_sendto, fd, buf, n, flags, addr, len);
	if (r != 0 && ehs_sock_acts(!addr)) {
		int saved = errno;
		/* A failed call's address is the program's, unchecked. */
		enum ehs_sock_kind k = addr ? kind_of_name(fd, addr, len, r < 0) : kind_of_fd(fd);
		if (r > 0)
			ehs_sock_sent(fd, !addr, k, &one, 1, (size_t)r);
		else
			ehs_sock_not_sent(fd, !addr, k, &one, 1, saved);
		errno = saved;
	}
	return r;
}

/* The kind of a message's destination: named, else fd's. */
static enum ehs_sock_kind kind_of_message(int fd, const struct msghdr *m, bool read_safely)
{
	if (m->msg_name)
		return kind_of_name(fd, m->msg_name, m->msg_namelen, read_safely);
	return kind_of_fd(fd);
}

/* Replace mode's answer for the program's message *msg: true with its
 * byte count in *taken when the library keeps it.  The header is read
 * without faulting; one that carries descriptors or other control data
 * (journald's large entries come as a memfd) goes to the kernel. */
static bool message_replaced(int fd, const struct msghdr *msg, size_t *taken)
{
	struct msghdr m;
	if (!msg || ehs_sock_copy_in(&m, msg, sizeof m) < 0 || m.msg_controllen ||
	    m.msg_iovlen > UIO_MAXIOV)
		return false;
	enum ehs_sock_kind k = kind_of_message(fd, &m, true);
	return k != EHS_SOCK_NONE &&
	       ehs_sock_replace(fd, !m.msg_name, k, m.msg_iov, m.msg_iovlen, taken);
}

/* After the kernel sent sent bytes of *msg: their events. */
static void message_sent(int fd, const struct msghdr *msg, size_t sent)
{
	int saved = errno;
	if (msg->msg_name ? ehs_sock_acts(false) : ehs_sock_maybe_watched(fd)) {
		enum ehs_sock_kind k = kind_of_message(fd, msg, false);
		ehs_sock_sent(fd, !msg->msg_name, k, msg->msg_iov, msg->msg_iovlen, sent);
	}
	errno = saved;
}

/* After the kernel refused *msg (the program's, unchecked) with err:
 * the events of a message it could not deliver (ehs_sock_not_sent). */
static void message_not_sent(int fd, const struct msghdr *msg, int err)
{
	struct msghdr m;
	if (ehs_sock_acts(true) && msg && ehs_sock_copy_in(&m, msg, sizeof m) == 0 &&
	    m.msg_iovlen <= UIO_MAXIOV) {
		enum ehs_sock_kind k = kind_of_message(fd, &m, true);
		ehs_sock_not_sent(fd, !m.msg_name, k, m.msg_iov, m.msg_iovlen, err);
	}
	errno = err;
}

/* sendmsg and sendmmsg are checked on every call, named or not: their
 * header is the program's to get wrong, and only the kernel may read it
 * first (in replace mode, the library reads it without faulting). */
EHS_INTERPOSE ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	NEXT(sendmsg_fn, real, real_sendmsg, "sendmsg");
	size_t taken;
	if (ehs_config_replacing() && ehs_sock_acts(true) && message_replaced(fd, msg, &taken))
		return (ssize_t)taken;
	ssize_t r = real ? real(fd, msg, flags) : ehs_syscall(SYS_sendmsg, fd, msg, flags);
	if (r > 0)
		message_sent(fd, msg, (size_t)r);
	else if (r < 0)
		message_not_sent(fd, msg, errno);
	return r;
}

/* Each message is its own datagram and event.  In replace mode each one
 * the library keeps is answered here and the others go to the kernel one
 * by one, in order, so that the count returned is what the kernel would
 * return: the messages done before the first it refused (its error when
 * that is the first). */
static int sendmmsg_replace(sendmmsg_fn real, int fd, struct mmsghdr *v, unsigned n, int flags)
{
	unsigned count = n < UIO_MAXIOV ? n : UIO_MAXIOV, done = 0;
	int saved = errno;
	for (; done < count; done++) {
		size_t taken;
		if (message_replaced(fd, &v[done].msg_hdr, &taken)) {
			unsigned len = (unsigned)taken;
			if (ehs_sock_copy_out(&v[done].msg_len, &len, sizeof len) == 0)
				continue;
		}
		int r = real ? real(fd, &v[done], 1, flags)
			     : (int)ehs_syscall(SYS_sendmmsg, fd, &v[done], 1, flags);
		if (r < 0 && done == 0)
			return r;
		if (r <= 0)
			break;
	}
	errno = saved;
	return (int)done;
}

EHS_INTERPOSE int sendmmsg(int fd, struct mmsghdr *v, unsigned n, int flags)
{
	NEXT(sendmmsg_fn, real, real_sendmmsg, "sendmmsg");
	if (ehs_config_replacing() && ehs_sock_acts(true))
		return sendmmsg_replace(real, fd, v, n, flags);
	int r = real ? real(fd, v, n, flags) : (int)ehs_syscall(SYS_sendmmsg, fd, v, n, flags);
	for (int i = 0; i < r; i++)
		if (v[i].msg_len)
			message_sent(fd, &v[i].msg_hdr, v[i].msg_len);
	if (r < 0 && n > 0)
		message_not_sent(fd, v ? &v[0].msg_hdr : NULL, errno);
	return r;
}
