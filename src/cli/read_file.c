/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static int fail(int fd, char *buf, int err)
{
	close(fd);
	free(buf);
	return -err;
}

int cli_read_file(const char *path, int open_flags, size_t max,
		  char **text, size_t *len, struct stat *st)
{
	size_t cap = 4096, got = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | open_flags);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0)
		return fail(fd, buf, errno);
	if (!S_ISREG(st->st_mode))
		return fail(fd, buf, S_ISDIR(st->st_mode) ? EISDIR : EINVAL);
	for (;;) {
		ssize_t n;

		if (!buf || got == cap) {
			char *bigger;

			if (buf && cap > max)
				return fail(fd, buf, EFBIG);
			if (buf)
				cap *= 2;
			bigger = realloc(buf, cap + 1);
			if (!bigger)
				return fail(fd, buf, ENOMEM);
			buf = bigger;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(fd, buf, errno);
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got > max) {
		free(buf);
		return -EFBIG;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return 0;
}
