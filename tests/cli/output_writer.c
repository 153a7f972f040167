/* SPDX-License-Identifier: MIT */
/*
 * Writes lines to standard output and error with write(2), as a service
 * does, for the output stream tests to read back under the preload:
 *
 *   output_writer LINES
 *
 * Two threads write LINES lines each to standard output ("thread A 1 of
 * N"), a line a write() call (as print and printf write them), while a
 * timer's signal handler writes "signal K" to standard error, as often as
 * the timer fires, over whatever the library was doing; at the end the
 * main thread writes "<5>signals: K" on standard error, so that a reader
 * knows how many to expect.  Exit 0, or 1 when a write fails.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static long lines;
static volatile sig_atomic_t signals, failed;

/* The decimal digits of v at the end of buf[0..len); where they start. */
static char *decimal(char *buf, size_t len, unsigned long v)
{
	char *p = buf + len;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) && p > buf);
	return p;
}

static void put(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t r = write(fd, s, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			failed = 1;
			return;
		}
		s += r;
		len -= (size_t)r;
	}
}

static void on_timer(int sig)
{
	(void)sig;
	int saved = errno;
	char line[32] = "signal ";
	char num[16];
	char *d = decimal(num, sizeof num, (unsigned long)signals + 1);
	size_t n = sizeof num - (size_t)(d - num);
	memcpy(line + 7, d, n);
	line[7 + n] = '\n';
	put(2, line, 8 + n);
	signals++;
	errno = saved;
}

static void *writer(void *name)
{
	char line[64];
	for (long i = 1; i <= lines; i++) {
		int n = snprintf(line, sizeof line, "thread %s %ld of %ld\n", (const char *)name, i,
				 lines);
		put(1, line, (size_t)n);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (lines = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: output_writer LINES\n");
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_timer;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	/* The threads block it: the main thread, waiting in join, takes it. */
	sigset_t alarm;
	sigemptyset(&alarm);
	sigaddset(&alarm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alarm, NULL);
	pthread_t a, b;
	if (pthread_create(&a, NULL, writer, "A") || pthread_create(&b, NULL, writer, "B"))
		return 1;
	pthread_sigmask(SIG_UNBLOCK, &alarm, NULL);
	struct itimerval every = { { 0, 2000 }, { 0, 2000 } };
	setitimer(ITIMER_REAL, &every, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	char end[48];
	int n = snprintf(end, sizeof end, "<5>signals: %ld\n", (long)signals);
	put(2, end, (size_t)n);
	return failed;
}
