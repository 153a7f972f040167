/* SPDX-License-Identifier: MIT */
/*
 * System calls made by the library itself.  In libehsyslog.so syscall()
 * is preload/seccomp.c's wrapper, and close(), write() and the like are
 * the preload layer's: a call of one of them from inside the library
 * would go through the library's PLT to whichever object defines that
 * name first in the process.  Where the convention is known (x86-64,
 * arm64) the instruction is made here; elsewhere libc's syscall() is
 * called, which in the library is that wrapper.
 *
 * EHS_SYS_RAW says the instruction is made here.  ehs_sys_raw3 and
 * ehs_sys_raw6 return what the kernel does, -errno on failure, and leave
 * errno alone.  ehs_syscall(nr, args...) takes up to
 * six arguments and follows syscall()'s convention: -1 with errno set.
 */
#ifndef EHS_COMMON_SYSCALL_H
#define EHS_COMMON_SYSCALL_H

#include <errno.h>
#include <unistd.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define EHS_SYS_RAW 1
static inline long ehs_sys_raw3(long nr, long a0, long a1, long a2)
{
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"(nr), "D"(a0), "S"(a1), "d"(a2)
			 : "rcx", "r11", "memory");
	return r;
}

static inline long ehs_sys_raw6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long r10 __asm__("r10") = a3;
	register long r8 __asm__("r8") = a4;
	register long r9 __asm__("r9") = a5;
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return r;
}
#elif defined(__aarch64__) && !defined(__ILP32__)
#define EHS_SYS_RAW 1
static inline long ehs_sys_raw3(long nr, long a0, long a1, long a2)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a0;
	register long x1 __asm__("x1") = a1;
	register long x2 __asm__("x2") = a2;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
}

static inline long ehs_sys_raw6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a0;
	register long x1 __asm__("x1") = a1;
	register long x2 __asm__("x2") = a2;
	register long x3 __asm__("x3") = a3;
	register long x4 __asm__("x4") = a4;
	register long x5 __asm__("x5") = a5;

	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}
#else
static inline long ehs_sys_raw6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	int saved = errno;
	long r = syscall(nr, a0, a1, a2, a3, a4, a5);

	if (r == -1) {
		r = -errno;
		errno = saved;
	}
	return r;
}

static inline long ehs_sys_raw3(long nr, long a0, long a1, long a2)
{
	return ehs_sys_raw6(nr, a0, a1, a2, 0, 0, 0);
}
#endif

/* The kernel's result r as syscall() returns it. */
static inline long ehs_sys_result(long r)
{
	if ((unsigned long)r > -4096UL) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

#define ehs_syscall(...) ehs_syscall_(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0)
#define ehs_syscall_(nr, a0, a1, a2, a3, a4, a5, ...) \
	ehs_sys_result(ehs_sys_raw6((nr), (long)(a0), (long)(a1), (long)(a2), \
				    (long)(a3), (long)(a4), (long)(a5)))

#endif /* EHS_COMMON_SYSCALL_H */
