/* SPDX-License-Identifier: MIT */
/*
 * What becomes of the bytes a program sends to a syslog destination
 * itself (socket.h): read without faulting where the kernel has not read
 * them yet, gathered into one buffer, and handed to the socket-input
 * parsers (../input/).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "bridge/scratch.h"
#include "bridge/socket/socket.h"

/* Bytes of one call gathered on the stack when no scratch slot is free;
 * a larger message is copied into pages mapped for it (gather_run).
 * Past GATHER_MAX bytes the rest of a call makes no event (an event holds
 * at most 64 KiB anyway). */
#define GATHER_STACK 2048
#define GATHER_MAX (256 * 1024)

/* The first bytes of iov[0..n), up to len, into head; how many.  Only
 * for iovecs the kernel has read. */
static size_t peek(char *head, size_t len, const struct iovec *iov, size_t n)
{
	size_t got = 0;
	for (size_t i = 0; i < n && got < len; i++) {
		size_t take = iov[i].iov_len < len - got ? iov[i].iov_len : len - got;
		memcpy(head + got, iov[i].iov_base, take);
		got += take;
	}
	return got;
}

/* Makes the events of the len bytes at b; whether each could be written. */
static bool log_bytes(enum ehs_sock_kind k, const char *b, size_t len, int saved)
{
	bool ok = false;
	ehs_busy++;
	switch (k) {
	case EHS_SOCK_DGRAM:
		ok = ehs_datagram_log(b, len, saved);
		break;
	case EHS_SOCK_STREAM:
		ok = ehs_stream_log(b, len, saved);
		break;
	case EHS_SOCK_JOURNAL:
		ok = ehs_journal_wire_log(b, len, saved);
		break;
	case EHS_SOCK_OUTPUT:
	case EHS_SOCK_NONE:
		break;
	}
	ehs_busy--;
	return ok;
}

/* The kept mapping of GATHER_MAX bytes for a long message that finds
 * no scratch slot: made at the first such message and kept (its pages
 * are only touched as far as messages reach), so that a message in
 * several iovecs costs no mmap and munmap per call.  Taken with an
 * exchange; a call that finds it taken (another thread, or a signal
 * handler that interrupted the sender) maps its own, unmapped after. */
static char *spare;

static char *mapping_take(void)
{
	char *p = __atomic_exchange_n(&spare, NULL, __ATOMIC_ACQUIRE);
	if (!p)
		p = mmap(NULL, GATHER_MAX, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void mapping_give(char *p)
{
	char *none = NULL;
	if (!__atomic_compare_exchange_n(&spare, &none, p, false, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED))
		munmap(p, GATHER_MAX);
}

/* fn(buf, ctx) with room for total bytes at buf: a scratch slot, else
 * the stack for a message within GATHER_STACK (ehs_scratch_run), else
 * the kept mapping; fn's answer, or 0 when no room can be had. */
static int gather_run(size_t total, ehs_scratch_fn *fn, void *ctx)
{
	if (total <= GATHER_STACK)
		return ehs_scratch_run(total, fn, ctx);
	char *slot = total <= EHS_SCRATCH_SIZE ? ehs_scratch_take() : NULL;
	if (slot) {
		int r = fn(slot, ctx);
		ehs_scratch_give(slot);
		return r;
	}
	char *map = mapping_take();
	if (!map)
		return 0;
	int r = fn(map, ctx);
	mapping_give(map);
	return r;
}

/* One send's bytes, iov[0..n) with total bytes, on their way to a
 * gathered buffer. */
struct gathering {
	int fd;
	bool watched;
	enum ehs_sock_kind kind;
	const struct iovec *iov;
	size_t n;
	size_t total;
	int saved;
};

/* Whether a datagram's tracepoint is idle, from its PRI alone. */
static bool datagram_idle(const struct iovec *iov, size_t n)
{
	char head[8];
	bool deliverable;
	return ehs_datagram_idle(head, peek(head, sizeof head, iov, n), &deliverable);
}

/* Whether the bytes b[0..len) of kind k make no event, and then whether
 * they could have: read in a few words of stack, no record built. */
static bool bytes_idle(enum ehs_sock_kind k, const char *b, size_t len, bool *deliverable)
{
	*deliverable = false;
	switch (k) {
	case EHS_SOCK_DGRAM:
		return ehs_datagram_idle(b, len, deliverable);
	case EHS_SOCK_STREAM:
		return ehs_stream_idle(b, len, deliverable);
	case EHS_SOCK_JOURNAL:
		return ehs_journal_wire_idle(b, len, deliverable);
	case EHS_SOCK_OUTPUT:	/* ../output/'s, never sent here */
	case EHS_SOCK_NONE:
		break;
	}
	return true;
}

/* The events of the bytes b[0..len) the kernel sent on a syslog socket,
 * unless nobody traces them or fd (watched) no longer holds it. */
static void log_sent(int fd, bool watched, enum ehs_sock_kind k, const char *b, size_t len,
		     int saved)
{
	bool deliverable;
	if (!bytes_idle(k, b, len, &deliverable) && (!watched || ehs_sock_holds(fd)))
		log_bytes(k, b, len, saved);
}

static int log_sent_in(void *buf, void *ctx)
{
	const struct gathering *g = ctx;
	log_sent(g->fd, g->watched, g->kind, buf, peek(buf, g->total, g->iov, g->n), g->saved);
	return 0;
}

/* log_sent of iov[0..n)'s first total bytes, gathered: out of line, so
 * that only such a send has the gathering's frames. */
static __attribute__((noinline)) void log_sent_gathered(int fd, bool watched,
							enum ehs_sock_kind k,
							const struct iovec *iov, size_t n,
							size_t total, int saved)
{
	struct gathering g = { fd, watched, k, iov, n, total, saved };
	gather_run(total, log_sent_in, &g);
}

void ehs_sock_sent(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		   size_t n, size_t sent)
{
	if (!ehs_sock_acts(watched) || k == EHS_SOCK_NONE || k == EHS_SOCK_OUTPUT || sent == 0)
		return;
	int saved = errno;
	size_t total = sent < GATHER_MAX ? sent : GATHER_MAX;
	if (n == 1 || iov[0].iov_len >= total)
		log_sent(fd, watched, k, iov[0].iov_base, total, saved);
	else if (k != EHS_SOCK_DGRAM || !datagram_idle(iov, n))
		log_sent_gathered(fd, watched, k, iov, n, total, saved);
	errno = saved;
}

/* len bytes from src to dst, one of them the program's, through the
 * kernel: -1 where a plain load or store would fault. */
static int copy_through_kernel(void *dst, const void *src, size_t len, bool store)
{
	int saved = errno;
	struct iovec ours = { store ? (void *)src : dst, len };
	struct iovec theirs = { store ? dst : (void *)src, len };
	ssize_t r = !len ? 0
		: store ? process_vm_writev(getpid(), &ours, 1, &theirs, 1, 0)
			: process_vm_readv(getpid(), &ours, 1, &theirs, 1, 0);
	errno = saved;
	return r == (ssize_t)len ? 0 : -1;
}

int ehs_sock_copy_in(void *dst, const void *src, size_t len)
{
	return copy_through_kernel(dst, src, len, false);
}

int ehs_sock_copy_out(void *dst, const void *src, size_t len)
{
	return copy_through_kernel(dst, src, len, true);
}

/* The total length of the program's iov[0..n), read without faulting;
 * false where the kernel would refuse the vector (EFAULT, EINVAL) or it
 * is longer than GATHER_MAX. */
static bool iov_total(const struct iovec *iov, size_t n, size_t *total)
{
	struct iovec part[32];
	*total = 0;
	for (size_t i = 0; i < n; i += sizeof part / sizeof part[0]) {
		size_t m = n - i < sizeof part / sizeof part[0] ? n - i : sizeof part / sizeof part[0];
		if (ehs_sock_copy_in(part, iov + i, m * sizeof part[0]) < 0)
			return false;
		for (size_t j = 0; j < m; j++) {
			if (part[j].iov_len > GATHER_MAX - *total)
				return false;
			*total += part[j].iov_len;
		}
	}
	return true;
}

/* The most bytes one send of kind k on fd surely takes whole: a
 * datagram's limit, which the kernel answers with EMSGSIZE past it. */
static size_t send_limit(int fd, enum ehs_sock_kind k)
{
	if (k == EHS_SOCK_STREAM)
		return GATHER_MAX;
	int domain = 0, sndbuf = 0;
	socklen_t len = sizeof domain;
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
		return 0;
	switch (domain) {
	case AF_UNIX:	/* unix_dgram_sendmsg: sk_sndbuf - 32 */
		len = sizeof sndbuf;
		if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len) < 0 || sndbuf <= 32)
			return 0;
		return (size_t)sndbuf - 32;
	case AF_INET:	/* 65535 less the IPv4 and UDP headers */
		return 65507;
	case AF_INET6:	/* 65535 less the UDP header */
		return 65527;
	}
	return 0;
}

/* The events of the program's iov[0..n), total bytes, read into b
 * without faulting; whether all were read and each event could be
 * written. */
static bool log_read(enum ehs_sock_kind k, const struct iovec *iov, size_t n, char *b,
		     size_t total, int saved)
{
	bool ok = false;
	struct iovec to = { b, total };
	if (process_vm_readv(getpid(), &to, 1, iov, (unsigned long)n, 0) == (ssize_t)total &&
	    !bytes_idle(k, b, total, &ok))
		ok = log_bytes(k, b, total, saved);
	return ok;
}

static int log_read_in(void *buf, void *ctx)
{
	const struct gathering *g = ctx;
	return log_read(g->kind, g->iov, g->n, buf, g->total, g->saved);
}

/* The events of the program's iov[0..n) (pointers unchecked), read
 * whole without faulting, when at most limit bytes; whether all were
 * read and each event could be written, with the byte count in *total. */
static bool log_unchecked(enum ehs_sock_kind k, const struct iovec *iov, size_t n,
			  size_t limit, size_t *total, int saved)
{
	if (n > UIO_MAXIOV || !iov_total(iov, n, total) || *total > limit)
		return false;
	if (*total == 0)	/* no event: the kernel's (an empty datagram) */
		return false;
	struct gathering g = { -1, false, k, iov, n, *total, saved };
	return gather_run(*total, log_read_in, &g);
}

bool ehs_sock_replace(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		      size_t n, size_t *taken)
{
	if (!ehs_sock_acts(watched) || k == EHS_SOCK_NONE || k == EHS_SOCK_OUTPUT)
		return false;
	int saved = errno;
	size_t total = 0;
	bool kept = (!watched || ehs_sock_holds(fd)) &&
		    log_unchecked(k, iov, n, send_limit(fd, k), &total, saved);
	errno = saved;
	if (kept)
		*taken = total;
	return kept;
}

/* Whether a send that failed with err was a message the daemon could
 * not be reached with, rather than one the kernel refused (bad pointer,
 * too large, not a socket) or asked to be sent again (the program's
 * retry makes the event). */
static bool undelivered(int err)
{
	switch (err) {
	case EFAULT:
	case EINVAL:
	case EMSGSIZE:
	case EBADF:
	case ENOTSOCK:
	case EOPNOTSUPP:
	case EAGAIN:
#if EWOULDBLOCK != EAGAIN
	case EWOULDBLOCK:
#endif
	case EINTR:
		return false;
	}
	return true;
}

void ehs_sock_not_sent(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		       size_t n, int err)
{
	if (!ehs_sock_acts(watched) || k == EHS_SOCK_NONE || k == EHS_SOCK_OUTPUT ||
	    !undelivered(err))
		return;
	size_t total;
	if (!watched || ehs_sock_holds(fd))
		log_unchecked(k, iov, n, GATHER_MAX, &total, err);
	errno = err;
}

