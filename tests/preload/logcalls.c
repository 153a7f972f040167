/* SPDX-License-Identifier: MIT */
/*
 * Makes one kind of logging call, chosen by argv[1], so a script can
 * compare output, exit status and errno with and without the library.
 * Prints "errno=N" on stdout after calls that return, to show errno
 * survived.  Built twice: plain and with -O2 -D_FORTIFY_SOURCE=2.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <syslog.h>
#include <unistd.h>

static void vwarn_helper(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

static void vwarnx_helper(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

static void verr_helper(int eval, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(eval, fmt, ap);
}

static void verrx_helper(int eval, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verrx(eval, fmt, ap);
}

static void vsyslog_helper(int pri, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsyslog(pri, fmt, ap);
	va_end(ap);
}

/* The first calls with descriptors 0-2 only, or one more free: each
 * leaves the errno glibc's own calls leave (EMFILE where it cannot open
 * its socket), the library's opens failing too. */
static void few_descriptors(rlim_t n)
{
	struct rlimit rl = { n, n };
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		exit(9);
	openlog("nofile", LOG_PERROR, LOG_USER);
	errno = 0;
	syslog(LOG_INFO, "first %d", 1);
	printf("errno=%d\n", errno);
	errno = 0;
	syslog(LOG_ERR, "second %d", 2);
	printf("errno=%d\n", errno);
	errno = 0;
	openlog("nofile", LOG_PERROR | LOG_NDELAY, LOG_USER);
	printf("errno=%d\n", errno);
	errno = 0;
	vsyslog_helper(LOG_INFO, "third %d", 3);
	printf("errno=%d\n", errno);
	closelog();
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	const char *what = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("start %s\n", what);	/* error() must flush this first */
	errno = ENOENT;
	if (!strcmp(what, "warn"))
		warn("warn %d", 1);
	else if (!strcmp(what, "warnx"))
		warnx("warnx %s", "two");
	else if (!strcmp(what, "vwarn"))
		vwarn_helper("vwarn %d", 3);
	else if (!strcmp(what, "vwarnx"))
		vwarnx_helper("vwarnx %d", 4);
	else if (!strcmp(what, "warn-null"))
		warn(NULL);
	else if (!strcmp(what, "err"))
		err(3, "err %d", 5);
	else if (!strcmp(what, "errx"))
		errx(4, "errx %d", 6);
	else if (!strcmp(what, "verr"))
		verr_helper(5, "verr %d", 7);
	else if (!strcmp(what, "verrx"))
		verrx_helper(6, "verrx %d", 8);
	else if (!strcmp(what, "error"))
		error(0, EACCES, "error %d %m", 9);
	else if (!strcmp(what, "error-exit"))
		error(7, 0, "error exit %d", 10);
	else if (!strcmp(what, "error_at_line"))
		error_at_line(0, EPERM, "file.c", 42, "at line %d", 11);
	else if (!strcmp(what, "error_at_line-exit"))
		error_at_line(8, 0, "file.c", 43, "at line exit");
	else if (!strcmp(what, "syslog"))
		syslog(LOG_DAEMON | LOG_NOTICE, "syslog %d %m", 12);
	else if (!strcmp(what, "vsyslog"))
		vsyslog_helper(LOG_LOCAL3 | LOG_DEBUG, "vsyslog %s", "thirteen");
	else if (!strcmp(what, "openlog")) {
		openlog("my;ident", LOG_PID | LOG_PERROR, LOG_LOCAL0);
		syslog(LOG_WARNING, "perror %d", 14);
		closelog();
	} else if (!strcmp(what, "mask")) {
		openlog("masked", LOG_PERROR, LOG_USER);
		int old = setlogmask(LOG_UPTO(LOG_ERR));
		syslog(LOG_INFO, "filtered");
		syslog(LOG_ERR, "kept");
		printf("oldmask=%#x\n", old);
	} else if (!strcmp(what, "badpri")) {
		openlog("badpri", LOG_PERROR, 0);
		syslog(0x12345 | LOG_INFO, "bad priority");
	} else if (!strcmp(what, "output-then-daemon")) {
		/* Run with EHSYSLOG_STDIO=stdout: the write makes standard
		 * output a stream the library watches, whose lines register
		 * facility daemon's priorities; a daemon syslog() after it
		 * still reaches glibc in pass-through. */
		if (write(1, "a line first\n", 13) != 13)
			return 3;
		openlog("daemon", LOG_PERROR, LOG_USER);
		syslog(LOG_DAEMON | LOG_INFO, "daemon info after a line");
	} else if (!strcmp(what, "nofile3")) {
		few_descriptors(3);
	} else if (!strcmp(what, "nofile4")) {
		few_descriptors(4);
	} else
		return 2;
	printf("errno=%d\n", errno);
	return 0;
}
