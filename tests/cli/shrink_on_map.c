/* SPDX-License-Identifier: MIT */
/*
 * Preloaded by tests/cli/decode_others_file.sh: a program mapping the
 * file named by SHRINK_FILE finds it cut to 200 bytes first, as its
 * owner could cut it while root's decode reads it.  mmap is made by the
 * system call itself, so that nothing here needs the dynamic linker.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	const char *path = fd >= 0 ? getenv("SHRINK_FILE") : NULL;
	struct stat mapped, named;

	if (path != NULL && fstat(fd, &mapped) == 0 && stat(path, &named) == 0 &&
	    mapped.st_dev == named.st_dev && mapped.st_ino == named.st_ino)
		(void)truncate(path, 200);
	return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}
