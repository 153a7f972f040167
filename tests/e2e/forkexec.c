/* SPDX-License-Identifier: MIT */
/*
 * `forkexec`: logs, forks (the child logs under its own pid, with the
 * parent's openlog state), then execs itself as `forkexec exec`, whose
 * fresh image logs with default ident and facility.  Expectations as
 * expect.h says.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "expect.h"

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0) {
		e2e_expect(program_invocation_short_name, LOG_NOTICE, LOG_USER, 0, NULL, 0,
			   "after exec");
		errno = 0;
		syslog(LOG_NOTICE, "after exec");
		return 0;
	}
	openlog("e2e-fork", 0, LOG_DAEMON);
	e2e_expect("e2e-fork", LOG_INFO, LOG_DAEMON, 0, NULL, 0, "before fork");
	errno = 0;
	syslog(LOG_INFO, "before fork");
	pid_t pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (pid == 0) {
		e2e_expect("e2e-fork", LOG_INFO, LOG_DAEMON, 0, NULL, 0, "in the child");
		errno = 0;
		syslog(LOG_INFO, "in the child");
		_exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || status != 0)
		errx(1, "child failed");
	e2e_expect("e2e-fork", LOG_INFO, LOG_DAEMON, 0, NULL, 0, "parent after fork");
	errno = 0;
	syslog(LOG_INFO, "parent after fork");
	execl("/proc/self/exe", "forkexec", "exec", (char *)NULL);
	err(1, "exec");
}
