/* SPDX-License-Identifier: MIT */
/*
 * Logs from several threads at once, as fast as they can, for the
 * lost-event checks of tail and decode (kernel_lost.sh) to overflow a
 * trace buffer with, under the preload:
 *
 *   kernel_flood THREADS COUNT
 *
 * Each of THREADS threads logs COUNT messages "flood T I" (ident flood,
 * user.info), T and I from 1; they start together.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

static pthread_barrier_t start;
static long count;

/* argv[i] as a number 1..max, else exits 2. */
static long number(char **argv, int i, long max)
{
	long v;
	char extra;

	if (sscanf(argv[i], "%ld%c", &v, &extra) != 1 || v < 1 || v > max) {
		fprintf(stderr, "kernel_flood: bad number '%s' (1..%ld)\n", argv[i], max);
		exit(2);
	}
	return v;
}

static void *flood(void *arg)
{
	long t = (long)arg;

	pthread_barrier_wait(&start);
	for (long i = 1; i <= count; i++)
		syslog(LOG_INFO, "flood %ld %ld", t, i);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t threads[64];
	long n;

	if (argc != 3) {
		fputs("usage: kernel_flood THREADS COUNT\n", stderr);
		return 2;
	}
	n = number(argv, 1, 64);
	count = number(argv, 2, 10000000);
	openlog("flood", 0, LOG_USER);
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (long t = 0; t < n; t++) {
		int e = pthread_create(&threads[t], NULL, flood, (void *)(t + 1));

		if (e != 0) {
			fprintf(stderr, "kernel_flood: pthread_create: %s\n", strerror(e));
			return 1;
		}
	}
	for (long t = 0; t < n; t++)
		pthread_join(threads[t], NULL);
	closelog();
	return 0;
}
