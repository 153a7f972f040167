/* SPDX-License-Identifier: MIT */
/*
 * The ways a program installs a seccomp filter through libc: prctl(), and
 * syscall() of SYS_seccomp or SYS_prctl (libseccomp's seccomp_load makes
 * one of these from its own PLT).  A filter may forbid the system calls
 * of a logging call's first use (opening the configuration and
 * user_events_data, statfs, registering), so those are made first, before
 * the call goes on: PR_SET_NO_NEW_PRIVS, which an unprivileged filter
 * needs, is the earliest sign.  Once the kernel took a filter, its
 * program is run over every system call the library may still make, with
 * the arguments the library gives it; unless it allows all of them
 * (SECCOMP_RET_ALLOW or _LOG), the library turns itself off for the rest
 * of the process without another system call: no event, every call
 * passes through as without the library.  Strict mode allows nothing the
 * library needs.  A filter inherited through execve cannot be read: see
 * libehsyslog(7) for the rule.
 */
#include "config.h"

#undef _FORTIFY_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>

#include "bridge/bridge.h"
#include "bridge/sandbox.h"
#include "common/syscall.h"
#include "preload/cbpf.h"
#include "preload/next.h"
#include "preload/real.h"
#include "user_events/abi.h"
#include "user_events/fdguard.h"

#if defined(__x86_64__) && !defined(__ILP32__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__) && !defined(__ILP32__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#endif

typedef int (*prctl_fn)(int, unsigned long, unsigned long, unsigned long, unsigned long);
typedef long (*syscall_fn)(long, long, long, long, long, long, long);

static void *real_prctl;

/* A system call the library may make, with the arguments a filter may
 * look at; FD stands for the writer's descriptor, PTR for any pointer. */
struct call {
	int nr;
	unsigned long args[6];
};

#define FD (~0UL)
#define PTR (~1UL)

static const struct call library_calls[] = {
	/* The configuration, user_events_data, /proc/mounts (discover.c). */
	{ SYS_openat, { (unsigned long)AT_FDCWD, PTR, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK } },
	{ SYS_openat, { (unsigned long)AT_FDCWD, PTR, O_WRONLY | O_CLOEXEC | O_NOCTTY } },
	{ SYS_openat, { (unsigned long)AT_FDCWD, PTR, O_RDONLY | O_CLOEXEC | O_NOCTTY } },
	{ SYS_read, { FD, PTR, 256 } },
	{ SYS_close, { FD } },
#ifdef SYS_fstat
	{ SYS_fstat, { FD, PTR } },
#endif
	{ SYS_newfstatat, { FD, PTR, PTR, AT_EMPTY_PATH } },
	{ SYS_newfstatat, { (unsigned long)AT_FDCWD, PTR, PTR, 0 } },
	{ SYS_statfs, { PTR, PTR } },
	{ SYS_fstatfs, { FD, PTR } },
	{ SYS_mmap, { 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, ~0UL, 0 } },
	{ SYS_munmap, { PTR, 4096 } },
	{ SYS_getpid, { 0 } },
	/* Registering, and letting registrations go (writer.c, kernel.c). */
	{ SYS_ioctl, { FD, UE_ABI_IOCSREG, PTR } },
	{ SYS_ioctl, { FD, UE_ABI_IOCSUNREG, PTR } },
	{ SYS_ioctl, { FD, UE_ABI_IOCSDEL, PTR } },
	/* Every event. */
	{ SYS_writev, { FD, PTR, 2 } },
	/* Checking and moving the descriptor (writer.c, fdlimit.c, fd.c). */
	{ SYS_fcntl, { FD, F_GETFD } },
	{ SYS_fcntl, { FD, F_DUPFD_CLOEXEC, 3 } },
	{ SYS_prlimit64, { 0, RLIMIT_NOFILE, 0, PTR } },
	{ SYS_prlimit64, { 0, RLIMIT_NOFILE, PTR, PTR } },
	{ SYS_close_range, { FD, FD, 0 } },
	{ SYS_sched_yield, { 0 } },
	/* The program's own syslog sockets (bridge/socket/). */
	{ SYS_getsockopt, { FD, SOL_SOCKET, SO_TYPE, PTR, PTR } },
	{ SYS_getsockopt, { FD, SOL_SOCKET, SO_DOMAIN, PTR, PTR } },
	{ SYS_getsockopt, { FD, SOL_SOCKET, SO_SNDBUF, PTR, PTR } },
	/* Standard output and error: whether they are a log (bridge/output/). */
#ifdef SYS_fstat
	{ SYS_fstat, { 1, PTR } },
	{ SYS_fstat, { 2, PTR } },
#endif
	{ SYS_newfstatat, { 1, PTR, PTR, AT_EMPTY_PATH } },
	{ SYS_newfstatat, { 2, PTR, PTR, AT_EMPTY_PATH } },
	{ SYS_getpeername, { 1, PTR, PTR } },
	{ SYS_getpeername, { 2, PTR, PTR } },
	/* The pid is not at hand without a system call: 0 stands for it. */
	{ SYS_process_vm_readv, { 0, PTR, 1, PTR, 1, 0 } },
};

/* True when prog allows every call in library_calls. */
static bool allows_library(const struct sock_fprog *prog)
{
#ifdef AUDIT_ARCH_HERE
	int fd = ue__our_fd();
	unsigned long fd_arg = fd >= 0 ? (unsigned long)fd : 3;
	unsigned long ptr_arg = (unsigned long)&library_calls;

	if (!prog->filter || !prog->len)
		return false;
	for (size_t i = 0; i < sizeof library_calls / sizeof library_calls[0]; i++) {
		struct seccomp_data d = {
			.nr = library_calls[i].nr,
			.arch = AUDIT_ARCH_HERE,
			/* Where the call is made from is not known here: a
			 * filter that looks at it sees 0, and may then forbid. */
		};
		for (int a = 0; a < 6; a++) {
			unsigned long v = library_calls[i].args[a];
			d.args[a] = v == FD ? fd_arg : v == PTR ? ptr_arg : v;
		}
		if (!ehs_cbpf_allows(ehs_cbpf_run(prog->filter, prog->len, &d)))
			return false;
	}
	return true;
#else
	(void)prog;
	return false;	/* no way to fill in seccomp_data's arch here */
#endif
}

/* The library's part before a filter can forbid anything: whatever the
 * first logging call would do. */
static void before_filter(void)
{
	if (ehs_sandboxed() || ehs_busy)
		return;
	ehs_busy++;
	ehs_real_init();	/* dlsym may allocate: brk, getrandom */
	/* A file not readable now (EMFILE...) is not tried again later,
	 * when the filter may forbid the open: the defaults hold. */
	ehs_config_settle();
	ehs_prepare();
	ehs_busy--;
}

static void close_up(void)
{
	__atomic_store_n(&ehs_sandbox_closed, 1, __ATOMIC_RELEASE);
	ehs_config_switch_off();
	ue__abandon();
}

/* After the kernel took a filter (mode SECCOMP_MODE_FILTER with prog,
 * else strict mode): from here on, no system call. */
static void after_filter(bool filter, const struct sock_fprog *prog)
{
	int saved = errno;

	if (!ehs_sandboxed() && (!filter || !allows_library(prog)))
		close_up();
	errno = saved;
}

/* prctl's options that install a filter, or come just before one. */
static bool prctl_seccomp(int option)
{
	return option == PR_SET_SECCOMP || option == PR_SET_NO_NEW_PRIVS;
}

static void prctl_done(int option, unsigned long mode, unsigned long prog, long r)
{
	if (option == PR_SET_SECCOMP && r == 0 &&
	    (mode == SECCOMP_MODE_STRICT || mode == SECCOMP_MODE_FILTER))
		after_filter(mode == SECCOMP_MODE_FILTER, (const struct sock_fprog *)prog);
}

static long call_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4,
		       unsigned long a5)
{
	NEXT(prctl_fn, f, real_prctl, "prctl");
	if (f)
		return f(option, a2, a3, a4, a5);
	return ehs_syscall(SYS_prctl, option, a2, a3, a4, a5);	/* not reached: libc has prctl */
}

/* glibc declares prctl variadic; every option takes at most four
 * unsigned longs after it, which are passed on as read. */
EHS_INTERPOSE int prctl(int option, ...)
{
	va_list ap;
	unsigned long a2, a3, a4, a5;
	long r;

	va_start(ap, option);
	a2 = va_arg(ap, unsigned long);
	a3 = va_arg(ap, unsigned long);
	a4 = va_arg(ap, unsigned long);
	a5 = va_arg(ap, unsigned long);
	va_end(ap);
	if (__builtin_expect(!prctl_seccomp(option), 1))
		return (int)call_prctl(option, a2, a3, a4, a5);
	before_filter();
	r = call_prctl(option, a2, a3, a4, a5);
	prctl_done(option, a2, a3, r);
	return (int)r;
}

/* Whether seccomp(op, flags, ...) returning r installed its filter: a
 * filter with a listener returns its descriptor, and one with
 * SECCOMP_FILTER_FLAG_TSYNC the id of a thread it could not reach, which
 * it did not filter. */
static bool taken(long op, unsigned long flags, long r)
{
	if (op == SECCOMP_SET_MODE_FILTER && (flags & SECCOMP_FILTER_FLAG_TSYNC) &&
	    !(flags & SECCOMP_FILTER_FLAG_NEW_LISTENER))
		return r == 0;
	return r >= 0;
}

/* libc's syscall(), the instruction itself where common/syscall.h knows
 * the convention: no lookup
 * (dlsym may allocate, and a program's allocator may take a lock whose
 * slow path is a syscall(SYS_futex)), and no call in between. */
static long forward(long nr, const long a[6])
{
#ifdef EHS_SYS_RAW
	return ehs_sys_result(ehs_sys_raw6(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
#else
	static void *real_syscall;
	NEXT(syscall_fn, f, real_syscall, "syscall");
	if (!f) {
		errno = ENOSYS;	/* not reached: libc has syscall */
		return -1;
	}
	return f(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
#endif
}

/* syscall() as libc's: six long arguments read and passed on, whatever
 * the call takes, the result and errno as the real one leaves them. */
EHS_INTERPOSE long syscall(long nr, ...)
{
	va_list ap;
	long a[6], r;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (__builtin_expect(nr != SYS_seccomp && nr != SYS_prctl, 1))
		return forward(nr, a);
	if (nr == SYS_prctl) {
		if (!prctl_seccomp((int)a[0]))
			return forward(nr, a);
		before_filter();
		r = forward(nr, a);
		prctl_done((int)a[0], (unsigned long)a[1], (unsigned long)a[2], r);
		return r;
	}
	if (a[0] != SECCOMP_SET_MODE_STRICT && a[0] != SECCOMP_SET_MODE_FILTER)
		return forward(nr, a);
	before_filter();
	r = forward(nr, a);
	if (taken(a[0], (unsigned long)a[1], r))
		after_filter(a[0] == SECCOMP_SET_MODE_FILTER, (const struct sock_fprog *)a[2]);
	return r;
}
