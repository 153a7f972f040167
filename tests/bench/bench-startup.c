/* bench-startup: the cost of starting a program, with or without a
 * preloaded library.
 *
 *   bench-startup COUNT PRELOAD PROGRAM [ARG...]
 *
 * Starts PROGRAM COUNT times one after the other (posix_spawn, then
 * wait4) with LD_PRELOAD=PRELOAD added to this process's environment, or
 * with LD_PRELOAD removed when PRELOAD is "-".  Prints "<ns per run>".
 * This process itself is never preloaded: only the children see the
 * variable.  (No resident set figure: a posix_spawn child shares this
 * process's memory until exec, and the kernel keeps that peak in the
 * child's ru_maxrss.) */
#include <err.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	char **env, *preload = NULL;
	unsigned long count;
	size_t n = 0, k;
	char *end;

	if (argc < 4) {
		fprintf(stderr, "usage: bench-startup COUNT PRELOAD|- PROGRAM [ARG...]\n");
		return 2;
	}
	errno = 0;
	count = strtoul(argv[1], &end, 10);
	if (errno != 0 || *end != '\0' || count == 0)
		errx(2, "bad count: %s", argv[1]);
	if (strcmp(argv[2], "-") != 0) {
		size_t len = sizeof("LD_PRELOAD=") + strlen(argv[2]);

		preload = malloc(len);
		if (preload == NULL)
			err(1, "malloc");
		snprintf(preload, len, "LD_PRELOAD=%s", argv[2]);
	}

	while (environ[n] != NULL)
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (env == NULL)
		err(1, "calloc");
	for (n = 0, k = 0; environ[k] != NULL; k++)
		if (strncmp(environ[k], "LD_PRELOAD=", 11) != 0)
			env[n++] = environ[k];
	if (preload != NULL)
		env[n++] = preload;
	env[n] = NULL;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long i = 0; i < count; i++) {
		pid_t pid;
		int status, e;

		e = posix_spawn(&pid, argv[3], NULL, NULL, argv + 3, env);
		if (e != 0) {
			errno = e;
			err(1, "posix_spawn %s", argv[3]);
		}
		if (waitpid(pid, &status, 0) < 0)
			err(1, "wait4");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			errx(1, "%s failed (status %#x)", argv[3], status);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 +
		    (double)(t1.tv_nsec - t0.tv_nsec);
	printf("%.0f\n", ns / (double)count);
	return fflush(stdout) == 0 ? 0 : 1;
}
