/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/reader_alive.h"
#include "cli/process_alive.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The initial PID namespace's inode: a constant of the kernel's
 * (PROC_PID_INIT_INO). */
#define INITIAL_PID_NS UINTMAX_C(0xEFFFFFFC)

int reader_self(struct reader_id *id)
{
	struct stat st;
	char state;
	int rc;

	*id = (struct reader_id){ .pid = (long)getpid(), .has_start = true };
	rc = process_stat("self", &state, &id->start);
	if (rc < 0)
		return rc;
	/* A kernel without PID namespaces has the initial one alone. */
	if (stat("/proc/self/ns/pid", &st) == 0)
		id->pidns = (uintmax_t)st.st_ino;
	else if (errno == ENOENT)
		id->pidns = INITIAL_PID_NS;
	else
		return -errno;
	return 0;
}

int reader_format(const struct reader_id *id, char *buf, size_t len)
{
	if ((size_t)snprintf(buf, len, "%ld-%ju-%ju", id->pid, id->start, id->pidns) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* The decimal number at *s, moving *s past it; false if there is none,
 * it has a leading zero or it exceeds max. */
static bool take_number(const char **s, uintmax_t max, uintmax_t *out)
{
	size_t n = strspn(*s, "0123456789");
	char digits[24], *end;

	if (n == 0 || n >= sizeof digits || (**s == '0' && n > 1))
		return false;
	memcpy(digits, *s, n);
	digits[n] = '\0';
	errno = 0;
	*out = strtoumax(digits, &end, 10);
	if (errno != 0 || *out > max)
		return false;
	*s += n;
	return true;
}

bool reader_parse(const char *s, struct reader_id *id, bool pid_only)
{
	uintmax_t pid;

	*id = (struct reader_id){ 0 };
	if (!take_number(&s, INT_MAX, &pid) || pid == 0)
		return false;
	id->pid = (long)pid;
	if (*s == '\0')
		return pid_only;
	if (*s++ != '-' || !take_number(&s, UINTMAX_MAX, &id->start))
		return false;
	id->has_start = true;
	if (*s == '\0')
		return true;
	return *s++ == '-' && take_number(&s, UINTMAX_MAX, &id->pidns) && id->pidns != 0 &&
	       *s == '\0';
}

int reader_hold(int fd)
{
	/* A judge holds a shared lock for a moment only. */
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Whether /proc shows this process under its own pid: then it shows
 * the pids of this namespace (not so with the /proc of a parent's). */
static bool proc_is_own(void)
{
	char link[32], want[32];
	ssize_t n = readlink("/proc/self", link, sizeof link - 1);

	if (n <= 0)
		return false;
	link[n] = '\0';
	snprintf(want, sizeof want, "%ld", (long)getpid());
	return strcmp(link, want) == 0;
}

int reader_locked(int dirfd, const char *path, struct stat *st)
{
	struct stat own;
	int fd, locked = -1;

	if (st == NULL)
		st = &own;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) == 0) {
		/* Shared: judges never stop each other. */
		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			locked = 0;
		else if (errno == EWOULDBLOCK)
			locked = 1;
	}
	close(fd);
	return locked;
}

bool reader_gone(const struct reader_id *id, int dirfd, const char *path)
{
	struct reader_id self;
	struct timespec now;
	struct stat st;
	int locked;

	if (reader_self(&self) < 0)
		return false;
	locked = reader_locked(dirfd, path, &st);
	if (locked == 1)
		return false;
	if (id->pidns == 0)
		return self.pidns == INITIAL_PID_NS && proc_is_own() &&
		       process_gone(id->pid, id->has_start ? &id->start : NULL);
	if (id->pidns == self.pidns && proc_is_own())
		return process_gone(id->pid, &id->start);
	if (locked != 0 || clock_gettime(CLOCK_REALTIME, &now) < 0)
		return false;
	return now.tv_sec - st.st_ctim.tv_sec >= READER_GRACE;
}
