/* SPDX-License-Identifier: MIT */
/*
 * Syslog destinations, the watched descriptors and what becomes of the
 * bytes sent to them (syslog_socket.h).  Runs only for a connect() or an
 * addressed send, or for a call on a descriptor once one is watched;
 * never on another call's path.
 */
#include "config.h"

#undef _FORTIFY_SOURCE

#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "bridge/scratch.h"
#include "preload/syslog_socket.h"

/* Sockets watched at once.  A program has one or two; stale entries (a
 * number closed behind libc's back) are reclaimed when the table fills. */
#define WATCH_SLOTS 16

/* Bytes of one call gathered on the stack when no scratch slot is free;
 * a larger message is copied into pages mapped for it (struct gather).
 * Past GATHER_MAX bytes the rest of a call makes no event (an event holds
 * at most 64 KiB anyway). */
#define GATHER_STACK 2048
#define GATHER_MAX (256 * 1024)

struct watch {
	int fd_plus_1;		/* 0: free; -1: being written */
	int kind;
	dev_t dev;		/* the socket's inode, from fstat at watch time */
	ino_t ino;
};

/* The watched sockets and their numbers' bits (ehs_watch_bits), mapped
 * at the first watch: in .bss the table would push the library's data
 * segment past its last page, one more mapping in every process. */
struct watch_table {
	unsigned long bits[EHS_WATCH_HIGH + 1];	/* the last: how many from EHS_WATCH_BITS up */
	struct watch slot[WATCH_SLOTS];
};

static struct watch_table *watches;
unsigned long *ehs_watch_bits;

static struct watch_table *table(void)
{
	return __atomic_load_n(&watches, __ATOMIC_ACQUIRE);
}

/* The table, mapped if need be; NULL when no memory can be mapped.  Two
 * threads racing both map; the loser unmaps its copy. */
static struct watch_table *table_mapped(void)
{
	struct watch_table *t = table();
	if (t)
		return t;
	void *p = mmap(NULL, sizeof *t, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (!__atomic_compare_exchange_n(&watches, &t, p, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		munmap(p, sizeof *t);
		return t;
	}
	__atomic_store_n(&ehs_watch_bits, ((struct watch_table *)p)->bits, __ATOMIC_RELEASE);
	return p;
}

/* Sets or clears fd's bit; a number past the bits counts in the last word. */
static void mark(int fd, bool on)
{
	struct watch_table *t = table();
	if (!t || fd < 0)
		return;
	if (fd >= EHS_WATCH_BITS) {
		if (on)
			__atomic_fetch_add(&t->bits[EHS_WATCH_HIGH], 1, __ATOMIC_RELEASE);
		else
			__atomic_fetch_sub(&t->bits[EHS_WATCH_HIGH], 1, __ATOMIC_RELEASE);
		return;
	}
	unsigned long *w = &t->bits[(unsigned)fd / EHS_WATCH_WORD_BITS];
	unsigned long m = 1UL << ((unsigned)fd % EHS_WATCH_WORD_BITS);
	if (on)
		__atomic_fetch_or(w, m, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(w, ~m, __ATOMIC_RELEASE);
}

static const struct {
	const char *path;
	enum ehs_sock_kind kind;
} local_sockets[] = {
	{ "/dev/log", EHS_SOCK_DGRAM },
	{ "/run/systemd/journal/dev-log", EHS_SOCK_DGRAM },
	{ "/var/run/log", EHS_SOCK_DGRAM },
	{ "/run/systemd/journal/socket", EHS_SOCK_JOURNAL },
};

/* The kind of the local socket an AF_UNIX address names, or NONE.  The
 * path need not be NUL-terminated within len. */
static enum ehs_sock_kind local_kind(const struct sockaddr_un *a, socklen_t len)
{
	size_t off = offsetof(struct sockaddr_un, sun_path);
	if (len <= off)
		return EHS_SOCK_NONE;
	size_t max = len - off < sizeof a->sun_path ? len - off : sizeof a->sun_path;
	size_t n = strnlen(a->sun_path, max);
	for (size_t i = 0; i < sizeof local_sockets / sizeof local_sockets[0]; i++)
		if (strlen(local_sockets[i].path) == n &&
		    memcmp(local_sockets[i].path, a->sun_path, n) == 0)
			return local_sockets[i].kind;
	return EHS_SOCK_NONE;
}

static bool is_loopback4(const struct in_addr *a)
{
	return (ntohl(a->s_addr) >> 24) == 127;
}

/* ::1, or an IPv4 loopback address mapped into IPv6. */
static bool is_loopback6(const struct in6_addr *a)
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	if (IN6_IS_ADDR_LOOPBACK(a))
		return true;
	return memcmp(a->s6_addr, mapped, sizeof mapped) == 0 && a->s6_addr[12] == 127;
}

static int socket_type(int fd)
{
	int type = 0;
	socklen_t len = sizeof type;
	if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		return -1;
	return type;
}

/* A datagram kind of a local socket becomes a stream one on a stream
 * socket (glibc's syslog falls back to one; frames then end in NUL). */
static enum ehs_sock_kind by_type(int fd, enum ehs_sock_kind k)
{
	if (k == EHS_SOCK_DGRAM && fd >= 0 && socket_type(fd) == SOCK_STREAM)
		return EHS_SOCK_STREAM;
	return k;
}

enum ehs_sock_kind ehs_sock_kind_of(int fd, const struct sockaddr *addr, socklen_t len)
{
	if (!addr)
		return EHS_SOCK_NONE;
	int saved = errno;
	enum ehs_sock_kind k = EHS_SOCK_NONE;
	unsigned port = 0;
	bool loopback = false;

	switch (addr->sa_family) {
	case AF_UNIX:
		k = by_type(fd, local_kind((const struct sockaddr_un *)addr, len));
		errno = saved;
		return k;
	case AF_INET:
		if (len < sizeof(struct sockaddr_in))
			return EHS_SOCK_NONE;
		port = ntohs(((const struct sockaddr_in *)addr)->sin_port);
		loopback = is_loopback4(&((const struct sockaddr_in *)addr)->sin_addr);
		break;
	case AF_INET6:
		if (len < sizeof(struct sockaddr_in6))
			return EHS_SOCK_NONE;
		port = ntohs(((const struct sockaddr_in6 *)addr)->sin6_port);
		loopback = is_loopback6(&((const struct sockaddr_in6 *)addr)->sin6_addr);
		break;
	default:
		return EHS_SOCK_NONE;
	}
	if (ehs_config_syslog_port(port) && (loopback || ehs_config_remote_syslog()))
		k = socket_type(fd) == SOCK_STREAM ? EHS_SOCK_STREAM : EHS_SOCK_DGRAM;
	errno = saved;
	return k;
}

/* True when fd still holds the socket w was made for. */
static bool still_same(int fd, const struct watch *w)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == w->dev &&
	       st.st_ino == w->ino;
}

static struct watch *slot_of(int fd)
{
	struct watch_table *t = table();
	if (!ehs_sock_maybe_watched(fd))
		return NULL;
	for (int i = 0; i < WATCH_SLOTS; i++)
		if (__atomic_load_n(&t->slot[i].fd_plus_1, __ATOMIC_ACQUIRE) == fd + 1)
			return &t->slot[i];
	return NULL;
}

/* Takes a free slot, or one whose number no longer holds its socket. */
static struct watch *claim(void)
{
	struct watch_table *t = table_mapped();
	for (int pass = 0; t && pass < 2; pass++)
		for (int i = 0; i < WATCH_SLOTS; i++) {
			struct watch *w = &t->slot[i];
			int cur = __atomic_load_n(&w->fd_plus_1, __ATOMIC_ACQUIRE);
			if (cur == -1 || (cur != 0 && (pass == 0 || still_same(cur - 1, w))))
				continue;
			if (__atomic_compare_exchange_n(&w->fd_plus_1, &cur, -1, false,
							__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
				if (cur)	/* a stale number: its mark goes with it */
					mark(cur - 1, false);
				return w;
			}
		}
	return NULL;
}

/* Watches fd as a socket of kind k; whether it could. */
static __attribute__((noinline)) bool watch_new(int fd, enum ehs_sock_kind k)
{
	struct stat st;
	struct watch *w;

	if (fstat(fd, &st) < 0 || !(w = claim()))
		return false;
	w->kind = k;
	w->dev = st.st_dev;
	w->ino = st.st_ino;
	/* The bit first: a reader that finds the slot has seen it. */
	mark(fd, true);
	__atomic_store_n(&w->fd_plus_1, fd + 1, __ATOMIC_RELEASE);
	return true;
}

bool ehs_sock_watch(int fd, enum ehs_sock_kind k)
{
	int saved = errno;
	struct watch *w = slot_of(fd);
	bool ok = true;

	if (w) {	/* a new connect of the same number: start over */
		int cur = fd + 1;
		if (__atomic_compare_exchange_n(&w->fd_plus_1, &cur, 0, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			mark(fd, false);
	}
	if (k != EHS_SOCK_NONE) {
		/* From this small frame, not watch_new's: the writer's first
		 * open is deep (issue 35's stack budget). */
		ehs_prepare();
		ok = watch_new(fd, k);
	}
	errno = saved;
	return ok;
}

enum ehs_sock_kind ehs_sock_watched(int fd)
{
	const struct watch *w = fd >= 0 ? slot_of(fd) : NULL;
	return w ? (enum ehs_sock_kind)w->kind : EHS_SOCK_NONE;
}

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
	case EHS_SOCK_NONE:
		break;
	}
	ehs_busy--;
	return ok;
}

/* Bytes of one call's event gathered in a scratch slot (scratch.h) when
 * they fit one, else in a mapping of GATHER_MAX bytes; let go with
 * gather_done.  NULL when none can be had, and when no slot is free for
 * bytes that fit GATHER_STACK: the caller gathers those on its stack,
 * in a frame only that case makes.  The mapping is kept for the next
 * long message once made (its pages are only touched as far as
 * messages reach), so that a message in several iovecs costs no mmap
 * and munmap per call: taken with an exchange, and one that finds it
 * taken (another thread, or a signal handler that interrupted the
 * sender) maps its own, unmapped after. */
struct gather {
	char *p;
	bool slot;	/* p is a scratch slot */
};

static char *spare;

static char *gather_get(struct gather *g, size_t len)
{
	g->p = len <= EHS_SCRATCH_SIZE ? ehs_scratch_take() : NULL;
	g->slot = g->p != NULL;
	if (!g->p && len > GATHER_STACK) {
		g->p = __atomic_exchange_n(&spare, NULL, __ATOMIC_ACQUIRE);
		if (!g->p)
			g->p = mmap(NULL, GATHER_MAX, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (g->p == MAP_FAILED)
			g->p = NULL;
	}
	return g->p;
}

static void gather_done(struct gather *g)
{
	char *none = NULL;
	if (g->slot)
		ehs_scratch_give(g->p);
	else if (g->p &&
		 !__atomic_compare_exchange_n(&spare, &none, g->p, false, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED))
		munmap(g->p, GATHER_MAX);
}

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
	case EHS_SOCK_NONE:
		break;
	}
	return true;
}

/* True when fd, watched, still holds its socket; else its watch goes. */
static bool watch_holds(int fd)
{
	struct watch *w = slot_of(fd);
	if (w && still_same(fd, w))
		return true;
	if (w)
		ehs_sock_watch(fd, EHS_SOCK_NONE);
	return false;
}

/* The events of the bytes b[0..len) the kernel sent on a syslog socket,
 * unless nobody traces them or fd (watched) no longer holds it. */
static void log_sent(int fd, bool watched, enum ehs_sock_kind k, const char *b, size_t len,
		     int saved)
{
	bool deliverable;
	if (!bytes_idle(k, b, len, &deliverable) && (!watched || watch_holds(fd)))
		log_bytes(k, b, len, saved);
}

/* log_sent_gathered's way when no slot is free for a short message. */
static __attribute__((noinline)) void log_sent_on_stack(int fd, bool watched,
							enum ehs_sock_kind k,
							const struct iovec *iov, size_t n,
							size_t total, int saved)
{
	char stack[GATHER_STACK];
	log_sent(fd, watched, k, stack, peek(stack, total, iov, n), saved);
}

/* log_sent of iov[0..n)'s first total bytes, gathered: out of line, so
 * that only such a send has the gathering's frames. */
static __attribute__((noinline)) void log_sent_gathered(int fd, bool watched,
							enum ehs_sock_kind k,
							const struct iovec *iov, size_t n,
							size_t total, int saved)
{
	struct gather g;
	if (gather_get(&g, total))
		log_sent(fd, watched, k, g.p, peek(g.p, total, iov, n), saved);
	else if (total <= GATHER_STACK)
		log_sent_on_stack(fd, watched, k, iov, n, total, saved);
	gather_done(&g);
}

void ehs_sock_sent(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		   size_t n, size_t sent)
{
	if (!ehs_sock_acts(watched) || k == EHS_SOCK_NONE || sent == 0)
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

/* log_unchecked's way when no slot is free for a short message. */
static __attribute__((noinline)) bool log_read_on_stack(enum ehs_sock_kind k,
							const struct iovec *iov, size_t n,
							size_t total, int saved)
{
	char stack[GATHER_STACK];
	return log_read(k, iov, n, stack, total, saved);
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
	struct gather g;
	bool ok;
	if (gather_get(&g, *total))
		ok = log_read(k, iov, n, g.p, *total, saved);
	else
		ok = *total <= GATHER_STACK && log_read_on_stack(k, iov, n, *total, saved);
	gather_done(&g);
	return ok;
}

bool ehs_sock_replace(int fd, bool watched, enum ehs_sock_kind k, const struct iovec *iov,
		      size_t n, size_t *taken)
{
	if (!ehs_sock_acts(watched) || k == EHS_SOCK_NONE)
		return false;
	int saved = errno;
	size_t total = 0;
	bool kept = (!watched || watch_holds(fd)) &&
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
	if (!ehs_sock_acts(watched) || k == EHS_SOCK_NONE || !undelivered(err))
		return;
	size_t total;
	if (!watched || watch_holds(fd))
		log_unchecked(k, iov, n, GATHER_MAX, &total, err);
	errno = err;
}

bool ehs_sock_pretend_connected(int fd, const struct sockaddr *addr, socklen_t len, int err)
{
	if ((err != ENOENT && err != ECONNREFUSED) || !addr || addr->sa_family != AF_UNIX)
		return false;
	enum ehs_sock_kind k = ehs_sock_kind_of(fd, addr, len);
	return k != EHS_SOCK_NONE && !ehs_passthrough() && ehs_sock_watch(fd, k);
}
