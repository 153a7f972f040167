/* SPDX-License-Identifier: MIT */
/*
 * The watched syslog sockets, by descriptor number and inode (socket.h).
 * Runs for a connect() to a syslog destination, and for a call on a
 * number whose bit is set; never on another call's path.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "bridge/bridge.h"
#include "bridge/sandbox.h"
#include "bridge/socket/socket.h"

/* Sockets watched at once.  A program has one or two; stale entries (a
 * number closed behind libc's back) are reclaimed when the table fills. */
#define WATCH_SLOTS 16

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
unsigned ehs_watch_outputs;

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

/* Sets or clears fd's bit among the output streams (1 and 2 only). */
static void mark_output(int fd, bool on)
{
	if (fd != 1 && fd != 2)
		return;
	if (on)
		__atomic_fetch_or(&ehs_watch_outputs, 1U << fd, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&ehs_watch_outputs, ~(1U << fd), __ATOMIC_RELEASE);
}

/* True when fd still holds the file w was made for: a socket, but for
 * an output stream (a pipe, a file). */
static bool still_same(int fd, const struct watch *w)
{
	struct stat st;
	return fstat(fd, &st) == 0 && (S_ISSOCK(st.st_mode) || w->kind == EHS_SOCK_OUTPUT) &&
	       st.st_dev == w->dev && st.st_ino == w->ino;
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
				if (cur) {	/* a stale number: its marks go with it */
					mark(cur - 1, false);
					if (w->kind == EHS_SOCK_OUTPUT)
						mark_output(cur - 1, false);
				}
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
	if (k == EHS_SOCK_OUTPUT)
		mark_output(fd, true);
	return true;
}

bool ehs_sock_watch(int fd, enum ehs_sock_kind k)
{
	int saved = errno;
	struct watch *w = slot_of(fd);
	bool ok = true;

	if (w) {	/* a new connect of the same number: start over */
		int cur = fd + 1;
		if (w->kind == EHS_SOCK_OUTPUT)
			mark_output(fd, false);
		if (__atomic_compare_exchange_n(&w->fd_plus_1, &cur, 0, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			mark(fd, false);
	}
	if (k != EHS_SOCK_NONE && ehs_sandboxed())
		ok = false;	/* its calls may be forbidden (sandbox.h) */
	else if (k != EHS_SOCK_NONE) {
		/* From this small frame, not watch_new's: the writer's first
		 * open is deep (the stack budget: 2 KiB beyond libc's call). */
		ehs_prepare();
		ok = watch_new(fd, k);
	}
	errno = saved;
	return ok;
}

enum ehs_sock_kind ehs_sock_watched(int fd)
{
	const struct watch *w = fd >= 0 ? slot_of(fd) : NULL;
	return w && !ehs_sandboxed() ? (enum ehs_sock_kind)w->kind : EHS_SOCK_NONE;
}

bool ehs_sock_holds(int fd)
{
	struct watch *w = slot_of(fd);
	if (w && still_same(fd, w))
		return true;
	if (w)
		ehs_sock_watch(fd, EHS_SOCK_NONE);
	return false;
}

