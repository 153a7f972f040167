/* SPDX-License-Identifier: MIT */
/*
 * Signals, fork, vfork, posix_spawn, and a program that closes or
 * overwrites the library's descriptor.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <printf.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "reliability/reader.h"
#include "reliability/reliab.h"

extern char **environ;

/* ---- a signal handler that logs while the thread is inside syslog() -- */

static volatile sig_atomic_t handled, inside, interrupted;

static void on_signal(int sig)
{
	(void)sig;
	if (inside)
		interrupted++;
	syslog(LOG_LOCAL1 | LOG_INFO, "handler %d", (int)handled);
	handled++;
}

/* %Y prints nothing and raises SIGUSR1: the handler runs while syslog()
 * is formatting, deep inside the library. */
static int raise_arginfo(const struct printf_info *info, size_t n, int *types, int *size)
{
	(void)info;
	if (n > 0) {
		types[0] = PA_INT;
		*size = sizeof(int);
	}
	return 1;
}

static int raise_print(FILE *f, const struct printf_info *info, const void *const *args)
{
	(void)f;
	(void)info;
	(void)args;
	raise(SIGUSR1);
	return 0;
}

#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
START_TEST(signal_inside_syslog)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	struct reader r;
	struct revs ev = { 0 };
	char text[64];
	int i, timed = 3000;

	reg(LOG_LOCAL1 | LOG_INFO);
	reader_open(&r, "reliab_signal", 8192);
	reader_enable(&r, TP_LOCAL1);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(register_printf_specifier('Y', raise_print, raise_arginfo), 0);

	/* Exactly inside: one handler call per syslog. */
	for (i = 0; i < 100; i++)
		syslog(LOG_LOCAL1 | LOG_INFO, "main %d%Y", i, 0);
	ck_assert_int_eq(handled, 100);
	/* By a timer, wherever it lands. */
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	for (i = 0; i < timed; i++) {
		inside = 1;
		syslog(LOG_LOCAL1 | LOG_INFO, "timed %d", i);
		inside = 0;
	}
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	signal(SIGALRM, SIG_IGN);

	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	for (i = 0; i < 100; i++) {
		snprintf(text, sizeof text, "main %d", i);
		ck_assert_uint_eq(revs_count(&ev, getpid(), text), 1);
	}
	for (i = 0; i < timed; i++) {
		snprintf(text, sizeof text, "timed %d", i);
		ck_assert_uint_eq(revs_count(&ev, getpid(), text), 1);
	}
	for (i = 0; i < handled; i++) {
		snprintf(text, sizeof text, "handler %d", i);
		ck_assert_msg(revs_count(&ev, getpid(), text) == 1, "%s lost", text);
	}
	ck_assert_uint_eq(ev.n, (size_t)(100 + timed + handled));
	report("signal_inside_syslog", "100 + 3000 syslog() calls, replace mode",
	       "SIGUSR1 raised from inside syslog()'s formatting; SIGALRM every 200 us",
	       "-", "%d outer events, %d handler events (%d timer signals landed inside "
	       "syslog()), all %zu arrived", 100 + timed, (int)handled,
	       (int)interrupted, ev.n);
	revs_free(&ev);
}
END_TEST
#pragma GCC diagnostic warning "-Wformat"
#pragma GCC diagnostic warning "-Wformat-extra-args"

/* ---- fork, vfork, posix_spawn while another thread logs -------------- */

static int stop;

/* Logs until stopped, pausing 200 us between calls: every fork still
 * lands among its calls, and the trace buffer, read only at the end,
 * cannot fill up (without a pause a fast writer overran it and the
 * oldest events, the first child's, were lost). */
static void *background(void *arg)
{
	const struct timespec pause = { 0, 200000 };

	(void)arg;
	for (unsigned i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); i++) {
		syslog(LOG_LOCAL2 | LOG_INFO, "background %u", i);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static size_t count_prefix(const struct revs *s, int pid, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (size_t i = 0; i < s->n; i++)
		if ((pid == 0 || s->v[i].pid == pid) && s->v[i].msg && s->v[i].decoded &&
		    s->v[i].msg_len >= len && memcmp(s->v[i].msg, prefix, len) == 0)
			n++;
	return n;
}

#define FORKS 10
#define CHILD_MSGS 20

START_TEST(fork_vfork_spawn_while_logging)
{
	pthread_t bg;
	struct reader r;
	struct revs ev = { 0 };
	pid_t kids[FORKS + 2];
	char text[64];
	int st;

	reg(LOG_LOCAL2 | LOG_INFO);
	reader_open(&r, "reliab_fork", 8192);
	reader_enable(&r, TP_LOCAL2);
	ck_assert_int_eq(pthread_create(&bg, NULL, background, NULL), 0);
	for (int k = 0; k < FORKS; k++) {
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			for (int i = 0; i < CHILD_MSGS; i++)
				syslog(LOG_LOCAL2 | LOG_INFO, "child %d", i);
			_exit(0);
		}
		kids[k] = pid;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_int_eq(st, 0);
	}
	/* vfork + exec and posix_spawn of a program that logs, and finds no
	 * descriptor of ours among those it inherited. */
	char n[16];
	snprintf(n, sizeof n, "%d", CHILD_MSGS);
	char *args[] = { (char *)self_exe, (char *)"subject", (char *)"log",
			 (char *)"child", n, (char *)"2", NULL };
	pid_t pid = vfork();
	if (pid == 0) {
		execve(self_exe, args, environ);
		_exit(127);
	}
	ck_assert_int_gt(pid, 0);
	kids[FORKS] = pid;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "vfork child status %x", st);
	ck_assert_int_eq(posix_spawn(&pid, self_exe, NULL, NULL, args, environ), 0);
	kids[FORKS + 1] = pid;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "spawned child status %x", st);

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	ck_assert_int_eq(pthread_join(bg, NULL), 0);
	reader_drain(&r, revs_collect, &ev);
	unsigned long long lost = reader_lost(&r);
	reader_close(&r);
	ck_assert_msg(lost == 0, "the trace buffer lost %llu events", lost);
	for (int k = 0; k < FORKS + 2; k++) {
		for (int i = 0; i < CHILD_MSGS; i++) {
			snprintf(text, sizeof text, "child %d", i);
			ck_assert_msg(revs_count(&ev, kids[k], text) == 1,
				      "child %d (pid %d): \"%s\" missing", k, kids[k], text);
		}
	}
	size_t bgn = count_prefix(&ev, 0, "background ");
	report("fork_vfork_spawn_while_logging",
	       "a thread logging throughout, every 200 us",
	       "10 fork()s, 1 vfork()+exec, 1 posix_spawn() meanwhile", "-",
	       "every child's %d events arrived with its pid (%d); no descriptor of "
	       "ours in the exec'd children; %zu background events",
	       CHILD_MSGS, (FORKS + 2) * CHILD_MSGS, bgn);
	revs_free(&ev);
}
END_TEST

/* ---- a program that closes or overwrites our descriptor -------------- */

/* Each way a program takes our number fd for its file mine, asserting
 * what the call returns; gives the number the program's file ended at.
 * Our descriptor is invisible: close() fails as on a free number and
 * close_range()/closefrom() close around it, so the program's next file
 * lands elsewhere.  Below the soft limit (soft == hard), dup2()/dup3()
 * onto it succeed, and a raw syscall closes it for real, the number
 * being the program's when it comes back through fcntl(F_DUPFD), close()
 * or fclose().  At the soft limit (soft < hard) every call that would
 * put the program's file there fails, as at any number there: -1. */

static int by_close(int fd, int mine)
{
	errno = 0;
	ck_assert_int_eq(close(fd), -1);
	ck_assert_int_eq(errno, EBADF);
	return fcntl(mine, F_DUPFD, fd);
}

static int by_close_range(int fd, int mine)
{
	/* The program's files on both sides go, ours stays. */
	int below = fcntl(mine, F_DUPFD, fd - 1), above = fcntl(mine, F_DUPFD, fd + 1);

	ck_assert_int_eq(below, fd - 1);
	ck_assert_int_eq(above, fd + 1);
	ck_assert_int_eq(close_range((unsigned)below, (unsigned)above, 0), 0);
	ck_assert_int_eq(fcntl(below, F_GETFD), -1);
	ck_assert_int_eq(fcntl(above, F_GETFD), -1);
	return fcntl(mine, F_DUPFD, fd);
}

static int by_close_range_cloexec(int fd, int mine)
{
	ck_assert_int_eq(close_range((unsigned)fd, (unsigned)fd, CLOSE_RANGE_CLOEXEC), 0);
	return dup2(mine, fd);
}

static int by_closefrom(int fd, int mine)
{
	closefrom(fd);
	return fcntl(mine, F_DUPFD, fd);
}

static int by_dup2(int fd, int mine)
{
	return dup2(mine, fd);
}

static int by_dup3(int fd, int mine)
{
	return dup3(mine, fd, O_CLOEXEC);
}

static int by_raw_close_dupfd(int fd, int mine)
{
	ck_assert_int_eq(syscall(SYS_close, fd), 0);
	return fcntl(mine, F_DUPFD, fd);
}

static int by_raw_close_range_dupfd_cloexec(int fd, int mine)
{
	ck_assert_int_eq(syscall(SYS_close_range, fd, fd, 0), 0);
	return fcntl(mine, F_DUPFD_CLOEXEC, fd);
}

static int by_raw_dup3(int fd, int mine)
{
	return (int)syscall(SYS_dup3, mine, fd, 0);
}

/* At the limit: after a raw close, files fill every free number, and
 * none lands on fd. */
static int by_raw_close_fill(int fd, int mine)
{
	int *fill = calloc((size_t)fd, sizeof *fill);
	int n = 0, last;

	ck_assert_ptr_nonnull(fill);
	ck_assert_int_eq(syscall(SYS_close, fd), 0);
	while ((last = open("/dev/null", O_RDONLY)) >= 0) {
		ck_assert_int_lt(last, fd);
		fill[n++] = last;
	}
	ck_assert_int_eq(errno, EMFILE);
	ck_assert_int_gt(n, 0);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(close(fill[i]), 0);
	free(fill);
	return fcntl(mine, F_DUPFD, fd);
}

/* After a raw close, files fill every free number up to fd; the one at
 * fd is given to done(), then the fillers are closed. */
static void raw_close_and_fill(int fd, void (*done)(int))
{
	int *fill = calloc((size_t)fd + 1, sizeof *fill);
	int n = 0, last;

	ck_assert_ptr_nonnull(fill);
	ck_assert_int_eq(syscall(SYS_close, fd), 0);
	do {
		last = open("/dev/null", O_RDONLY);
		ck_assert_int_ge(last, 0);
		ck_assert_int_le(last, fd);
		fill[n++] = last;
	} while (last != fd);
	done(fd);
	for (int i = 0; i < n - 1; i++)
		ck_assert_int_eq(close(fill[i]), 0);
	free(fill);
}

static void closed(int fd)
{
	ck_assert_int_eq(close(fd), 0);	/* its own file: really closed */
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
}

static void fclosed(int fd)
{
	FILE *f = fdopen(fd, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
}

static int by_raw_close_reuse_close(int fd, int mine)
{
	raw_close_and_fill(fd, closed);
	return fcntl(mine, F_DUPFD, fd);
}

static int by_raw_close_reuse_fclose(int fd, int mine)
{
	raw_close_and_fill(fd, fclosed);
	return fcntl(mine, F_DUPFD, fd);
}

struct sabotage {
	const char *name;
	int (*take)(int fd, int mine);
	bool lands_on_ours;	/* the program's file ends at our old number */
};

static const struct sabotage sabotages[] = {
	{ "close", by_close, false },
	{ "close_range", by_close_range, false },
	{ "close_range CLOEXEC, dup2", by_close_range_cloexec, true },
	{ "closefrom", by_closefrom, false },
	{ "dup2", by_dup2, true },
	{ "dup3", by_dup3, true },
	{ "raw close, F_DUPFD", by_raw_close_dupfd, true },
	{ "raw close_range, F_DUPFD_CLOEXEC", by_raw_close_range_dupfd_cloexec, true },
	{ "raw close, reuse, close", by_raw_close_reuse_close, true },
	{ "raw close, reuse, fclose", by_raw_close_reuse_fclose, true },
};

/* At the soft limit: each take fails (-1). */
static const struct sabotage at_limit[] = {
	{ "close, F_DUPFD", by_close, false },
	{ "close_range CLOEXEC, dup2", by_close_range_cloexec, false },
	{ "closefrom, F_DUPFD", by_closefrom, false },
	{ "dup2", by_dup2, false },
	{ "dup3", by_dup3, false },
	{ "raw dup3", by_raw_dup3, false },
	{ "raw close, F_DUPFD", by_raw_close_dupfd, false },
	{ "raw close_range, F_DUPFD_CLOEXEC", by_raw_close_range_dupfd_cloexec, false },
	{ "raw close, every number filled", by_raw_close_fill, false },
};

static void sabotage_once(const struct sabotage *how, int round, bool limit,
			  struct reader *r, size_t *events)
{
	char path[64], text[64];
	struct revs ev = { 0 };
	int fd, mine, at;

	syslog(LOG_LOCAL3 | LOG_INFO, "before %d", round);
	fd = user_events_fd();
	ck_assert_int_ge(fd, 0);
	snprintf(path, sizeof path, "/tmp/reliab-sabotage-%d", round);
	mine = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(mine, 0);
	errno = 0;
	at = how->take(fd, mine);
	if (limit) {
		/* The kernel refuses the number, as any at the soft limit:
		 * EBADF from dup2/dup3, EINVAL from F_DUPFD. */
		ck_assert_msg(at == -1 && (errno == EBADF || errno == EINVAL),
			      "%s: returned %d, errno %d", how->name, at, errno);
		at = mine;
	}
	ck_assert_int_ge(at, 0);
	if (how->lands_on_ours)
		ck_assert_msg(at == fd, "%s: the program's file at %d, not %d", how->name, at, fd);
	else
		ck_assert_msg(at != fd, "%s: our %d was closed", how->name, fd);
	ck_assert_int_eq(write(at, "mine\n", 5), 5);
	for (int i = 0; i < 5; i++)
		syslog(LOG_LOCAL3 | LOG_INFO, "after %d %d", round, i);
	/* Not one byte of ours in the program's file. */
	ck_assert_msg(file_size(path) == 5, "%s: %lld bytes in the program's file",
		      how->name, (long long)file_size(path));
	reader_drain(r, revs_collect, &ev);
	snprintf(text, sizeof text, "before %d", round);
	ck_assert_uint_eq(revs_count(&ev, getpid(), text), 1);
	for (int i = 0; i < 5; i++) {
		snprintf(text, sizeof text, "after %d %d", round, i);
		ck_assert_msg(revs_count(&ev, getpid(), text) == 1, "%s: \"%s\" missing",
			      how->name, text);
	}
	*events += ev.n;
	revs_free(&ev);
	close(at);
	if (mine != at)
		close(mine);
	unlink(path);
}

/* Runs each sabotage of list in turn under RLIMIT_NOFILE soft, hard;
 * gives how many events arrived. */
static size_t sabotage_all(const struct sabotage *list, size_t rounds, unsigned long soft,
			   unsigned long hard, const char *instance)
{
	struct reader r;
	size_t events = 0;

	set_nofile(soft, hard);
	reg(LOG_LOCAL3 | LOG_INFO);
	/* At the limit exactly where soft < hard. */
	ck_assert_int_eq(user_events_fd() == (int)soft, soft < hard);
	reader_open(&r, instance, 0);
	reader_enable(&r, TP_LOCAL3);
	for (size_t i = 0; i < rounds; i++)
		sabotage_once(&list[i], (int)i, soft < hard, &r, &events);
	reader_close(&r);
	return events;
}

/* Below the soft limit (soft == hard), where each traced write checks
 * the descriptor with fstat. */
START_TEST(descriptor_sabotage)
{
	const size_t rounds = sizeof sabotages / sizeof sabotages[0];
	size_t events = sabotage_all(sabotages, rounds, 1024, 1024, "reliab_sabotage");

	report("descriptor_sabotage", "6 events per round, 10 rounds",
	       "close(), close_range() around it and with CLOSE_RANGE_CLOEXEC, closefrom(), "
	       "dup2() and dup3() over it, raw close syscalls then fcntl(F_DUPFD), close() "
	       "or fclose() of a file reusing the number",
	       "-", "program files hold only their own 5 bytes; %zu of %zu events arrived",
	       events, rounds * 6);
}
END_TEST

/* At the soft limit (soft < hard), where a traced write checks nothing. */
START_TEST(descriptor_sabotage_at_limit)
{
	const size_t rounds = sizeof at_limit / sizeof at_limit[0];
	size_t events = sabotage_all(at_limit, rounds, 1024, 4096, "reliab_sabotage_limit");

	report("descriptor_sabotage_at_limit", "6 events per round, 9 rounds",
	       "descriptor at the soft RLIMIT_NOFILE: close(), close_range CLOEXEC, "
	       "closefrom(), dup2(), dup3() and raw dup3 onto it, raw closes then "
	       "F_DUPFD or every number filled by open()",
	       "-", "each call refused by the kernel as at any number at the limit; "
	       "program files hold only their own 5 bytes; %zu of %zu events arrived",
	       events, rounds * 6);
}
END_TEST

/* A thread of the program dup2()s its file over the number the writer's
 * descriptor gets, and closes it, while another logs: the writer must
 * never take the program's file for its own, close it, or give up. */
static void dup2_race(const char *subject, char *rounds, const char *name, const char *faults)
{
	static const char file[] = "/tmp/reliab-race-file";
	struct reader r, flood;
	struct revs ev = { 0 }, race = { 0 };
	int st;
	pid_t pid;

	unlink(file);
	unlink("/tmp/reliab-race-output");
	/* Replace mode: no datagram between two events, the tightest loop. */
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	reg(LOG_LOCAL6 | LOG_INFO);
	reg(LOG_LOCAL6 | LOG_DEBUG);
	reader_open(&r, "reliab_race", 0);
	reader_enable(&r, TP_LOCAL6);
	/* The race's own events, traced so that the writer writes them, in
	 * a buffer of their own: they may overrun it, not the one read for
	 * "start" and "resumed". */
	reader_open(&flood, "reliab_race_flood", 0);
	reader_enable(&flood, "Syslog_L5K400000");
	pid = run_subject(&st, "/tmp/reliab-race-output",
			  (char *[]){ (char *)subject, (char *)file, rounds, NULL });
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 7, "the library closed the program's file");
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 6, "a byte of ours in the program's file");
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) != 8, "the writer gave up for good");
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "subject status %#x", st);
	ck_assert_int_eq(file_size("/tmp/reliab-race-output"), 0);
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	reader_drain(&flood, revs_collect, &race);
	reader_close(&flood);
	ck_assert_uint_eq(revs_count(&ev, pid, "start"), 1);
	ck_assert_msg(revs_count(&ev, pid, "resumed") == 1, "\"resumed\" missing");
	ck_assert_uint_eq(ev.n, 2);
	report(name, rounds, faults, "-",
	       "the program's file stayed open and empty; %zu events during the race; the "
	       "call after it arrived, the writer registered again", revs_count(&race, 0, "race"));
	revs_free(&ev);
	revs_free(&race);
	unlink(file);
}

START_TEST(dup2_race_while_reopening)
{
	dup2_race("dup2-race", (char[]){ "40000" }, "dup2_race_while_reopening",
		  "RLIMIT_NOFILE 1024:1024; a thread dup2()s the program's file over the "
		  "writer's first number and closes it while another logs");
}
END_TEST

/* The same, following the writer's descriptor to each number it reopens
 * at (as found outside testing: afterwards the writer said EBADF, no
 * tracepoint registered, and no event arrived any more). */
START_TEST(dup2_chase_while_reopening)
{
	dup2_race("dup2-chase", (char[]){ "20000" }, "dup2_chase_while_reopening",
		  "RLIMIT_NOFILE 1024:1024; a thread finds the writer's descriptor in "
		  "/proc/self/fd, dup2()s the program's file over it and closes it, while "
		  "another logs");
}
END_TEST

Suite *concurrency_suite(void)
{
	Suite *s = suite_create("concurrency");
	TCase *tc = tcase_create("concurrency");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, signal_inside_syslog);
	tcase_add_test(tc, fork_vfork_spawn_while_logging);
	tcase_add_test(tc, descriptor_sabotage);
	tcase_add_test(tc, descriptor_sabotage_at_limit);
	tcase_add_test(tc, dup2_race_while_reopening);
	tcase_add_test(tc, dup2_chase_while_reopening);
	suite_add_tcase(s, tc);
	return s;
}
