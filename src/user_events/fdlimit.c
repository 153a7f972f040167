/* SPDX-License-Identifier: MIT */
/*
 * Keeping our descriptor where the program cannot put a file: at the
 * number equal to the soft RLIMIT_NOFILE.  open(), socket(), dup(),
 * F_DUPFD, a descriptor received in a message, all take the lowest free
 * number below the soft limit (fs/file.c alloc_fd), and dup2()/dup3()
 * onto a number at or above it fail with EBADF (ksys_dup3), so nothing
 * the program does lands there while the limit stays.  A descriptor
 * already open above the limit keeps working.
 *
 * Getting there: the soft limit goes up by one for an F_DUPFD at the
 * old limit, then back.  That needs soft < hard.  The kernel then sizes
 * the process's descriptor table to cover the number (alloc_fdtable:
 * 8 bytes a number, rounded up to a power of two of 128-number blocks):
 * 16 KiB at the usual soft limit of 1024 (8 KiB at the 960 used below
 * the limit), 64 KiB at 4096, 1 MiB at 65536.  Hence the cap.
 *
 * The limit is read and set with the raw syscall: libehsyslog.so
 * interposes setrlimit() and prlimit() themselves (preload/fd.c).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "user_events/fdguard.h"
#include "user_events/internal.h"
#include "user_events/sys.h"

/* What prlimit64 reads and writes, whatever the width of rlim_t. */
struct ue_rlimit64 {
	uint64_t cur;
	uint64_t max;
};

static int nofile(const struct ue_rlimit64 *set, struct ue_rlimit64 *old)
{
	return (int)ehs_syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, set, old);
}

bool ue__fd_wrappers_first(void)
{
	static const char here = 0;
	Dl_info first, self;
	void *p = dlsym(RTLD_DEFAULT, "close");

	/* Compared by object, so the writer needs no symbol of the wrappers. */
	return p && dladdr(p, &first) && dladdr(&here, &self) &&
	       first.dli_fbase == self.dli_fbase;
}

uint64_t ue__nofile_soft(void)
{
	struct ue_rlimit64 rl;

	return nofile(NULL, &rl) == 0 ? rl.cur : UINT64_MAX;
}

int ue__fd_beyond_limit(int fd)
{
	int saved = errno;
	struct ue_rlimit64 rl, up, seen;
	int high;

	if (nofile(NULL, &rl) < 0 || rl.cur >= rl.max || rl.cur > UE_FD_BEYOND_MAX ||
	    rl.cur == 0)
		goto fail;
	up.cur = rl.cur + 1;
	up.max = rl.max;
	if (nofile(&up, NULL) < 0)
		goto fail;
	/* The one number allowed now; EMFILE when something is there. */
	high = ue__sys_fcntl(fd, F_DUPFD_CLOEXEC, (int)rl.cur);
	if (nofile(&rl, &seen) < 0) {
		/* Not expected (lowering never needs a privilege); the
		 * limit stays one higher, so the number is reachable. */
		if (high >= 0)
			ue__sys_close(high);
		goto fail;
	}
	if (seen.cur != up.cur || seen.max != up.max) {
		/* Another thread set the limit meanwhile: its value stands,
		 * and the number may be below it. */
		nofile(&seen, NULL);
		if (high >= 0)
			ue__sys_close(high);
		goto fail;
	}
	if (high < 0)
		goto fail;
	errno = saved;
	return high;
fail:
	errno = saved;
	return -1;
}
