/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/export/queue/spool_file.h"

int spool_dir_open(const char *path)
{
	bool made = mkdir(path, 0700) == 0;
	struct stat st;
	int fd;

	if (!made && errno != EEXIST) {
		fprintf(stderr, "ehsyslog export: cannot make the queue's directory %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	/* O_NOFOLLOW: a link could lead anywhere, whoever owns its target. */
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR) && lstat(path, &st) == 0 &&
	    S_ISLNK(st.st_mode)) {
		fprintf(stderr, "ehsyslog export: the queue's directory %s is a symbolic link: refused\n",
			path);
		return -1;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "ehsyslog export: cannot open the queue's directory %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* Whoever can write the directory can put in it what export
	 * sends, acknowledges or writes through. */
	if (st.st_uid != geteuid()) {
		fprintf(stderr, "ehsyslog export: the queue's directory %s is owned by uid %u, not by "
			"uid %u that export runs as: refused\n", path, (unsigned)st.st_uid,
			(unsigned)geteuid());
		close(fd);
		return -1;
	}
	/* The umask may have taken export's own rights from it. */
	if (made && (st.st_mode & 07777) != 0700 && fchmod(fd, 0700) == 0)
		st.st_mode = (st.st_mode & ~07777u) | 0700;
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		fprintf(stderr, "ehsyslog export: the queue's directory %s can be written by its group "
			"or others (mode %04o): refused\n", path, (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	return fd;
}

static bool own_regular(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_uid == geteuid();
}

int spool_file_open(int dir, const char *name, int flags)
{
	struct stat st;
	int fd = openat(dir, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);

	if (fd < 0)
		return errno == ELOOP ? SPOOL_FILE_FOREIGN : -1;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	if (!own_regular(&st)) {
		close(fd);
		return SPOOL_FILE_FOREIGN;
	}
	return fd;
}

int spool_file_own(int dir, const char *name, off_t *size)
{
	struct stat st;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	*size = st.st_size;
	return own_regular(&st);
}

int spool_set_aside(int dir, const char *name, char *aside, size_t len)
{
	for (unsigned n = 1; n < 100; n++) {
		int w = n == 1 ? snprintf(aside, len, "%s.aside", name)
			       : snprintf(aside, len, "%s.aside.%u", name, n);

		if (w < 0 || (size_t)w >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		/* Never over another file set aside before. */
		if (renameat2(dir, name, dir, aside, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}
