/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "expect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* One write per line with O_APPEND: processes and threads that share
 * the file never interleave inside a line. */
void e2e_expect(const char *ident, int severity, int fac, int err_at_call,
		const char *file, unsigned line, const char *fmt, ...)
{
	int saved = errno;	/* the logging call after this may print it */
	const char *path = getenv("E2E_EXPECT");
	char *msg, *out;
	size_t n;
	va_list ap;
	FILE *fp;

	if (path == NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	fp = open_memstream(&out, &n);
	if (fp == NULL)
		abort();
	fprintf(fp, "%s\t%d\t%d\t%d\t%s\t%u\t%ld\t%ld\t", ident, severity, fac >> 3,
		err_at_call, file ? file : "-", line, (long)getpid(), (long)gettid());
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		fprintf(fp, "%02x", *p);
	fputc('\n', fp);
	if (fclose(fp) != 0)
		abort();
	free(msg);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, out, n) != (ssize_t)n || close(fd) != 0)
		abort();
	free(out);
	errno = saved;
}
