/* SPDX-License-Identifier: MIT */
/*
 * Calls every function libehsyslog intercepts, the way a program does.
 * `calls MODE`: MODE "calls" makes every call that returns; the others
 * (err errx verr verrx errc verrc error error_at_line) make one call that
 * exits, so each runs in its own process.  `calls simple` makes one call.
 *
 * With E2E_EXPECT=FILE set, the event each call should produce goes to
 * FILE first (expect.h).  Without it the program only logs, for the
 * pass-through test.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <error.h>
#include <gnu/libc-version.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "expect.h"

/* libbsd's; declared here so the plain <err.h> is enough. */
void errc(int eval, int code, const char *fmt, ...) __attribute__((noreturn));
void verrc(int eval, int code, const char *fmt, va_list ap) __attribute__((noreturn));
void warnc(int code, const char *fmt, ...);
void vwarnc(int code, const char *fmt, va_list ap);

static const char *ident;	/* what the events should be named */
static int facility = LOG_USER;

/* The event the next call should produce, with the current ident. */
#define expect(...) e2e_expect(ident, __VA_ARGS__)

static void call_vsyslog(int pri, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsyslog(pri, fmt, ap);
	va_end(ap);
}

static void call_vwarn(int x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (x)
		vwarnx(fmt, ap);
	else
		vwarn(fmt, ap);
	va_end(ap);
}

static void call_vwarnc(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnc(code, fmt, ap);
	va_end(ap);
}

static _Noreturn void call_verr(int x, int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (x)
		verrx(eval, fmt, ap);
	verr(eval, fmt, ap);
}

static _Noreturn void call_verrc(int eval, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrc(eval, code, fmt, ap);
}

/* 10000 bytes of mixed 1-, 2-, 3- and 4-byte UTF-8: every split point
 * of the library falls somewhere inside a character once. */
static char *long_message(void)
{
	static const char unit[] = "ab\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80.";	/* abé€😀. */
	size_t n = 10000, at = 0;
	char *s = malloc(n + 1);

	if (s == NULL)
		abort();
	while (at + sizeof unit - 1 <= n) {
		memcpy(s + at, unit, sizeof unit - 1);
		at += sizeof unit - 1;
	}
	memset(s + at, 'z', n - at);
	s[n] = '\0';
	return s;
}

static void returning_calls(void)
{
	/* syslog and vsyslog, default ident (the program's name) and facility. */
	errno = 0;
	expect(LOG_INFO, LOG_USER, 0, NULL, 0, "syslog %d %s", 1, "plain");
	syslog(LOG_INFO, "syslog %d %s", 1, "plain");
	errno = EAGAIN;
	expect(LOG_NOTICE, LOG_DAEMON, EAGAIN, NULL, 0, "vsyslog %s", "two");
	call_vsyslog(LOG_NOTICE | LOG_DAEMON, "vsyslog %s", "two");

	/* %m: the caller's errno, in the text and in the errno field. */
	errno = ENOENT;
	expect(LOG_ERR, LOG_USER, ENOENT, NULL, 0, "percent m: %s.", strerror(ENOENT));
	syslog(LOG_ERR, "percent m: %m.");

	/* Every severity, each with its level. */
	for (int sev = LOG_EMERG; sev <= LOG_DEBUG; sev++) {
		errno = 0;
		expect(sev, LOG_LOCAL0, 0, NULL, 0, "severity %d", sev);
		syslog(sev | LOG_LOCAL0, "severity %d", sev);
	}

	/* openlog: ident and facility; LOG_PID and LOG_PERROR change only
	 * what the real syslog does (stderr gets the line). */
	openlog("e2e-ident", LOG_PID | LOG_PERROR, LOG_LOCAL3);
	ident = "e2e-ident";
	facility = LOG_LOCAL3;
	errno = 0;
	expect(LOG_WARNING, facility, 0, NULL, 0, "after openlog");
	syslog(LOG_WARNING, "after openlog");
	expect(LOG_CRIT, LOG_LOCAL7, 0, NULL, 0, "explicit facility");
	syslog(LOG_CRIT | LOG_LOCAL7, "explicit facility");
	/* Facility 0 (LOG_KERN): glibc 2.34 and later take it, older ones
	 * keep LOCAL3 (tests/e2e/facility.sh checks against the datagrams). */
	openlog("e2e-ident", LOG_PID, 0);
	if (strverscmp(gnu_get_libc_version(), "2.34") >= 0)
		facility = LOG_KERN;

	/* A priority with unknown bits: glibc's own complaint (ERR, AUTH),
	 * then the masked priority. */
	errno = EINVAL;
	expect(LOG_ERR, LOG_AUTH, EINVAL, NULL, 0, "syslog: unknown facility/priority: %x",
	       0x400 | LOG_INFO);
	expect(LOG_INFO, facility, EINVAL, NULL, 0, "odd priority");
	syslog(0x400 | LOG_INFO, "odd priority");

	/* setlogmask filters syslog, not err/warn. */
	errno = 0;
	int old = setlogmask(LOG_UPTO(LOG_WARNING));
	if (old != 0xff)
		errx(99, "setlogmask returned %#x, expected 0xff", old);
	syslog(LOG_INFO, "masked info");
	expect(LOG_ERR, facility, 0, NULL, 0, "unmasked err");
	syslog(LOG_ERR, "unmasked err");
	setlogmask(LOG_MASK(LOG_DEBUG));
	syslog(LOG_EMERG, "masked emerg");
	expect(LOG_DEBUG, facility, 0, NULL, 0, "only debug");
	syslog(LOG_DEBUG, "only debug");
	if (setlogmask(0) != LOG_MASK(LOG_DEBUG))	/* 0: a query */
		errx(99, "setlogmask(0) changed the mask");
	errno = 0;
	expect(LOG_WARNING, facility, 0, NULL, 0, "warnx under the mask");
	warnx("warnx under the mask");
	setlogmask(0xff);

	/* closelog forgets the ident, keeps the facility (glibc). */
	closelog();
	ident = program_invocation_short_name;
	expect(LOG_INFO, facility, 0, NULL, 0, "after closelog");
	syslog(LOG_INFO, "after closelog");

	/* warn family. */
	errno = EACCES;
	expect(LOG_WARNING, facility, EACCES, NULL, 0, "warn %d: %s", 8, strerror(EACCES));
	warn("warn %d", 8);
	errno = EACCES;
	expect(LOG_WARNING, facility, EACCES, NULL, 0, "warnx %d", 9);
	warnx("warnx %d", 9);
	errno = ENOSPC;
	expect(LOG_WARNING, facility, ENOSPC, NULL, 0, "vwarn %s: %s", "ten", strerror(ENOSPC));
	call_vwarn(0, "vwarn %s", "ten");
	errno = ENOSPC;
	expect(LOG_WARNING, facility, ENOSPC, NULL, 0, "vwarnx %s", "eleven");
	call_vwarn(1, "vwarnx %s", "eleven");
	errno = EROFS;
	expect(LOG_WARNING, facility, EROFS, NULL, 0, "%s", strerror(EROFS));
	warn(NULL);
	errno = EINTR;
	expect(LOG_WARNING, facility, EINTR, NULL, 0, "warnc %d: %s", 12, strerror(EEXIST));
	warnc(EEXIST, "warnc %d", 12);
	errno = 0;
	expect(LOG_WARNING, facility, 0, NULL, 0, "vwarnc %d: %s", 13, strerror(EBUSY));
	call_vwarnc(EBUSY, "vwarnc %d", 13);

	/* error and error_at_line with status 0 return. */
	errno = EINTR;
	expect(LOG_WARNING, facility, EINTR, NULL, 0, "error %s: %s", "zero", strerror(EPERM));
	error(0, EPERM, "error %s", "zero");
	errno = 0;
	expect(LOG_WARNING, facility, 0, NULL, 0, "error without errnum");
	error(0, 0, "error without errnum");
	errno = EBADF;
	expect(LOG_WARNING, facility, EBADF, "dir/file.c", 42, "at line %d: %s", 42,
	       strerror(ENOENT));
	error_at_line(0, ENOENT, "dir/file.c", 42, "at line %d", 42);

	/* A message longer than one event: split, reassembled by tail. */
	char *big = long_message();
	errno = 0;
	expect(LOG_INFO, facility, 0, NULL, 0, "%s", big);
	syslog(LOG_INFO, "%s", big);
	free(big);

	/* Invalid UTF-8 and control characters go through as bytes; one
	 * trailing newline is not part of the message. */
	static const char odd[] = "bad \xff\xfe\xc3 utf8, \x01\x1b[31m esc\x7f, tab\t, nl\n, \"q\" \\ end";
	expect(LOG_INFO, facility, 0, NULL, 0, "%s", odd);
	syslog(LOG_INFO, "%s\n", odd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "calls";

	ident = program_invocation_short_name;

	if (strcmp(mode, "calls") == 0) {
		returning_calls();
		return 0;
	}
	if (strcmp(mode, "simple") == 0) {
		expect(LOG_NOTICE, LOG_USER, 0, NULL, 0, "simple %s", argc > 2 ? argv[2] : "call");
		errno = 0;
		syslog(LOG_NOTICE, "simple %s", argc > 2 ? argv[2] : "call");
		return 0;
	}
	/* The exiting ones; the event carries the errno at the call. */
	errno = ENOTDIR;
	if (strcmp(mode, "err") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, NULL, 0, "err %s: %s", "fatal", strerror(ENOTDIR));
		err(5, "err %s", "fatal");
	}
	if (strcmp(mode, "errx") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, NULL, 0, "errx %s", "fatal");
		errx(6, "errx %s", "fatal");
	}
	if (strcmp(mode, "verr") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, NULL, 0, "verr %s: %s", "fatal", strerror(ENOTDIR));
		call_verr(0, 7, "verr %s", "fatal");
	}
	if (strcmp(mode, "verrx") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, NULL, 0, "verrx %s", "fatal");
		call_verr(1, 8, "verrx %s", "fatal");
	}
	if (strcmp(mode, "errc") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, NULL, 0, "errc %s: %s", "fatal", strerror(EXDEV));
		errc(9, EXDEV, "errc %s", "fatal");
	}
	if (strcmp(mode, "verrc") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, NULL, 0, "verrc %s: %s", "fatal", strerror(EXDEV));
		call_verrc(10, EXDEV, "verrc %s", "fatal");
	}
	if (strcmp(mode, "error") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, NULL, 0, "error %s: %s", "fatal", strerror(EIO));
		error(11, EIO, "error %s", "fatal");
	}
	if (strcmp(mode, "error_at_line") == 0) {
		expect(LOG_ERR, LOG_USER, ENOTDIR, "x.c", 7, "error_at_line %s", "fatal");
		error_at_line(12, 0, "x.c", 7, "error_at_line %s", "fatal");
	}
	fprintf(stderr, "calls: unknown mode %s\n", mode);
	return 99;
}
