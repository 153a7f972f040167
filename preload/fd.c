/* SPDX-License-Identifier: MIT */
/*
 * The calls that close or replace descriptor numbers, or set
 * RLIMIT_NOFILE, so that the writer never writes into a file the program
 * put at its descriptor's number, without checking the descriptor on
 * every event.
 *
 * Where the descriptor sits at the soft limit (src/user_events/fdlimit.c)
 * the kernel keeps every file of the program off its number, and these
 * wrappers keep the program's view unchanged: dup2() onto it fails with
 * EBADF as on any number there.  setrlimit() and prlimit() let the
 * writer move it when the limit rises past it.  Below the limit, where
 * each traced write also checks it with fstat, the rest applies.
 *
 * The program never opened our descriptor, so it behaves as if it were
 * not there: close() of it fails with EBADF, close_range() and closefrom()
 * close everything around it and succeed, as they would over a free
 * number.  dup2()/dup3() onto it, and fclose() of a stream on it, do
 * what the program asked: the writer lets the number go first and opens
 * a new descriptor at its next traced write.  An fcntl(F_DUPFD) that
 * returns our number, or a close of our number that finds another file
 * there, means a raw syscall closed it behind libc's back: the number is
 * the program's from then on.
 *
 * When the writer's last open failed for want of descriptors (or memory)
 * it waits before trying again, unless the program frees some: close(),
 * close_range(), closefrom() and fclose() then tell it (ue__fds_freed),
 * as setrlimit() and prlimit() do, and the next traced call opens at once.
 *
 * close(), dup2() and dup3() also let a watched syslog socket's watch go
 * (bridge/socket/socket.h), one more load and branch while none is watched.
 *
 * While the writer has no descriptor (a program that never logs) each
 * wrapper costs one load and a branch before the real function.  The
 * real functions are looked up one by one at their first call (nothing at
 * load time, see real.h); close, dup2, dup3 and fcntl stay
 * async-signal-safe once looked up.
 */
#include "config.h"

#undef _FORTIFY_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bridge/socket/socket.h"
#include "common/syscall.h"
#include "preload/next.h"
#include "preload/real.h"
#include "user_events/fdguard.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* glibc 2.34 declares these two; older headers do not. */
int close_range(unsigned int first, unsigned int last, int flags);
void closefrom(int lowfd);
int fcntl64(int fd, int cmd, ...);

typedef int (*close_fn)(int);
typedef int (*close_range_fn)(unsigned, unsigned, int);
typedef void (*closefrom_fn)(int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);
typedef int (*fcntl_fn)(int, int, ...);
typedef int (*fclose_fn)(FILE *);
typedef int (*setrlimit_fn)(__rlimit_resource_t, const void *);
typedef int (*prlimit_fn)(pid_t, __rlimit_resource_t, const void *, void *);

static void *real_close, *real_close_range, *real_closefrom, *real_dup2, *real_dup3,
	*real_fcntl, *real_fcntl64, *real_fclose, *real_setrlimit, *real_setrlimit64,
	*real_prlimit, *real_prlimit64;

static int call_close(int fd)
{
	NEXT(close_fn, f, real_close, "close");
	return f ? f(fd) : (int)ehs_syscall(SYS_close, fd);
}

static int call_close_range(unsigned first, unsigned last, int flags)
{
	NEXT(close_range_fn, f, real_close_range, "close_range");
	return f ? f(first, last, flags) : (int)ehs_syscall(SYS_close_range, first, last, flags);
}

/* Closes [first, last] (last < our number, so bounded), one by one where
 * the kernel has no close_range (before 5.9). */
static void close_span(int first, int last)
{
	int saved = errno;

	if (call_close_range((unsigned)first, (unsigned)last, 0) < 0)
		for (int fd = first; fd <= last; fd++)
			call_close(fd);
	errno = saved;
}

/* True when fd is our live descriptor and still user_events_data: the
 * program's call must leave it alone. */
static bool keep(int fd)
{
	return fd >= 0 && fd == ue__our_fd() && ue__fd_check(fd);
}

/* close() while the writer has a descriptor, or waits for one. */
static __attribute__((noinline)) int close_watched(int fd, int ours)
{
	int r;

	if (fd == ours && keep(fd)) {
		errno = EBADF;	/* what the program gets without us */
		return -1;
	}
	r = call_close(fd);
	if (ours == UE_FD_WAITING && r == 0)
		ue__fds_freed();
	return r;
}

EHS_INTERPOSE int close(int fd)
{
	int ours = ue__our_fd();

	ehs_sock_forget(fd);
	if (__builtin_expect(ours != -1, 0))
		return close_watched(fd, ours);
	return call_close(fd);
}

EHS_INTERPOSE int close_range(unsigned first, unsigned last, int flags)
{
	int ours = ue__our_fd();

	if (__builtin_expect(ours == UE_FD_WAITING, 0)) {
		int r = call_close_range(first, last, flags);

		if (r == 0 && !(flags & CLOSE_RANGE_CLOEXEC))
			ue__fds_freed();
		return r;
	}
	if (__builtin_expect(ours >= 0, 0) && (unsigned)ours >= first &&
	    (unsigned)ours <= last && !(flags & CLOSE_RANGE_CLOEXEC)) {
		if (flags & ~CLOSE_RANGE_UNSHARE) {
			/* A flag we do not know: the kernel may close it. */
			ue__fd_lost(ours);
		} else if (keep(ours)) {
			int r = 0;

			if ((unsigned)ours > first)
				r = call_close_range(first, (unsigned)ours - 1, flags);
			if (r == 0 && (unsigned)ours < last)
				r = call_close_range((unsigned)ours + 1, last, flags);
			return r;
		}
	}
	return call_close_range(first, last, flags);
}

EHS_INTERPOSE void closefrom(int lowfd)
{
	int ours = ue__our_fd();
	int low = lowfd < 0 ? 0 : lowfd;

	NEXT(closefrom_fn, f, real_closefrom, "closefrom");
	if (__builtin_expect(ours >= 0, 0) && ours >= low && keep(ours)) {
		if (ours > low)
			close_span(low, ours - 1);
		low = ours + 1;
	}
	if (f) {
		f(low);
	} else {
		int saved = errno;	/* not reached: libc has closefrom */

		ehs_syscall(SYS_close_range, (unsigned)low, ~0U, 0);
		errno = saved;
	}
	if (__builtin_expect(ours == UE_FD_WAITING, 0))
		ue__fds_freed();
}

/* A program's file goes to number newfd: ours, if there, is let go
 * first.  Not when the call will fail and ours stays: oldfd is not open,
 * or ours is at or above the soft limit, where the kernel refuses. */
static void replacing(int oldfd, int newfd)
{
	if (__builtin_expect(newfd == ue__our_fd(), 0) && newfd >= 0 && oldfd != newfd) {
		int saved = errno;

		if (ehs_syscall(SYS_fcntl, oldfd, F_GETFD) >= 0 &&
		    (uint64_t)newfd < ue__nofile_soft())
			ue__fd_lost(newfd);
		errno = saved;
	}
}

/* dup2() (f2) or dup3() (f3), announced to the writer where it checks
 * its writes (fdguard.h), so that the file never lands on its number
 * between its check and its writev. */
static int dup_onto(dup2_fn f2, dup3_fn f3, int oldfd, int newfd, int flags)
{
	bool guard = ue__swaps_need_guard();
	int r;

	if (__builtin_expect(guard, 0))
		ue__swap_begin();
	replacing(oldfd, newfd);
	if (oldfd != newfd)
		ehs_sock_forget(newfd);
	if (f3)
		r = f3(oldfd, newfd, flags);
	else if (f2)
		r = f2(oldfd, newfd);
	else
		r = -1, errno = ENOSYS;	/* not reached: libc has both */
	if (__builtin_expect(guard, 0))
		ue__swap_end();
	return r;
}

EHS_INTERPOSE int dup2(int oldfd, int newfd)
{
	NEXT(dup2_fn, f, real_dup2, "dup2");
	return dup_onto(f, NULL, oldfd, newfd, 0);
}

EHS_INTERPOSE int dup3(int oldfd, int newfd, int flags)
{
	NEXT(dup3_fn, f, real_dup3, "dup3");
	if (!f) {
		errno = ENOSYS;	/* not reached: libc has it */
		return -1;
	}
	return dup_onto(NULL, f, oldfd, newfd, flags);
}

/* F_DUPFD gives the lowest free number from its argument on: ours only
 * after a raw syscall closed it.  Then it is the program's now. */
static int fcntl_common(fcntl_fn f, int fd, int cmd, void *arg)
{
	int r = f ? f(fd, cmd, arg) : (int)ehs_syscall(SYS_fcntl, fd, cmd, arg);

	if (__builtin_expect(r == ue__our_fd(), 0) && r >= 0 &&
	    (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
		ue__fd_lost(r);
	return r;
}

/* The argument, when there is one, is an int or a pointer: passed on as
 * a pointer, as glibc's own fcntl reads it. */
EHS_INTERPOSE int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	NEXT(fcntl_fn, f, real_fcntl, "fcntl");
	return fcntl_common(f, fd, cmd, arg);
}

/* What programs built with 64-bit off_t (or glibc 2.28+ headers) call. */
EHS_INTERPOSE int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	NEXT(fcntl_fn, f, real_fcntl64, "fcntl64");
	return fcntl_common(f, fd, cmd, arg);
}

/* glibc's fclose closes the descriptor without calling close(). */
EHS_INTERPOSE int fclose(FILE *stream)
{
	int ours = ue__our_fd();
	int r;

	NEXT(fclose_fn, f, real_fclose, "fclose");
	if (__builtin_expect(ours >= 0, 0) && stream) {
		int saved = errno;
		int fd = fileno_unlocked(stream);

		if (fd >= 0 && fd == ours)
			ue__fd_lost(fd);
		errno = saved;
	}
	if (!f) {
		errno = ENOSYS;
		return EOF;
	}
	r = f(stream);
	/* The stream's descriptor is closed, whatever r says. */
	if (__builtin_expect(ours == UE_FD_WAITING, 0))
		ue__fds_freed();
	return r;
}

/* A soft RLIMIT_NOFILE raised to or past our number would put it in the
 * program's reach (see src/user_events/fdlimit.c): the writer checks each
 * traced write while the limit changes, then moves its descriptor past
 * the new limit, or keeps checking where it cannot.  A prlimit() of
 * another pid may be one of our threads: treated the same. */
static int set_limit(setrlimit_fn f, prlimit_fn pf, pid_t pid, int resource,
		     const void *limit, void *old)
{
	bool nofile = resource == RLIMIT_NOFILE && limit;
	int r, saved;

	if (nofile)
		ue__nofile_changing();
	if (f)
		r = f((__rlimit_resource_t)resource, limit);
	else if (pf)
		r = pf(pid, (__rlimit_resource_t)resource, limit, old);
	else
		r = (int)ehs_syscall(SYS_prlimit64, pid, resource, limit, old);
	if (nofile) {
		saved = errno;
		ue__nofile_changed();
		errno = saved;
	}
	return r;
}

EHS_INTERPOSE int setrlimit(__rlimit_resource_t resource, const struct rlimit *rl)
{
	NEXT(setrlimit_fn, f, real_setrlimit, "setrlimit");
	return set_limit(f, NULL, 0, (int)resource, rl, NULL);
}

EHS_INTERPOSE int setrlimit64(__rlimit_resource_t resource, const struct rlimit64 *rl)
{
	NEXT(setrlimit_fn, f, real_setrlimit64, "setrlimit64");
	return set_limit(f, NULL, 0, (int)resource, rl, NULL);
}

EHS_INTERPOSE int prlimit(pid_t pid, __rlimit_resource_t resource, const struct rlimit *rl,
			  struct rlimit *old)
{
	NEXT(prlimit_fn, f, real_prlimit, "prlimit");
	return set_limit(NULL, f, pid, (int)resource, rl, old);
}

EHS_INTERPOSE int prlimit64(pid_t pid, __rlimit_resource_t resource,
			    const struct rlimit64 *rl, struct rlimit64 *old)
{
	NEXT(prlimit_fn, f, real_prlimit64, "prlimit64");
	return set_limit(NULL, f, pid, (int)resource, rl, old);
}
