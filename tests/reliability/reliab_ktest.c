/* SPDX-License-Identifier: MIT */
/*
 * The library under load, faults and bad input, against a real
 * user_events kernel (run through scripts/kernel-test: natively as root
 * or in the QEMU guest).  The program is linked with libehsyslog, so its
 * own syslog() calls take the whole interposed path; replace mode
 * (EHSYSLOG_PASSTHROUGH=no) keeps glibc's /dev/log out of it.  Each test
 * runs in its own forked process, so each starts with the library
 * untouched; tests that need a process that never logged before run this
 * program again as a "subject" (subjects.c).
 *
 * Each passing test prints one line "RELIAB<TAB>test<TAB>load<TAB>faults
 * <TAB>bad inputs<TAB>counts" for scripts/reliability-report.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include <ehsyslog/user_events.h>

#include "reliability/reader.h"
#include "reliability/reliab.h"

const char *self_exe;

void report(const char *test, const char *load, const char *faults,
	    const char *bad, const char *fmt, ...)
{
	char counts[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(counts, sizeof counts, fmt, ap);
	va_end(ap);
	/* One write: lines from concurrent tests must not interleave. */
	dprintf(STDOUT_FILENO, "RELIAB\t%s\t%s\t%s\t%s\t%s\n", test, load, faults,
		bad, counts);
}

/* Registers the tracepoint of pri in this process (nobody traces it
 * yet, so nothing is written): a tracer can enable it from now on. */
void reg(int pri)
{
	syslog(pri, "register");
}

void set_nofile(unsigned long soft, unsigned long hard)
{
	struct rlimit rl = { soft, hard };

	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
}

/* Runs this program as a subject: argv after "subject".  Its stdout and
 * stderr go to out (which must stay empty: the library never prints).
 * Returns its pid; *status its wait status. */
pid_t run_subject(int *status, const char *out, char *const argv[])
{
	char *args[16] = { (char *)self_exe, (char *)"subject" };
	int i;
	pid_t pid;

	for (i = 0; argv[i] && i < 13; i++)
		args[i + 2] = argv[i];
	args[i + 2] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execv(self_exe, args);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, status, 0), pid);
	return pid;
}

off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

int main(int argc, char **argv)
{
	static char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	SRunner *sr;
	int failed;

	if (n <= 0)
		return 99;
	exe[n] = '\0';
	self_exe = exe;
	/* Before the first logging call: the configuration is read then. */
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);
	if (argc >= 3 && strcmp(argv[1], "subject") == 0)
		return subject_main(argc - 2, argv + 2);
	if (kf_skip_unless_usable())
		return 77;
	sr = srunner_create(load_suite());
	srunner_add_suite(sr, concurrency_suite());
	srunner_add_suite(sr, faults_suite());
	srunner_add_suite(sr, input_suite());
	srunner_add_suite(sr, security_suite());
	srunner_add_suite(sr, retry_suite());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
