/* SPDX-License-Identifier: MIT */
/*
 * A program for profilers to unwind through syslog() (tests/e2e/unwind.sh).
 * `unwind SECONDS`: for about SECONDS seconds, log_loop() calls
 * syslog(LOG_DEBUG) in a loop and syslog(LOG_INFO) every 16384th call.
 * The test traces LOG_INFO's tracepoint only: the debug calls take the
 * x86-64 stub's untraced path (return, or on to glibc), where a cpu-clock
 * sample lands inside the stub; the info calls each write an event, few
 * enough for perf to keep up in the emulated test guest.
 * setlogmask keeps glibc's own syslog cheap for the debug calls in
 * pass-through, so that the stub keeps a fair share of the samples.
 *
 * Built with -O2 and without frame pointers, the way distributions build
 * programs: only CFI (.eh_frame) can unwind it.
 */
#include <stdlib.h>
#include <syslog.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The caller the call chains must show, between syslog and main. */
__attribute__((noinline)) static unsigned long log_loop(double seconds)
{
	double end = now() + seconds;
	unsigned long i;

	for (i = 1;; i++) {
		syslog(LOG_DEBUG, "debug %lu", i);
		if (i % 16384 == 0) {
			syslog(LOG_INFO, "info %lu", i);
			if (now() >= end)
				break;
		}
	}
	return i;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1;

	setlogmask(LOG_UPTO(LOG_INFO));
	/* Used, so that the call to log_loop is not a tail call either. */
	return log_loop(seconds) == 0;
}
