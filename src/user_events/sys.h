/* SPDX-License-Identifier: MIT */
/*
 * The descriptor calls the writer makes, as raw system calls: in
 * libehsyslog.so, close() and fcntl() are preload/fd.c's wrappers, which
 * call into the writer, and writev() is preload/socket.c's, which looks
 * for syslog sockets first.  The writer calls nothing of the layer above
 * it.  Each returns what the system call does, errno set on failure.
 */
#ifndef UE_SYS_H
#define UE_SYS_H

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
 * point, as a logging call should not be. */
static inline ssize_t ue__sys_writev(int fd, const struct iovec *iov, int iovcnt)
{
	return (ssize_t)syscall(SYS_writev, fd, iov, iovcnt);
}

#endif /* UE_SYS_H */
