/* SPDX-License-Identifier: MIT */
/*
 * The descriptor calls the writer makes, as raw system calls: in
 * libehsyslog.so, close() and fcntl() are preload/fd.c's wrappers, which
 * call into the writer, and writev() is preload/socket.c's, which looks
 * for syslog sockets first.  The writer calls nothing of the layer above
 * it.  Each returns what the system call does, errno set on failure
 * (ue__sys_writev_raw: -errno, errno untouched).
 */
#ifndef UE_SYS_H
#define UE_SYS_H

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static inline int ue__sys_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

/* fcntl(fd, cmd, arg) for the integer-argument commands used here. */
static inline int ue__sys_fcntl(int fd, int cmd, int arg)
{
	return (int)syscall(SYS_fcntl, fd, cmd, arg);
}

/* writev(fd, iov, iovcnt), every event's write: not a cancellation
 * point, as a logging call should not be.  Returns what the system call
 * does, -errno on failure, and leaves errno alone: the traced path then
 * has none to save and restore.  One instruction where the system call
 * convention is known here; syscall() and errno put back elsewhere. */
static inline long ue__sys_writev_raw(int fd, const struct iovec *iov, unsigned long iovcnt)
{
#if defined(__x86_64__) && !defined(__ILP32__)
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"((long)SYS_writev), "D"((long)fd), "S"(iov), "d"(iovcnt)
			 : "rcx", "r11", "memory");
	return r;
#elif defined(__aarch64__) && !defined(__ILP32__)
	register long x8 __asm__("x8") = SYS_writev;
	register long x0 __asm__("x0") = fd;
	register long x1 __asm__("x1") = (long)iov;
	register long x2 __asm__("x2") = (long)iovcnt;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	return x0;
#else
	int saved = errno;
	long r = syscall(SYS_writev, fd, iov, iovcnt);

	if (r < 0) {
		r = -errno;
		errno = saved;
	}
	return r;
#endif
}

#endif /* UE_SYS_H */
