/* SPDX-License-Identifier: MIT */
/*
 * The descriptor calls the writer makes, as raw system calls: in
 * libehsyslog.so, close() and fcntl() are preload/fd.c's wrappers, which
 * call into the writer.  The writer calls nothing of the layer above it.
 * Each returns what the system call does, errno set on failure.
 */
#ifndef UE_SYS_H
#define UE_SYS_H

#include <fcntl.h>
#include <sys/syscall.h>
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

#endif /* UE_SYS_H */
