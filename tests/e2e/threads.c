/* SPDX-License-Identifier: MIT */
/*
 * `threads T M`: T threads log M messages each at once, to show that
 * concurrent events arrive whole: every message once, intact, in each
 * thread's order.  Expectations as expect.h says.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <syslog.h>

#include "expect.h"

static unsigned per_thread;
static pthread_barrier_t start;

/* Long enough that events of different threads overlap in the kernel. */
#define FILLER "the quick brown fox jumps over the lazy dog 0123456789"

static void *worker(void *arg)
{
	unsigned t = (unsigned)(size_t)arg;

	pthread_barrier_wait(&start);
	for (unsigned i = 0; i < per_thread; i++) {
		e2e_expect("e2e-threads", LOG_INFO, LOG_LOCAL5, 0, NULL, 0,
			   "thread %u message %u %s", t, i, FILLER);
		errno = 0;
		syslog(LOG_INFO, "thread %u message %u %s", t, i, FILLER);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned n;

	if (argc != 3 || (n = (unsigned)atoi(argv[1])) == 0 || n > 64 ||
	    (per_thread = (unsigned)atoi(argv[2])) == 0)
		errx(2, "usage: threads THREADS MESSAGES");
	pthread_t tid[64];
	openlog("e2e-threads", 0, LOG_LOCAL5);
	if (pthread_barrier_init(&start, NULL, n) != 0)
		errx(1, "pthread_barrier_init");
	for (unsigned t = 0; t < n; t++)
		if (pthread_create(&tid[t], NULL, worker, (void *)(size_t)t) != 0)
			errx(1, "pthread_create");
	for (unsigned t = 0; t < n; t++)
		pthread_join(tid[t], NULL);
	return 0;
}
