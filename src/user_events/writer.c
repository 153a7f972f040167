/* SPDX-License-Identifier: MIT */
/*
 * The writer's state: one descriptor for user_events_data, the list of
 * tracepoints it registered, the remembered failure.  Everything that
 * changes it runs under one lock; the checks and writes read only the
 * tracepoint's own words.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "eventheader/eventheader.h"
#include "user_events/channel.h"
#include "user_events/fdguard.h"
#include "user_events/internal.h"
#include "user_events/sys.h"

/* priv_flags */
#define TP_LISTED 0x1u	/* on the list below */
#define TP_FAILED 0x2u	/* registration failed; word left at 0 */
/* struct ue_enabler's priv_flags */
#define EN_LISTED 0x1u	/* on the enabler list: registered or failed */
#define EN_FAILED 0x2u	/* registration failed; bit left clear, unless EN_RETRY */
#define EN_RETRY UE_ENABLER_RETRY	/* failed, may recover: bit left set */
_Static_assert((EN_RETRY & (EN_LISTED | EN_FAILED)) == 0, "distinct flags");
_Static_assert((EN_LISTED | EN_FAILED) == EN_RETRY - 1, "ue_enabler_done's one compare");

/* Error checking: a signal handler that interrupts the thread holding it
 * gets EDEADLK instead of hanging.  Reinitialized in a forked child. */
static pthread_mutex_t lock = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static const pthread_mutex_t lock_init = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static int atfork_done;
/* Set by the first lock_take(): until then nothing was registered or
 * opened, and the destructor has nothing to undo. */
static int used;

static struct ue_paths paths = { UE_FIXED_PATH, UE_MOUNTS_PATH, true };
static int data_fd = -1;
/* data_fd while it is ours; -1 once the program may have taken the number
 * (preload/fd.c sees it close or replace numbers).  The only check a
 * traced write makes: no syscall. */
int ue__live_fd = -1;
/* Whether preload/fd.c sees the program's closes and setrlimit() calls;
 * if not (the library was dlopen()ed), each traced write checks its
 * descriptor with fstat. */
static bool fd_calls_seen;
/* Why a traced write must fstat() its descriptor first; 0 when it checks
 * nothing.  FD_REACHABLE: data_fd is below the soft RLIMIT_NOFILE (or
 * the program's calls are unseen), where a raw close syscall then an
 * open() of the program would put a file of its own at the number.  At
 * or above the limit (fdlimit.c) nothing can.  Plus one per setrlimit()
 * or prlimit() of the program in progress (preload/fd.c), which may
 * raise the limit past the number. */
#define FD_REACHABLE (1u << 30)
static unsigned fd_checks = FD_REACHABLE;
/* Moves after each change that makes a copy of a channel stale
 * (channel.h): odd, so never a zeroed copy's. */
uint32_t ue__channel_gen = 1;
/* user_events_data's identity, for telling our descriptor from a file the
 * program put at its number where a syscall is affordable (closing,
 * unregistering).  Read without the lock. */
static uint64_t data_dev, data_ino;
static int state = UE_STATUS_UNUSED;
static int error;
/* The last search for user_events_data (its path is the status's):
 * here, not on the stack of the first logging call, which may be a
 * signal handler's.  Locked. */
static struct ue_found found;
static struct ue_tracepoint *list;
static unsigned registered, failed;
static struct ue_enabler *enablers;
static unsigned enablers_registered;
static unsigned long oversize;
static int shut_down;	/* the destructor ran: register nothing more (atomic) */

/* Writes in progress and announced dup2()/dup3() calls (fdguard.h). */
int ue__swaps_guarded;
static unsigned swaps, writes;
#define GUARD_ROUNDS 10000

void ue__swap_begin(void)
{
	__atomic_add_fetch(&swaps, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; __atomic_load_n(&writes, __ATOMIC_SEQ_CST) && i < GUARD_ROUNDS; i++)
		sched_yield();
}

void ue__swap_end(void)
{
	__atomic_sub_fetch(&swaps, 1, __ATOMIC_SEQ_CST);
}

/* Announces a checked write; waits while a dup2()/dup3() of the program
 * is announced.  Both sequentially consistent: either the wrapper sees
 * this write and waits for it, or this write sees the wrapper. */
static void write_begin(void)
{
	for (int i = 0;; i++) {
		__atomic_add_fetch(&writes, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&swaps, __ATOMIC_SEQ_CST) || i >= GUARD_ROUNDS)
			return;
		__atomic_sub_fetch(&writes, 1, __ATOMIC_SEQ_CST);
		sched_yield();
	}
}

static void write_end(void)
{
	__atomic_sub_fetch(&writes, 1, __ATOMIC_SEQ_CST);
}

/* When a traced write may next try to get lost registrations back, in
 * CLOCK_MONOTONIC_COARSE milliseconds: 0 at once, RETRY_NEVER after a
 * permanent failure.  Read by writers without the lock. */
#define RETRY_NEVER UINT64_MAX
static uint64_t retry_at;

static void atfork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

static void atfork_child(void)
{
	/* Only the forking thread survives; it held the lock in prepare. */
	lock = lock_init;
}

/* 0, or -EDEADLK when this thread already holds the lock (a signal handler
 * interrupted it). */
static int lock_take(void)
{
	int e;

	/* Before the lock, sequentially consistent: either ue_fini() sees
	 * it, or this thread sees shut_down (see ue_fini). */
	__atomic_store_n(&used, 1, __ATOMIC_SEQ_CST);
	e = pthread_mutex_lock(&lock);

	if (e)
		return -e;
	if (!atfork_done) {
		/* Registered here, not at start-up: nothing runs in a process
		 * that never logs.  Removed by glibc when we are dlclosed. */
		if (pthread_atfork(atfork_prepare, atfork_parent, atfork_child) == 0)
			atfork_done = 1;
	}
	return 0;
}

static void lock_drop(void)
{
	pthread_mutex_unlock(&lock);
}

void ue__set_paths(const char *fixed, const char *mounts)
{
	paths.fixed = fixed ? fixed : UE_FIXED_PATH;
	paths.mounts = mounts ? mounts : UE_MOUNTS_PATH;
	paths.env = !fixed && !mounts;
}

int ue_tracefs_dir(char *buf, size_t cap)
{
	int saved = errno;
	int r = ue__tracefs_dir(&paths, buf, cap);

	errno = saved;
	return r;
}

static bool fd_is_data(int fd)
{
	return ue__fd_is(fd, __atomic_load_n(&data_dev, __ATOMIC_RELAXED),
			 __atomic_load_n(&data_ino, __ATOMIC_RELAXED));
}

void ue__channel_moved(void)
{
	__atomic_add_fetch(&ue__channel_gen, 2, __ATOMIC_SEQ_CST);
}

uint64_t ue__channel_copy(struct ue_tracepoint *tp)
{
	/* The generation first: a change after it moves it past the copy. */
	uint32_t gen = __atomic_load_n(&ue__channel_gen, __ATOMIC_ACQUIRE);
	uint64_t ch = __atomic_load_n(&tp->priv_channel, __ATOMIC_ACQUIRE);

	if (!ch || __atomic_load_n(&fd_checks, __ATOMIC_ACQUIRE) != 0 ||
	    (int)(ch >> 32) - 1 != __atomic_load_n(&ue__live_fd, __ATOMIC_ACQUIRE))
		return 0;
	return (uint64_t)(uint32_t)ch << 32 | gen;
}

void ue__fd_lost(int fd)
{
	int expected = fd;

	/* Only that number: a descriptor opened meanwhile stays live. */
	if (__atomic_compare_exchange_n(&ue__live_fd, &expected, -1, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		ue__channel_moved();
}

bool ue__fd_check(int fd)
{
	int saved = errno;
	bool ours = fd_is_data(fd);

	if (!ours)
		ue__fd_lost(fd);
	errno = saved;
	return ours;
}

/* After a writev's EBADF: true when fd is no longer open (closed by a
 * raw syscall we did not see), and then forgotten as by ue__fd_lost(). */
static bool fd_closed(int fd)
{
	if (ue__sys_fcntl(fd, F_GETFD, 0) >= 0 || errno != EBADF)
		return false;
	ue__fd_lost(fd);
	return true;
}

/* The vDSO answers this clock: no syscall, async-signal-safe. */
static uint64_t coarse_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Failures that go away by themselves: descriptors or memory run out, a
 * signal came.  Anything else waits for ue_retry(). */
static bool transient(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM || err == EAGAIN ||
	       err == EINTR;
}

static bool open_failed_for_good(void)
{
	return state != UE_STATUS_UNUSED && state != UE_STATUS_OK &&
	       !(state == UE_STATUS_ERROR && transient(error));
}

static bool retry_due(void)
{
	uint64_t at = __atomic_load_n(&retry_at, __ATOMIC_RELAXED);

	return at == 0 || (at != RETRY_NEVER && coarse_ms() >= at);
}

/* Whether a registration that failed with err (0: its descriptor was
 * lost) may work later without ue_retry(): the open failed for a reason
 * that goes away, or the program took our descriptor (also behind the
 * wrappers' back: one fstat, on this failure path only, which marks the
 * number lost), or the kernel ran short of memory.  The kernel's
 * refusals (a name, its event limit) and a failed open for good stay.
 * Locked. */
static bool may_recover(int err)
{
	if (__atomic_load_n(&shut_down, __ATOMIC_RELAXED) || open_failed_for_good())
		return false;
	if (data_fd < 0 || ue__our_fd() != data_fd || !ue__fd_check(data_fd))
		return true;
	return err == ENOMEM || err == EAGAIN || err == EINTR;
}

static void enabler_bit(struct ue_enabler *e, bool set);

/* The open failed for good: the tracepoints and enablers waiting for a
 * retry go quiet, as if they had failed so, until ue_retry().  Locked. */
static void retries_end(void)
{
	for (struct ue_tracepoint *tp = list; tp; tp = tp->priv_next)
		if (tp->priv_flags & TP_FAILED)
			__atomic_and_fetch(&tp->state, ~UE_STATE_RETRY, __ATOMIC_RELAXED);
	for (struct ue_enabler *e = enablers; e; e = e->priv_next) {
		if (e->priv_flags & EN_RETRY) {
			enabler_bit(e, false);
			__atomic_store_n(&e->priv_flags, EN_LISTED | EN_FAILED, __ATOMIC_RELEASE);
		}
	}
}

/* The open failed: after a transient failure the next attempt waits out
 * UE_RETRY_INTERVAL_MS, or a descriptor the program frees (ue__fds_freed).
 * Locked. */
static int open_failed(void)
{
	int none = -1;

	if (open_failed_for_good()) {
		__atomic_store_n(&retry_at, RETRY_NEVER, __ATOMIC_RELAXED);
		retries_end();
	} else {
		__atomic_store_n(&retry_at, coarse_ms() + UE_RETRY_INTERVAL_MS, __ATOMIC_RELAXED);
		__atomic_compare_exchange_n(&ue__live_fd, &none, UE_FD_WAITING, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	}
	return -error;
}

/* The magic number of fd's file system, 0 if fstatfs fails.  In a frame
 * of its own, not data_open's, which the search runs under. */
static __attribute__((noinline)) unsigned long fs_magic(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 ? (unsigned long)sfs.f_type : 0;
}

/* Opens user_events_data unless open or known to be unusable for good.
 * After a transient failure it tries again whenever asked: callers on the
 * write path ask through retry_due().  Locked.
 *
 * The number is published in ue__live_fd before it is checked, so that
 * from then on the wrappers see a dup2() or close() of the program over
 * it; a number that then holds anything but the file we opened is the
 * program's: never closed, never written, and a transient failure. */
static int data_open(void)
{
	unsigned long magic;
	int fd;

	if (data_fd >= 0)
		return 0;
	if (open_failed_for_good())
		return -error;
	ue__discover(&paths, &found);
	state = found.state;
	error = found.error;
	fd = found.fd;
	if (fd < 0)
		return open_failed();
	__atomic_store_n(&data_dev, found.dev, __ATOMIC_RELAXED);
	__atomic_store_n(&data_ino, found.ino, __ATOMIC_RELAXED);
	__atomic_store_n(&ue__live_fd, fd, __ATOMIC_SEQ_CST);
	magic = fs_magic(fd);
	if (!magic || !fd_is_data(fd) || ue__our_fd() != fd) {
		ue__fd_lost(fd);
		state = UE_STATUS_ERROR;
		error = EAGAIN;
		return open_failed();
	}
	if (magic != UE_TRACEFS_MAGIC) {
		/* Ours, but not tracefs, so not user_events_data: never
		 * write there. */
		ue__fd_lost(fd);
		ue__close_if(fd, found.dev, found.ino);
		state = UE_STATUS_ERROR;
		error = ENOTTY;
		return open_failed();
	}
	data_fd = fd;
	__atomic_store_n(&fd_calls_seen, ue__fd_wrappers_first(), __ATOMIC_RELAXED);
	if (found.beyond && fd_calls_seen) {
		__atomic_and_fetch(&fd_checks, ~FD_REACHABLE, __ATOMIC_SEQ_CST);
	} else {
		__atomic_or_fetch(&fd_checks, FD_REACHABLE, __ATOMIC_SEQ_CST);
		__atomic_store_n(&ue__swaps_guarded, 1, __ATOMIC_SEQ_CST);
		ue__channel_moved();
	}
	return 0;
}

void ue__fds_freed(void)
{
	int waiting = UE_FD_WAITING;
	uint64_t at = __atomic_load_n(&retry_at, __ATOMIC_RELAXED);

	if (__atomic_compare_exchange_n(&ue__live_fd, &waiting, -1, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED) && at != RETRY_NEVER)
		__atomic_compare_exchange_n(&retry_at, &at, 0, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* DIAG_IOCSREG of name's event on data_fd, the kernel to keep bit of
 * *word; *index gets the write index.  Locked; data_fd open. */
static int reg_bit(const char *name, uint32_t *word, unsigned bit, unsigned flags,
		   uint32_t *index)
{
	int r = ue_kernel_register(data_fd, name, word, bit, flags, index);

	/* The bit is still registered from a descriptor we lost (closed by
	 * the program): release it and try once more. */
	if (r == -EADDRINUSE) {
		r = ue__kernel_unregister(data_fd, word, bit);
		if (r == 0)
			r = ue_kernel_register(data_fd, name, word, bit, flags, index);
	}
	return r;
}

/* Registers tp's state word; publishes the channel and clears the
 * "unregistered" bit.  Locked; data_fd open. */
static int reg_on_kernel(struct ue_tracepoint *tp, unsigned flags)
{
	uint32_t index;
	int r = reg_bit(tp->name, &tp->state, 0, flags, &index);

	if (r < 0)
		return r;
	__atomic_store_n(&tp->priv_channel,
			 (uint64_t)(unsigned)(data_fd + 1) << 32 | index,
			 __ATOMIC_RELEASE);
	__atomic_and_fetch(&tp->state, ~(UE_STATE_UNREGISTERED | UE_STATE_RETRY), __ATOMIC_RELEASE);
	registered++;
	return 0;
}

/* tp's registration failed with err (0: lost with its descriptor).  When
 * that may go away, the word keeps UE_STATE_RETRY, so that its checks
 * still reach the slow path, which tries again; else only the kernel's
 * bit is left.  Set before "unregistered" is cleared: the word is never
 * 0 on the way.  Locked. */
static void mark_failed(struct ue_tracepoint *tp, int err)
{
	if (!(tp->priv_flags & TP_FAILED)) {
		tp->priv_flags |= TP_FAILED;
		failed++;
	}
	if (err)
		error = err;
	if (may_recover(err)) {
		__atomic_or_fetch(&tp->state, UE_STATE_RETRY, __ATOMIC_RELAXED);
		__atomic_and_fetch(&tp->state, ~UE_STATE_UNREGISTERED, __ATOMIC_RELAXED);
	} else {
		__atomic_and_fetch(&tp->state, ~(UE_STATE_UNREGISTERED | UE_STATE_RETRY),
				   __ATOMIC_RELAXED);
	}
}

static void clear_failed(struct ue_tracepoint *tp)
{
	if (tp->priv_flags & TP_FAILED) {
		tp->priv_flags &= ~TP_FAILED;
		failed--;
	}
}

static void enablers_retry(void);
static void enabler_release(struct ue_enabler **pp, int fd);

/* Where the wrappers (preload/fd.c) took our number for the program (a
 * dup2() or fclose() of its own over it), or a write found it closed
 * behind libc's back: every registration made through the descriptor
 * went with it.  Forgets the descriptor, never closing the number, which
 * is the program's now, and lets every tracepoint and enabler register
 * again through the next one, so that no later call works on the
 * program's file or waits for a descriptor that will not come back.
 * True when it did.  Locked. */
static bool forget_lost_fd(void)
{
	if (data_fd < 0 || ue__our_fd() == data_fd)
		return false;
	data_fd = -1;
	if (state == UE_STATUS_OK)
		state = UE_STATUS_UNUSED;
	for (struct ue_tracepoint *t = list; t; t = t->priv_next) {
		if (!__atomic_load_n(&t->priv_channel, __ATOMIC_RELAXED))
			continue;
		__atomic_store_n(&t->priv_channel, 0, __ATOMIC_RELAXED);
		registered--;
		mark_failed(t, 0);
	}
	while (enablers)
		enabler_release(&enablers, -1);
	ue__channel_moved();
	return true;
}

/* Registers again every tracepoint but skip whose registration failed or
 * was lost, opening user_events_data first if needed (a descriptor the
 * program took is forgotten first).  Each call counts as one attempt for
 * the rate limit.  Locked. */
static int revive_locked(struct ue_tracepoint *skip)
{
	int r;

	forget_lost_fd();
	if (open_failed_for_good())
		return -error;	/* no attempt: keep RETRY_NEVER */
	__atomic_store_n(&retry_at, coarse_ms() + UE_RETRY_INTERVAL_MS, __ATOMIC_RELAXED);
	r = data_open();
	if (r == 0)
		enablers_retry();
	for (struct ue_tracepoint *tp = list; r == 0 && tp; tp = tp->priv_next) {
		if (!(tp->priv_flags & TP_FAILED) || tp == skip)
			continue;
		/* A word lost with our old descriptor is still registered
		 * and flipped by the kernel: reg_on_kernel() drops that
		 * registration first, then takes a new write index. */
		int e = reg_on_kernel(tp, 0);

		if (e < 0)
			mark_failed(tp, -e);
		else
			clear_failed(tp);
	}
	return r;
}

/* Registers tp (not yet registered).  On failure a lazy registration
 * leaves the word 0; an explicit one leaves tp as it was.  Locked. */
static int reg_locked(struct ue_tracepoint *tp, unsigned flags, bool lazy)
{
	int r;

	if (!(tp->priv_flags & TP_LISTED)) {
		tp->priv_next = list;
		list = tp;
		tp->priv_flags |= TP_LISTED;
	}
	forget_lost_fd();
	if (__atomic_load_n(&shut_down, __ATOMIC_SEQ_CST))
		r = -ESHUTDOWN;
	else if (data_fd < 0)
		r = revive_locked(tp);	/* others may have failed with the last open */
	else
		r = 0;
	if (r == 0)
		r = reg_on_kernel(tp, flags);
	if (r == 0)
		clear_failed(tp);
	else if (lazy)
		mark_failed(tp, __atomic_load_n(&shut_down, __ATOMIC_RELAXED) ? 0 : -r);
	return r;
}

static int recover(struct ue_tracepoint *tp, int stale_fd);

bool ue_tracepoint_slow(struct ue_tracepoint *tp)
{
	int saved = errno;
	uint32_t s = __atomic_load_n(&tp->state, __ATOMIC_ACQUIRE);

	if (s & UE_STATE_UNREGISTERED && lock_take() == 0) {
		if (__atomic_load_n(&tp->state, __ATOMIC_RELAXED) & UE_STATE_UNREGISTERED)
			reg_locked(tp, 0, true);
		lock_drop();
	} else if (s & UE_STATE_RETRY && retry_due()) {
		/* Else nothing: no syscall, no lock between attempts. */
		recover(tp, -1);
	}
	s = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
	errno = saved;
	return s == UE_STATE_ENABLED;
}

int ue_tracepoint_register(struct ue_tracepoint *tp, unsigned flags)
{
	int saved = errno;
	int r;

	if (flags & ~UE_PERSIST)
		return -EINVAL;
	r = lock_take();
	if (r == 0) {
		if (__atomic_load_n(&tp->priv_channel, __ATOMIC_RELAXED) == 0)
			r = reg_locked(tp, flags, false);
		lock_drop();
	}
	errno = saved;
	return r;
}

/* Forgets tp's registration; fd is ours or -1.  Locked. */
static void release_locked(struct ue_tracepoint *tp, int fd)
{
	if (__atomic_load_n(&tp->priv_channel, __ATOMIC_RELAXED)) {
		if (fd >= 0)
			ue__kernel_unregister(fd, &tp->state, 0);
		__atomic_store_n(&tp->priv_channel, 0, __ATOMIC_RELAXED);
		registered--;
		ue__channel_moved();
	}
	clear_failed(tp);
	__atomic_store_n(&tp->state, UE_STATE_UNREGISTERED, __ATOMIC_RELAXED);
}

/* A descriptor for DIAG_IOCSUNREG: ours if the program left it alone,
 * else a new one (*tmp says to close it).  -1 if none can be had. */
static int unreg_fd(int *tmp)
{
	struct ue_found again;	/* not the status's search */

	*tmp = 0;
	if (data_fd >= 0 && data_fd == ue__our_fd() && fd_is_data(data_fd))
		return data_fd;
	if (!registered && !enablers_registered)
		return -1;
	ue__discover(&paths, &again);
	*tmp = again.fd >= 0;
	return again.fd;
}

static void enabler_bit(struct ue_enabler *e, bool set)
{
	uint32_t mask = 1u << e->bit;

	if (set)
		__atomic_or_fetch(e->word, mask, __ATOMIC_RELEASE);
	else
		__atomic_and_fetch(e->word, ~mask, __ATOMIC_RELEASE);
}

/* Takes *pp off the enabler list, unregistered (fd is ours or -1), with
 * its bit set again.  Locked. */
static void enabler_release(struct ue_enabler **pp, int fd)
{
	struct ue_enabler *e = *pp;

	*pp = e->priv_next;
	if (!(e->priv_flags & EN_FAILED)) {
		if (fd >= 0)
			ue__kernel_unregister(fd, e->word, e->bit);	/* the kernel clears it */
		enablers_registered--;
	}
	e->priv_next = NULL;
	enabler_bit(e, true);
	__atomic_store_n(&e->priv_flags, 0, __ATOMIC_RELEASE);
}

/* Lets every failed enabler try again at its next check.  Locked. */
static void enablers_retry(void)
{
	struct ue_enabler **pp = &enablers;

	while (*pp) {
		if ((*pp)->priv_flags & EN_FAILED)
			enabler_release(pp, -1);
		else
			pp = &(*pp)->priv_next;
	}
}

/* Registers e for tp.  An enabler waiting for a retry (the caller saw
 * one due) comes off the list with the attempt, when it succeeds.
 * Locked. */
static int enabler_add_locked(struct ue_tracepoint *tp, struct ue_enabler *e)
{
	uint32_t index;
	int r = -ENOTCONN;
	bool retry;

	if (e->priv_flags & EN_LISTED && e->priv_flags & EN_RETRY)
		revive_locked(NULL);	/* lets the failed enablers go when it opens */
	if (e->priv_flags & EN_LISTED)
		return e->priv_flags & EN_FAILED ? -ENOTCONN : 0;
	uint32_t s = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);
	if (forget_lost_fd() || s & UE_STATE_UNREGISTERED)
		reg_locked(tp, 0, true);
	else if (s & UE_STATE_RETRY && retry_due())
		revive_locked(NULL);
	if (__atomic_load_n(&shut_down, __ATOMIC_SEQ_CST))
		r = -ESHUTDOWN;
	else if (__atomic_load_n(&tp->priv_channel, __ATOMIC_RELAXED))
		r = reg_bit(tp->name, e->word, e->bit, 0, &index);
	/* Without a channel, e shares its tracepoint's fate. */
	if (r == -ENOTCONN)
		retry = __atomic_load_n(&tp->state, __ATOMIC_RELAXED) & UE_STATE_RETRY;
	else
		retry = r < 0 && may_recover(-r);
	e->priv_next = enablers;
	enablers = e;
	if (r == 0)
		enablers_registered++;
	else if (r != -ENOTCONN)
		error = -r;	/* the status's "last failed registration" */
	/* Set again for a retry: reg_bit's unregister of a registration
	 * left from a lost descriptor has the kernel clear it. */
	if (r < 0)
		enabler_bit(e, retry);
	__atomic_store_n(&e->priv_flags,
			 EN_LISTED | (r ? EN_FAILED : 0) | (retry ? EN_RETRY : 0), __ATOMIC_RELEASE);
	return r;
}

int ue_enabler_add(struct ue_tracepoint *tp, struct ue_enabler *e)
{
	int saved = errno;
	unsigned f = __atomic_load_n(&e->priv_flags, __ATOMIC_ACQUIRE);
	int r;

	/* A failure that may go away is tried again here, at most once per
	 * UE_RETRY_INTERVAL_MS: no lock, no syscall in between. */
	if (f & EN_LISTED && !(f & EN_RETRY && retry_due()))
		return f & EN_FAILED ? -ENOTCONN : 0;
	if (e->bit > 31 || (uintptr_t)e->word % sizeof *e->word)
		return -EINVAL;
	r = lock_take();
	if (r == 0) {
		r = enabler_add_locked(tp, e);
		lock_drop();
	}
	errno = saved;
	return r;
}

void ue_enabler_remove(struct ue_enabler *e)
{
	int saved = errno;
	int tmp, fd;

	if (!(__atomic_load_n(&e->priv_flags, __ATOMIC_ACQUIRE) & EN_LISTED) ||
	    lock_take() < 0) {
		errno = saved;
		return;
	}
	for (struct ue_enabler **pp = &enablers; *pp; pp = &(*pp)->priv_next) {
		if (*pp == e) {
			fd = unreg_fd(&tmp);
			enabler_release(pp, fd);
			if (tmp)
				ue__sys_close(fd);
			break;
		}
	}
	lock_drop();
	errno = saved;
}

static void close_locked(void)
{
	struct ue_tracepoint *tp, *next;
	int tmp, fd = unreg_fd(&tmp);

	for (tp = list; tp; tp = next) {
		next = tp->priv_next;
		release_locked(tp, fd);
		tp->priv_next = NULL;
		tp->priv_flags = 0;
	}
	list = NULL;
	while (enablers)
		enabler_release(&enablers, fd);
	if (tmp)
		ue__sys_close(fd);
	/* Not live first: once closed, the number may be the program's. */
	__atomic_store_n(&ue__live_fd, -1, __ATOMIC_RELEASE);
	ue__channel_moved();
	if (data_fd >= 0 && fd == data_fd)
		ue__sys_close(data_fd);	/* only when it is still ours */
	data_fd = -1;
	if (state == UE_STATUS_OK)
		state = UE_STATUS_UNUSED;
}

void ue_tracepoint_unregister(struct ue_tracepoint *tp)
{
	int saved = errno;
	struct ue_tracepoint **pp;
	int tmp, fd;

	if (lock_take() < 0) {
		errno = saved;
		return;
	}
	fd = unreg_fd(&tmp);
	release_locked(tp, fd);
	if (tmp)
		ue__sys_close(fd);
	for (pp = &list; *pp; pp = &(*pp)->priv_next) {
		if (*pp == tp) {
			*pp = tp->priv_next;
			break;
		}
	}
	tp->priv_next = NULL;
	tp->priv_flags = 0;
	lock_drop();
	errno = saved;
}

void ue_close(void)
{
	int saved = errno;

	if (lock_take() == 0) {
		close_locked();
		lock_drop();
	}
	errno = saved;
}

/* The kernel writes into the enable words: they must be unregistered
 * before this code and its data can be unmapped by dlclose.  A process
 * that never took the lock registered nothing: it exits without taking
 * the lock or registering the fork handlers.  shut_down is stored first
 * and used read after, both sequentially consistent, as lock_take()
 * does the other way round: a thread that gets the lock after this reads
 * shut_down set, so it registers nothing that would outlive us.  Of the
 * library's destructors this one runs last (a priority; the
 * unprioritised ones run first), so that those before it may still
 * write their last events (bridge/output/stream.c's unfinished lines). */
__attribute__((destructor(101))) static void ue_fini(void)
{
	int saved = errno;

	__atomic_store_n(&shut_down, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&used, __ATOMIC_SEQ_CST))
		return;
	if (lock_take() == 0) {
		if (list || data_fd >= 0)
			close_locked();
		lock_drop();
	}
	errno = saved;
}

/* Lets everything go without a system call, for a process whose seccomp
 * filter forbids the ones that unregistering and closing make: the
 * descriptor stays open until exit, its number the program's, and the
 * kernel may still flip the enable bits, which nothing reads for a write
 * any more (the bridge is off).  Registers nothing after, and the
 * destructor finds nothing to undo. */
void ue__abandon(void)
{
	int saved = errno;
	struct ue_tracepoint *tp, *next;

	__atomic_store_n(&shut_down, 1, __ATOMIC_SEQ_CST);
	/* Never used: nothing to let go, and a first lock_take() would
	 * register the fork handlers, which allocates. */
	if (!__atomic_load_n(&used, __ATOMIC_SEQ_CST)) {
		errno = saved;
		return;
	}
	if (lock_take() == 0) {
		for (tp = list; tp; tp = next) {
			next = tp->priv_next;
			__atomic_store_n(&tp->priv_channel, 0, __ATOMIC_RELEASE);
			tp->priv_next = NULL;
			tp->priv_flags = 0;
		}
		list = NULL;
		enablers = NULL;
		__atomic_store_n(&ue__live_fd, -1, __ATOMIC_RELEASE);
		ue__channel_moved();
		data_fd = -1;
		lock_drop();
	}
	errno = saved;
}

/* Forgets a remembered failure.  Locked. */
static void retry_locked(void)
{
	if (state != UE_STATUS_OK && state != UE_STATUS_UNUSED) {
		state = UE_STATUS_UNUSED;
		error = 0;
	}
	__atomic_store_n(&retry_at, 0, __ATOMIC_RELAXED);
	enablers_retry();
	for (struct ue_tracepoint *tp = list; tp; tp = tp->priv_next) {
		if (tp->priv_flags & TP_FAILED) {
			clear_failed(tp);
			__atomic_or_fetch(&tp->state, UE_STATE_UNREGISTERED, __ATOMIC_RELEASE);
		}
	}
}

int ue_retry(void)
{
	int saved = errno;

	if (lock_take() == 0) {
		retry_locked();
		lock_drop();
	}
	errno = saved;
	return 0;
}

void ue_credentials_changed(void)
{
	int saved = errno;

	/* A process that never logged has nothing to let go. */
	if (__atomic_load_n(&used, __ATOMIC_SEQ_CST) && lock_take() == 0) {
		close_locked();
		retry_locked();
		lock_drop();
	}
	errno = saved;
}

/* Gets tp's channel back: the program replaced our descriptor (stale_fd
 * no longer live), or tp lost its registration earlier (stale_fd -1) and
 * the rate limit allows another attempt.  0 when the caller may reload
 * its channel. */
static int recover(struct ue_tracepoint *tp, int stale_fd)
{
	int r = lock_take();

	if (r < 0)
		return r;
	if (forget_lost_fd()) {
		r = revive_locked(NULL);
	} else if (stale_fd < 0 && tp->priv_flags & TP_FAILED && retry_due()) {
		r = revive_locked(NULL);
	}
	lock_drop();
	return r;
}

int ue_tracepoint_write(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt)
{
	size_t total = 0;

	if (!(__atomic_load_n(&tp->state, __ATOMIC_RELAXED) & UE_STATE_ENABLED))
		return 0;
	if (iovcnt < 2 || iovcnt > IOV_MAX)
		return -EINVAL;
	/* The sum, and every length or-ed together, tested once after the
	 * loop: fewer instructions an iovec than a test of each partial
	 * sum.  A length over UE_EVENT_MAX makes the or exceed it; with
	 * none, at most IOV_MAX of them cannot wrap the sum, which the or
	 * never exceeds. */
	size_t any = 0;
	for (int i = 1; i < iovcnt; i++) {
		total += iov[i].iov_len;
		any |= iov[i].iov_len;
	}
	_Static_assert((uint64_t)UE_EVENT_MAX * IOV_MAX < SIZE_MAX, "the sum cannot wrap");
	if (any > UE_EVENT_MAX)
		total = any;
	return ue_tracepoint_write_sized(tp, iov, iovcnt, total);
}

/* ue_tracepoint_write_sized's every other case: the descriptor to check
 * or get back, a registration to retry, bad arguments.  Raw system
 * calls but for the lock and the recovery's opens: errno kept. */
static __attribute__((noinline)) int write_slow(struct ue_tracepoint *tp, struct iovec *iov,
						 int iovcnt, size_t size)
{
	int saved = errno;
	int r = -ENOTCONN;

	if (!(__atomic_load_n(&tp->state, __ATOMIC_RELAXED) & UE_STATE_ENABLED))
		return 0;
	if (iovcnt < 2 || iovcnt > IOV_MAX)
		return -EINVAL;
	if (size > UE_EVENT_MAX) {
		__atomic_add_fetch(&oversize, 1, __ATOMIC_RELAXED);
		return -EMSGSIZE;
	}
	if (size < sizeof(struct eventheader))
		return -EINVAL;
	for (int attempt = 0; attempt < 2; attempt++) {
		uint64_t ch = __atomic_load_n(&tp->priv_channel, __ATOMIC_ACQUIRE);
		uint32_t index = (uint32_t)ch;
		int fd = (int)(ch >> 32) - 1;

		if (!ch) {
			/* Traced, but registration was lost to a failure: try
			 * again, at most once per UE_RETRY_INTERVAL_MS, and
			 * without a syscall until then. */
			r = -ENOTCONN;
			if (attempt == 0 && retry_due() && recover(tp, -1) == 0)
				continue;
			break;
		}
		/* preload/fd.c takes fd out of ue__live_fd before the program
		 * puts a file of its own at that number by a call it sees.
		 * At the soft limit no other call can (fd_unchecked): no
		 * syscall.  Below it, a raw close and an open could: fstat,
		 * and no dup2() of the program until the writev is done. */
		bool checked = __atomic_load_n(&fd_checks, __ATOMIC_ACQUIRE) != 0;

		if (checked)
			write_begin();
		if (fd != __atomic_load_n(&ue__live_fd, __ATOMIC_SEQ_CST) ||
		    (checked && !ue__fd_check(fd))) {
			if (checked)
				write_end();
			r = -EBADF;
			if (attempt == 0 && recover(tp, fd) == 0)
				continue;
			break;
		}
		iov[0].iov_base = &index;
		iov[0].iov_len = sizeof index;
		long w = ue__sys_writev_raw(fd, iov, iovcnt);
		int e = w < 0 ? (int)-w : 0;

		if (checked)
			write_end();
		if (w >= 0) {
			r = 0;
		} else if (e != EBADF) {
			r = -e;
		} else {
			/* Disabled meanwhile, or a raw close syscall took our
			 * number (which stays empty at the limit): then get
			 * another descriptor, one syscall on this path only. */
			r = 0;
			if (attempt == 0 && fd_closed(fd) && recover(tp, fd) == 0)
				continue;
		}
		break;
	}
	errno = saved;
	return r;
}

int ue_tracepoint_write_sized(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt,
			      size_t size)
{
	uint64_t ch = __atomic_load_n(&tp->priv_channel, __ATOMIC_ACQUIRE);
	int fd = (int)(ch >> 32) - 1;

	/* The usual case in one test: traced, registered, the descriptor
	 * beyond the program's reach and still ours (nothing to check:
	 * see fd_checks), the sizes in range.  Then one system call, whose
	 * result comes back without errno. */
	if (__builtin_expect(__atomic_load_n(&tp->state, __ATOMIC_RELAXED) == UE_STATE_ENABLED, 1) &&
	    __builtin_expect(ch != 0, 1) &&
	    __builtin_expect(__atomic_load_n(&fd_checks, __ATOMIC_ACQUIRE) == 0, 1) &&
	    __builtin_expect(fd == __atomic_load_n(&ue__live_fd, __ATOMIC_SEQ_CST), 1) &&
	    __builtin_expect(size - sizeof(struct eventheader) <=
				     UE_EVENT_MAX - sizeof(struct eventheader), 1) &&
	    __builtin_expect((unsigned)iovcnt - 2 <= IOV_MAX - 2, 1)) {
		uint32_t index = (uint32_t)ch;

		iov[0].iov_base = &index;
		iov[0].iov_len = sizeof index;
		long w = ue__sys_writev_raw(fd, iov, iovcnt);
		if (__builtin_expect(w >= 0, 1))
			return 0;
		if (w != -EBADF)
			return (int)w;
		/* Disabled meanwhile, or a raw close took the number: the
		 * slow path tells which. */
	}
	return write_slow(tp, iov, iovcnt, size);
}

void ue__nofile_changing(void)
{
	__atomic_add_fetch(&fd_checks, 1, __ATOMIC_SEQ_CST);
	ue__channel_moved();
}

/* Moves data_fd to the soft limit, out of reach again, and points every
 * channel there: the registrations belong to the open file, not to the
 * number.  A write that loaded the old channel finds ue__live_fd
 * changed and reloads.  True when moved.  Locked. */
static bool move_beyond(void)
{
	int old = data_fd, high = ue__fd_beyond_limit(old);

	if (high < 0)
		return false;
	if (!fd_is_data(high)) {
		/* The program put a file of its own at old first: the copy
		 * is of its file, the number stays checked. */
		ue__sys_close(high);
		return false;
	}
	for (struct ue_tracepoint *tp = list; tp; tp = tp->priv_next) {
		uint64_t ch = __atomic_load_n(&tp->priv_channel, __ATOMIC_RELAXED);

		if (ch)
			__atomic_store_n(&tp->priv_channel,
					 (uint64_t)(unsigned)(high + 1) << 32 | (uint32_t)ch,
					 __ATOMIC_RELEASE);
	}
	data_fd = high;
	__atomic_store_n(&ue__live_fd, high, __ATOMIC_RELEASE);
	ue__channel_moved();
	/* No longer live, so the wrappers leave the number to the program. */
	ue__close_if(old, data_dev, data_ino);
	return true;
}

void ue__nofile_changed(void)
{
	int saved = errno;
	bool reachable = true;

	if (!__atomic_load_n(&used, __ATOMIC_SEQ_CST)) {
		/* Nothing opened yet, and an open from now on sees the new
		 * limit: no lock, no fork handlers for a program that never
		 * logs. */
	} else if (lock_take() == 0) {
		if (data_fd >= 0 && data_fd == ue__our_fd() && fd_calls_seen)
			reachable = ue__nofile_soft() > (uint64_t)data_fd && !move_beyond();
		if (reachable) {
			__atomic_or_fetch(&fd_checks, FD_REACHABLE, __ATOMIC_SEQ_CST);
			ue__channel_moved();
		} else
			__atomic_and_fetch(&fd_checks, ~FD_REACHABLE, __ATOMIC_SEQ_CST);
		lock_drop();
	} else {
		/* A signal handler inside the writer: check each write until
		 * the next open. */
		__atomic_or_fetch(&fd_checks, FD_REACHABLE, __ATOMIC_SEQ_CST);
		ue__channel_moved();
	}
	__atomic_sub_fetch(&fd_checks, 1, __ATOMIC_SEQ_CST);
	/* A new limit may leave room for the open that failed. */
	ue__fds_freed();
	errno = saved;
}

void ue_status(struct ue_status *out)
{
	int saved = errno;
	int locked = lock_take() == 0;

	out->state = state;
	out->error = error;
	memcpy(out->path, found.path, sizeof out->path);
	out->registered = registered;
	out->failed = failed;
	out->oversize = __atomic_load_n(&oversize, __ATOMIC_RELAXED);
	if (locked)
		lock_drop();
	errno = saved;
}
