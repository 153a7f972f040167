/* SPDX-License-Identifier: MIT */
/*
 * Logs COUNT syslog messages with a known ident, facility and severity,
 * for the ehsyslog tool's kernel tests to read back under the preload:
 *
 *   kernel_logger IDENT FACILITY SEVERITY COUNT MESSAGE [LINGER]
 *
 * FACILITY 0..127 (LOG_FAC, up to LOG_FACMASK), SEVERITY 0..7.  With COUNT 1 the message is
 * MESSAGE exactly; with more, "MESSAGE 1" ... "MESSAGE COUNT", so a
 * reader can tell which ones it lost.  errno is ENOENT at each call, so
 * the events' errno field has a known value.  LINGER: seconds to stay
 * before exiting, so that a reader finds the process in /proc.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#include <unistd.h>

static long number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > max) {
		fprintf(stderr, "kernel_logger: bad number '%s' (0..%ld)\n", s, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long facility, severity, count;

	if (argc != 6 && argc != 7) {
		fputs("usage: kernel_logger IDENT FACILITY SEVERITY COUNT MESSAGE [LINGER]\n", stderr);
		return 2;
	}
	facility = number(argv[2], 127);
	severity = number(argv[3], 7);
	count = number(argv[4], 1000000);
	openlog(argv[1], 0, (int)facility << 3);
	for (long i = 1; i <= count; i++) {
		errno = ENOENT;
		if (count == 1)
			syslog((int)severity, "%s", argv[5]);
		else
			syslog((int)severity, "%s %ld", argv[5], i);
	}
	closelog();
	if (argc == 7)
		sleep((unsigned)number(argv[6], 3600));
	return 0;
}
