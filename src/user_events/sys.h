/* SPDX-License-Identifier: MIT */
/*
 * The descriptor calls the writer makes, as raw system calls
 * (common/syscall.h): in libehsyslog.so, close() and fcntl() are
 * preload/fd.c's wrappers, which call into the writer, and writev() is
 * preload/socket.c's, which looks for syslog sockets first.  The writer
 * calls nothing of the layer above it.  Each returns what the system
 * call does, errno set on failure (ue__sys_writev_raw: -errno, errno
 * untouched).
 */
#ifndef UE_SYS_H
#define UE_SYS_H

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/syscall.h"

static inline int ue__sys_close(int fd)
{
	return (int)ehs_syscall(SYS_close, fd);
}

/* fcntl(fd, cmd, arg) for the integer-argument commands used here. */
static inline int ue__sys_fcntl(int fd, int cmd, int arg)
{
	return (int)ehs_syscall(SYS_fcntl, fd, cmd, arg);
}

/* writev(fd, iov, iovcnt), every event's write: not a cancellation
 * point, as a logging call should not be.  Returns what the system call
 * does, -errno on failure, and leaves errno alone: the traced path then
 * has none to save and restore. */
static inline long ue__sys_writev_raw(int fd, const struct iovec *iov, unsigned long iovcnt)
{
	return ehs_sys_raw3(SYS_writev, fd, (long)iov, (long)iovcnt);
}

#endif /* UE_SYS_H */
