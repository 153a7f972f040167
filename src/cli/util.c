/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void vreport(const char *cmd, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (cmd)
		fprintf(stderr, "ehsyslog %s: ", cmd);
	else
		fputs("ehsyslog: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
}

void cli_usage_hint(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try 'ehsyslog %s --help'.\n", cmd);
	else
		fputs("Try 'ehsyslog --help'.\n", stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	cli_usage_hint(cmd);
	return CLI_EXIT_USAGE;
}

int cli_exit_for_errno(int err)
{
	return err == EACCES || err == EPERM ? CLI_EXIT_PERMISSION : CLI_EXIT_RUNTIME;
}

int cli_print_help(const char *text)
{
	fputs(text, stdout);
	return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
}

int cli_write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

bool cli_parse_ulong(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	*v = strtoul(s, &end, 10);
	return errno == 0 && *end == '\0' && *v <= max;
}

int64_t cli_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

uint64_t cli_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
