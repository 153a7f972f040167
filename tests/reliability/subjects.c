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

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include <ehsyslog.h>
#include <ehsyslog/user_events.h>

#include "reliability/reliab.h"
#include "user_events/internal.h"

/* Logs n messages "what i"; exits with 4 from here if errno moved. */
static void say_errno(const char *what, int n, int facility, bool kept)
{
	for (int i = 0; i < n; i++) {
		errno = 1234;
		syslog((LOG_FAC(LOG_LOCAL0) + facility) << 3 | LOG_INFO, "%s %d", what, i);
		if (kept && errno != 1234)
			_exit(4);
	}
}

static void say(const char *what, int n, int facility)
{
	say_errno(what, n, facility, true);
}

/* Any inherited descriptor on user_events_data or tracefs is a leak. */
static bool leaked(void)
{
	return proc_fd_find((const char *const[]){ "user_events", "/tracing", NULL }) != -1;
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

/* said() for a call made while every descriptor number is taken: glibc's
 * own socket() fails then and leaves EMFILE, as without the library. */
static bool said_without_descriptors(int pri, const char *text)
{
	errno = 1234;
	syslog(pri, "%s", text);
	return errno == 1234 || errno == EMFILE;
}

/* Frees the daemon's descriptors from 4 up (3 is its file) through
 * libc, as HOW says; false if that fails or HOW is unknown. */
/* Closes every descriptor from 3 up with the raw system call, which the
 * wrappers do not see (ours goes too), then puts FILE at every number
 * below limit.  Returns its first descriptor, 3, or -1. */
static int take_every_number(const char *file, int limit)
{
	if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
		return -1;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
	if (fd != 3)
		return -1;
	for (int i = 4; i < limit; i++)
		if (dup2(fd, i) != i)
			return -1;
	return fd;
}

static bool free_through_libc(const char *how)
{
	if (strcmp(how, "close_range") == 0)
		return close_range(4, ~0U, 0) == 0;
	if (strcmp(how, "closefrom") == 0) {
		closefrom(4);
		return fcntl(4, F_GETFD) < 0;
	}
	if (strcmp(how, "close") == 0) {
		for (int i = 4; i < 4096; i++)
			if (close(i) != 0)
				return false;
		return true;
	}
	if (strcmp(how, "fclose") == 0) {
		FILE *f = fdopen(4, "w");

		return f && fclose(f) == 0;
	}
	if (strcmp(how, "setrlimit") == 0) {
		struct rlimit rl = { 4200, 4200 };

		return setrlimit(RLIMIT_NOFILE, &rl) == 0;
	}
	return false;
}

/* A daemon that loses its descriptors: every one closed (ours too), then
 * filled with its own file, then freed while traced.  With first_use, a
 * new tracepoint's first use (LOG_ERR) fails while they are taken, and
 * another's (LOG_WARNING) is the first call after, with no pause.  HOW
 * NULL frees them with a raw close_range syscall, which the library does
 * not see, and waits out the writer's retry pause; else through libc's
 * call HOW (free_through_libc), and "recovered" is logged at once.  Exit
 * 6: a byte of ours reached its file. */
static int descriptors_taken(const char *file, bool first_use, const char *how)
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
	fd = take_every_number(file, 4096);
	if (fd < 0)
		return 5;
	if (first_use && !said_without_descriptors(LOG_ERR, "lost error"))
		return 4;
	if (!said_without_descriptors(LOG_INFO, "after close"))
		return 4;
	if (how) {
		if (!free_through_libc(how))
			return 5;
	} else {
		if (syscall(SYS_close_range, 4, ~0U, 0) != 0)
			return 5;
		if (!first_use)	/* The writer retries at most once per interval. */
			usleep(2 * UE_RETRY_INTERVAL_MS * 1000);
	}
	if (first_use && (!said(LOG_WARNING, "warning") || !said(LOG_ERR, "error back")))
		return 4;
	if (!said(LOG_INFO, "recovered"))
		return 4;
	if (fstat(fd, &st) < 0)
		return 5;
	return st.st_size == 0 ? 0 : 6;
}

/* Three events from one EHS_EMIT call site, "WORD 0" to "WORD 2", laid
 * out as the syslog schema's fields so that the reader takes the
 * message: the first call of a site after a change goes through the
 * writer, the third through the site's copy of the channel. */
static bool emitted3(const char *word)
{
	char text[32];

	for (int i = 0; i < 3; i++) {
		snprintf(text, sizeof text, "%s %d", word, i);
		errno = 1234;
		int r = EHS_EMIT(LOG_INFO, "copy", EHS_STRING("msg", text),
				 EHS_UINT8("severity", LOG_INFO), EHS_UINT8("facility", 0),
				 EHS_ERRNO("err", 0));
		if (errno != 1234 || r < 0)
			return false;
	}
	return true;
}

/*
 * native-copy FILE: an EHS_EMIT site through every change of the writer
 * its copy of the channel must see.  "before" at LOG_DAEMON; then a raw
 * close_range() the wrappers do not see, FILE at every number below the
 * soft limit, "after" (no descriptor to be had: dropped, and never in
 * FILE); the numbers freed through libc, "recovered"; a higher soft
 * limit, which moves the writer's descriptor up to it, "limit"; openlog()
 * to LOG_LOCAL5, "moved".  Exit 6: a byte of ours reached FILE.
 */
static int native_copy(const char *file)
{
	struct rlimit rl = { 2048, 8192 };
	struct stat st;
	int fd;

	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 5;
	openlog("n", 0, LOG_DAEMON);
	if (!emitted3("before"))
		return 4;
	fd = take_every_number(file, 2048);
	if (fd < 0)
		return 5;
	if (!emitted3("after"))
		return 4;
	if (!free_through_libc("close_range") || !emitted3("recovered"))
		return 4;
	rl.rlim_cur = 3000;	/* within UE_FD_BEYOND_MAX: the descriptor moves */
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0 || !emitted3("limit"))
		return 4;
	openlog("n", 0, LOG_LOCAL5);
	if (!emitted3("moved"))
		return 4;
	if (fstat(fd, &st) < 0)
		return 5;
	return st.st_size == 0 ? 0 : 6;
}

static volatile int racing;

static void *log_while_racing(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&racing, __ATOMIC_RELAXED))
		syslog(LOG_LOCAL6 | LOG_DEBUG, "race");
	return NULL;
}

/* One thread logs (LOG_DEBUG) while another dup2()s the program's file
 * over the number the library's descriptor gets (chase: wherever
 * /proc/self/fd shows it now) and closes it again, ROUNDS
 * times, with RLIMIT_NOFILE 1024:1024 (the descriptor below the limit,
 * checked on each write).  Then the file must still be open and empty,
 * and a call after the writer's retry pause must make its event.  Exit
 * 6: a byte of ours in the file; 7: the library closed it; 8: the writer
 * gave up for good. */
static int dup2_race(const char *file, long rounds, bool chase)
{
	struct rlimit rl = { 1024, 1024 };
	struct ue_status status;
	struct stat st;
	pthread_t logger;
	int fd, ours;

	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 5;
	openlog("race", 0, LOG_LOCAL6);
	syslog(LOG_INFO, "start");
	ours = user_events_fd();
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
	if (ours < 0 || fd < 0)
		return 5;
	racing = 1;
	if (pthread_create(&logger, NULL, log_while_racing, NULL) != 0)
		return 5;
	for (long i = 0; i < rounds; i++) {
		/* Chasing: wherever the writer's descriptor is now. */
		int at = chase ? user_events_fd() : ours;
		if (at < 0)
			continue;
		if (dup2(fd, at) != at)
			return 5;
		close(at);
	}
	__atomic_store_n(&racing, 0, __ATOMIC_RELAXED);
	pthread_join(logger, NULL);
	if (fcntl(fd, F_GETFD) < 0)
		return 7;
	if (fstat(fd, &st) < 0 || st.st_size != 0)
		return 6;
	usleep(2 * UE_RETRY_INTERVAL_MS * 1000);
	if (!said(LOG_INFO, "resumed"))
		return 4;
	ue_status(&status);
	return status.state == UE_STATUS_OK && status.registered > 0 ? 0 : 8;
}

/* Root logs, so that the library opens user_events_data, then forks; the
 * child drops to uid and gid 65534 and logs "dropped" on LOCAL5 (traced)
 * and "new" at LOG_EMERG, a tracepoint nobody registered.  EXPECT says
 * what the child may do: "denied", open nothing and register nothing
 * (the kernel does not list PROVIDER_L1K200000 while the child lives);
 * "allowed", open again and register both.  9: the child's writer says
 * otherwise; 10: the child died; 11: the kernel's list says otherwise. */
static int drop_privileges(const char *provider, const char *expect)
{
	bool allowed = strcmp(expect, "allowed") == 0;
	char name[128], c;
	int ready[2], go[2], st, r = 0;
	pid_t pid;

	snprintf(name, sizeof name, "%s_L1K200000", provider);
	openlog("drop", 0, LOG_LOCAL5);
	if (!said(LOG_INFO, "root"))
		return 4;
	if (pipe(ready) < 0 || pipe(go) < 0)
		return 5;
	pid = fork();
	if (pid < 0)
		return 5;
	if (pid == 0) {
		struct ue_status status;

		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			_exit(5);
		if (!said(LOG_INFO, "dropped") || !said(LOG_EMERG, "new"))
			_exit(4);
		ue_status(&status);
		/* The parent reads the kernel's list while we live. */
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(5);
		if (allowed ? status.state == UE_STATUS_OK && status.registered == 2
			    : status.state == UE_STATUS_NO_PERMISSION && status.registered == 0)
			_exit(0);
		_exit(9);
	}
	if (read(ready[0], &c, 1) != 1)
		r = 10;
	else if ((kf_status_lists(name) == 1) != allowed)
		r = 11;
	if (write(go[1], "g", 1) != 1 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 10;
	return r ? r : WEXITSTATUS(st);
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
		/* No event can be written: replace mode passes the calls on
		 * to glibc, whose failed socket() leaves errno EMFILE. */
		say_errno("denied", 5, 4, false);
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
		return descriptors_taken(argv[1], false, NULL);
	if (strcmp(what, "fds-first-use") == 0 && argc == 2)
		return descriptors_taken(argv[1], true, NULL);
	if (strcmp(what, "fds-freed") == 0 && argc == 3)	/* fds-freed FILE HOW */
		return descriptors_taken(argv[1], false, argv[2]);
	if (strcmp(what, "stuck") == 0)
		return stuck_subject(argc, argv);
	if (strcmp(what, "native-copy") == 0 && argc == 2)	/* native-copy FILE */
		return native_copy(argv[1]);
	if (strcmp(what, "dup2-race") == 0 && argc == 3)	/* dup2-race FILE ROUNDS */
		return dup2_race(argv[1], atol(argv[2]), false);
	if (strcmp(what, "dup2-chase") == 0 && argc == 3)	/* dup2-chase FILE ROUNDS */
		return dup2_race(argv[1], atol(argv[2]), true);
	if (strcmp(what, "drop") == 0 && argc == 3)	/* drop PROVIDER denied|allowed */
		return drop_privileges(argv[1], argv[2]);
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
