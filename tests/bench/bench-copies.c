/* bench-copies: what the uprobe readers' search for copies of the
 * library costs (src/cli/uprobe/copies.c), with N processes running.
 *
 *   bench-copies N SCANS
 *
 * Forks N children that wait (each maps what this program maps: its
 * own file, libc, the loader), then times SCANS scans of /proc after a
 * first one that sees every file: the steady state of a reader, which
 * scans once a second and finds nothing new.  Prints
 *   PROCESSES SCANS CPU_US_PER_SCAN FILES_SEEN
 * CPU time is this process's user and system time (getrusage): the
 * reader's cost per second, since it scans once a second.
 */
#include "config.h"

#include <err.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/uprobe/copies.h"

static void ignore(const char *path, pid_t pid, void *ctx)
{
	(void)path, (void)pid;
	++*(size_t *)ctx;
}

static double cpu_us(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		err(1, "getrusage");
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + ru.ru_utime.tv_usec +
	       ru.ru_stime.tv_usec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, scans = argc > 2 ? atoi(argv[2]) : 20;
	struct copies *c = copies_new();
	pid_t *kids = calloc((size_t)(n > 0 ? n : 1), sizeof *kids);
	int pipefd[2], seen_procs = 0;
	size_t found = 0;
	double t0;
	char b;

	if (n < 0 || scans < 1 || c == NULL || kids == NULL || pipe(pipefd) < 0)
		errx(2, "usage: bench-copies N SCANS");
	for (int i = 0; i < n; i++) {
		kids[i] = fork();
		if (kids[i] < 0)
			err(1, "fork");
		if (kids[i] == 0) {
			close(pipefd[1]);
			/* Until the parent's end closes. */
			while (read(pipefd[0], &b, 1) > 0)
				;
			_exit(0);
		}
	}
	close(pipefd[0]);
	copies_scan(c, "/proc", ignore, &found);	/* every file, once */
	t0 = cpu_us();
	for (int i = 0; i < scans; i++)
		seen_procs = copies_scan(c, "/proc", ignore, &found);
	printf("%d %d %.0f %zu\n", seen_procs, scans, (cpu_us() - t0) / scans, copies_seen(c));
	close(pipefd[1]);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	copies_free(c);
	free(kids);
	return 0;
}
