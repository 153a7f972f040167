/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/uprobe/nop5.h"

/* x86-64's number for the uprobe system call (Linux 6.18). */
#define NR_UPROBE_X86_64 336

bool nop5_kernel_optimizes(void)
{
	static int known = -1;
	pid_t pid, done = -1;
	int status = 0;

#if !defined(__x86_64__)
	known = 0;
#endif
	if (known >= 0)
		return known;
	known = 0;
	pid = fork();
	if (pid == 0) {
		long rc = syscall(NR_UPROBE_X86_64);
		_exit(rc == -1 && errno == ENXIO ? 0 : 1);
	}
	if (pid > 0)
		while ((done = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
	if (done == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		known = 1;
	return known;
}

unsigned long long nop5_site_offset(int fd, unsigned machine, unsigned long long note_offset)
{
	static const unsigned char site[] = { 0x90, 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	unsigned char have[sizeof site];

	if (fd < 0 || machine != EM_X86_64 || !nop5_kernel_optimizes())
		return note_offset;
	if (pread(fd, have, sizeof have, (off_t)note_offset) == (ssize_t)sizeof have &&
	    memcmp(have, site, sizeof site) == 0)
		return note_offset + 1;
	return note_offset;
}
