/* SPDX-License-Identifier: MIT */
/*
 * Logs COUNT syslog messages with a known ident, facility and severity,
 * for the ehsyslog tool's kernel tests to read back under the preload:
 *
 *   kernel_logger [-r RATE] [-m] IDENT FACILITY SEVERITY COUNT MESSAGE [LINGER [THREADS]]
 *
 * FACILITY 0..127 (LOG_FAC, up to LOG_FACMASK), SEVERITY 0..7.  With COUNT 1 the message is
 * MESSAGE exactly; with more, "MESSAGE 1" ... "MESSAGE COUNT", so a
 * reader can tell which ones it lost.  errno is ENOENT at each call, so
 * the events' errno field has a known value.  LINGER: seconds to stay
 * before exiting, so that a reader finds the process in /proc; or @PATH:
 * once every call is made, create PATH and stay until SIGTERM (then exit
 * 0), so that a test holds the process for as long as it needs, however
 * slow the reader, and knows when the calls are made (exit 3 if no
 * SIGTERM comes in 10 minutes: a test that died never released it).  RATE:
 * the main thread's messages a second at most, evenly spaced (a load
 * that lasts, not a burst); by default as fast as it can.  -m: the main
 * thread moves to the next CPU it may run on before each message, so
 * that its records land in every CPU's trace buffer in turn.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <sys/syscall.h>
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

static long severity, count;
static long rate;	/* messages a second; 0: no limit */
static pthread_t main_thread;
static long long start_ns;	/* of the main thread's logging, CLOCK_MONOTONIC */
static sem_t logged;	/* a thread has logged: the next may start */
static cpu_set_t cpus;	/* -m: the CPUs to move between; empty: stay */

/* -m: onto the CPU after the one it is on, among cpus. */
static void move_on(void)
{
	static int at = -1;
	cpu_set_t one;

	if (CPU_COUNT(&cpus) < 2)
		return;
	do
		at = (at + 1) % CPU_SETSIZE;
	while (!CPU_ISSET(at, &cpus));
	CPU_ZERO(&one);
	CPU_SET(at, &one);
	if (sched_setaffinity(0, sizeof one, &one) != 0) {
		perror("kernel_logger: sched_setaffinity");
		exit(1);
	}
}

/* Waits until the i-th message (from 1) is due at rate: due times from
 * the start, not from the last message, so that waking late does not
 * add up. */
static void pace(long i)
{
	long long ns = start_ns + (long long)(i - 1) * 1000000000LL / rate;
	struct timespec due = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };
	int rc;

	while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL)) == EINTR)
		;
	if (rc != 0) {
		fprintf(stderr, "kernel_logger: clock_nanosleep: %s\n", strerror(rc));
		exit(1);
	}
}

static void log_all(const char *msg)
{
	for (long i = 1; i <= count; i++) {
		if (rate > 0)
			pace(i);
		if (pthread_equal(pthread_self(), main_thread))
			move_on();
		errno = ENOENT;
		if (count == 1)
			syslog((int)severity, "%s", msg);
		else
			syslog((int)severity, "%s %ld", msg, i);
	}
}

struct worker {
	pthread_t thread;
	long k;
	char msg[256];
};

/* The threads' own, in use until the process exits: a global, so that
 * LeakSanitizer finds it reachable then. */
static struct worker *workers;

static void *work(void *arg)
{
	struct worker *w = arg;
	char name[16];

	snprintf(name, sizeof name, "worker-%ld", w->k);
	pthread_setname_np(pthread_self(), name);
	log_all(w->msg);
	printf("t%ld %ld\n", w->k, (long)syscall(SYS_gettid));
	fflush(stdout);
	sem_post(&logged);
	for (;;)
		pause();	/* until the process exits */
	return NULL;
}

/* LINGER's @PATH: PATH made, then SIGTERM awaited (blocked in every
 * thread since the start). */
static int hold(const char *path, const sigset_t *term)
{
	const struct timespec bound = { 600, 0 };
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0 || close(fd) != 0) {
		fprintf(stderr, "kernel_logger: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (sigtimedwait(term, NULL, &bound) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "kernel_logger: held %s: no SIGTERM came\n", path);
			return 3;
		}
	return 0;
}

int main(int argc, char **argv)
{
	long facility, threads = 0;
	struct timespec now;

	main_thread = pthread_self();
	if (argc >= 3 && strcmp(argv[1], "-r") == 0) {
		rate = number(argv[2], 10000000);
		argc -= 2;
		argv += 2;
	}
	if (argc >= 2 && strcmp(argv[1], "-m") == 0) {
		if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) {
			perror("kernel_logger: sched_getaffinity");
			return 1;
		}
		argc--;
		argv++;
	}
	if (argc < 6 || argc > 8) {
		fputs("usage: kernel_logger [-r RATE] [-m] IDENT FACILITY SEVERITY COUNT MESSAGE "
		      "[LINGER [THREADS]]\n", stderr);
		return 2;
	}
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (argc >= 7 && argv[6][0] == '@' && (errno = pthread_sigmask(SIG_BLOCK, &term, NULL)) != 0) {
		perror("kernel_logger: pthread_sigmask");
		return 1;
	}
	facility = number(argv[2], 127);
	severity = number(argv[3], 7);
	count = number(argv[4], 1000000);
	if (argc == 8)
		threads = number(argv[7], 64);
	openlog(argv[1], 0, (int)facility << 3);
	if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) {
		perror("kernel_logger: clock_gettime");
		return 1;
	}
	start_ns = now.tv_sec * 1000000000LL + now.tv_nsec;
	log_all(argv[5]);
	workers = calloc((size_t)threads + 1, sizeof *workers);
	if (workers == NULL || sem_init(&logged, 0, 0) != 0) {
		perror("kernel_logger");
		return 1;
	}
	for (long k = 1; k <= threads; k++) {
		workers[k].k = k;
		snprintf(workers[k].msg, sizeof workers[k].msg, "%s t%ld", argv[5], k);
		errno = pthread_create(&workers[k].thread, NULL, work, &workers[k]);
		if (errno != 0) {
			perror("kernel_logger: pthread_create");
			return 1;
		}
		while (sem_wait(&logged) != 0)
			if (errno != EINTR) {
				perror("kernel_logger: sem_wait");
				return 1;
			}
	}
	if (argc >= 7 && argv[6][0] == '@') {
		int rc = hold(argv[6] + 1, &term);
		if (rc != 0)
			return rc;
	} else if (argc >= 7) {
		sleep((unsigned)number(argv[6], 3600));
	}
	closelog();
	return 0;
}
