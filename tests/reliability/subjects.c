/* SPDX-License-Identifier: MIT */
/*
 * The subjects: this program run again, fresh (a process that has never
 * logged), to meet one fault before its first logging call.  Each logs
 * "<what> <i>" at LOG_INFO on facility LOCALn; the test reads the events.
 * Exit codes: 0 good, 2 usage, 3 a descriptor of ours leaked in,
 * 4 errno changed by a logging call, 5 the fault could not be set up,
 * 6 a byte of ours in the program's own file.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <unistd.h>

#include "reliability/reliab.h"
#include "user_events/internal.h"

/* Logs n messages "what i"; exits with 4 from here if errno moved. */
static void say(const char *what, int n, int facility)
{
	for (int i = 0; i < n; i++) {
		errno = 1234;
		syslog((LOG_FAC(LOG_LOCAL0) + facility) << 3 | LOG_INFO, "%s %d", what, i);
		if (errno != 1234)
			_exit(4);
	}
}

/* Any inherited descriptor on user_events_data or tracefs is a leak. */
static int leaked(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char link[300], target[256];
	int bad = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(link, target, sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strstr(target, "user_events") || strstr(target, "/tracing"))
			bad = 1;
	}
	closedir(d);
	return bad;
}

/* Waits for the test's go-ahead on fd in, after saying "ready" on out. */
static int handshake(const char *in, const char *out)
{
	char c;

	return write(atoi(out), "r", 1) == 1 && read(atoi(in), &c, 1) == 1 ? 0 : -1;
}

/* syslog(pri, text); false if errno moved. */
static bool said(int pri, const char *text)
{
	errno = 1234;
	syslog(pri, "%s", text);
	return errno == 1234;
}

/* The daemon of issue 11: its descriptors all taken, then freed while
 * traced.  With first_use, a new tracepoint's first use (LOG_ERR) fails
 * while they are taken, and another's (LOG_WARNING) is the first call
 * after, with no pause.  Exit 6: a byte of ours reached its file. */
static int descriptors_taken(const char *file, bool first_use)
{
	struct rlimit rl;
	struct stat st;
	int fd;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 5;
	rl.rlim_cur = 4096;
	if (rl.rlim_max < 4096)
		rl.rlim_max = 4096;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 5;
	openlog("d", 0, LOG_DAEMON);
	if (!said(LOG_INFO, "before close"))
		return 4;
	/* Ours is closed too; the program's own file takes every number. */
	if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
		return 5;
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
	if (fd != 3)
		return 5;
	for (int i = 4; i < 4096; i++)
		if (dup2(fd, i) != i)
			return 5;
	if (first_use && !said(LOG_ERR, "lost error"))
		return 4;
	if (!said(LOG_INFO, "after close"))
		return 4;
	if (syscall(SYS_close_range, 4, ~0U, 0) != 0)
		return 5;
	if (first_use) {
		if (!said(LOG_WARNING, "warning") || !said(LOG_ERR, "error back"))
			return 4;
	} else {
		/* The writer retries at most once per UE_RETRY_INTERVAL_MS. */
		usleep(2 * UE_RETRY_INTERVAL_MS * 1000);
	}
	if (!said(LOG_INFO, "recovered"))
		return 4;
	if (fstat(fd, &st) < 0)
		return 5;
	return st.st_size == 0 ? 0 : 6;
}

int subject_main(int argc, char **argv)
{
	const char *what = argv[0];

	if (leaked())
		return 3;
	if (strcmp(what, "log") == 0 && argc == 4) {
		/* log TEXT COUNT FACILITY */
		say(argv[1], atoi(argv[2]), atoi(argv[3]));
		return 0;
	}
	if (strcmp(what, "rlimit") == 0) {
		struct rlimit old, none = { 0, 0 };
		if (getrlimit(RLIMIT_NOFILE, &old) < 0)
			return 5;
		none.rlim_max = old.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &none) < 0)
			return 5;
		say("denied", 5, 4);
		if (setrlimit(RLIMIT_NOFILE, &old) < 0)
			return 5;
		openlog(NULL, 0, 0);	/* the documented way to try again */
		say("resumed", 5, 4);
		return 0;
	}
	if (strcmp(what, "nonroot") == 0 && argc == 3) {
		/* nonroot IN OUT: denied, handshake, resumed */
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			return 5;
		say("denied", 5, 4);
		if (handshake(argv[1], argv[2]) < 0)
			return 5;
		openlog(NULL, 0, 0);
		say("resumed", 5, 4);
		return 0;
	}
	if (strcmp(what, "max") == 0 && argc == 3) {
		say("denied", 5, 5);
		if (handshake(argv[1], argv[2]) < 0)
			return 5;
		openlog(NULL, 0, 0);
		say("resumed", 5, 5);
		return 0;
	}
	if (strcmp(what, "fds") == 0 && argc == 2)	/* fds FILE */
		return descriptors_taken(argv[1], false);
	if (strcmp(what, "fds-first-use") == 0 && argc == 2)
		return descriptors_taken(argv[1], true);
	if (strcmp(what, "tracefs") == 0) {
		/* A mount namespace of our own without tracefs anywhere. */
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    umount2(TRACING, MNT_DETACH) < 0)
			return 5;
		umount2("/sys/kernel/debug", MNT_DETACH);
		say("denied", 5, 4);
		if (mount("tracefs", TRACING, "tracefs", 0, NULL) < 0)
			return 5;
		openlog(NULL, 0, 0);
		say("resumed", 5, 4);
		return 0;
	}
	return 2;
}
