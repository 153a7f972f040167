/* SPDX-License-Identifier: MIT */
/*
 * The writer after a fight over its descriptor: a thread logs at one
 * priority while the main thread, round after round, finds the writer's
 * descriptor in /proc/self/fd, dup2()s a file of its own over it and
 * closes it.  However the fight leaves the writer (a registration failed
 * for a transient reason, the descriptor lost), the calls at that same
 * priority afterwards must make their events, with no openlog() and no
 * other tracepoint's help, and no byte of an event may reach the
 * program's file.  Each variant runs RUNS subjects at once: they fight
 * together, then wait for each other, so that the events after the fight
 * are written while no race floods the buffer they are read from.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <ehsyslog.h>
#include <ehsyslog/user_events.h>

#include "reliability/reader.h"
#include "reliability/reliab.h"

/* LOG_INFO on openlog's LOG_USER: keyword 1 << 1. */
#define TP_USER "Syslog_L4K2"
#define RUNS 8
/* Rounds a fight: the writer gave up after as few as 4 outside testing;
 * 1,000 keep 64 fights (8 variants of 8 runs) within minutes of the
 * emulated guest.
 * EHSYSLOG_STUCK_ROUNDS=20000 gives the fight as first reported. */
#define ROUNDS_DEFAULT "1000"
#define FILE_FMT "/tmp/reliab-stuck-file-%d"
#define OUT_FMT "/tmp/reliab-stuck-out-%d"
#define DIAG_FMT "/tmp/reliab-stuck-diag-%d"

/* --- the subject --- */

static bool native;
static volatile int stop;

/* One call site for the race and the calls after it: syslog() or one
 * EHS_EMIT site, whose fields are the syslog schema's.  False if errno
 * moved. */
static bool say_one(const char *text)
{
	errno = 1234;
	if (native)
		EHS_EMIT(LOG_INFO, "stuck", EHS_STRING("msg", text), EHS_UINT8("severity", LOG_INFO),
			 EHS_UINT8("facility", LOG_USER >> 3), EHS_ERRNO("err", 0));
	else
		syslog(LOG_INFO, "%s", text);
	return errno == 1234;
}

static void *race(void *arg)
{
	char text[48];

	(void)arg;
	for (long i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); i++) {
		snprintf(text, sizeof text, "STUCK race %ld", i);
		say_one(text);
	}
	return NULL;
}

/* dup2(from, to) then close(to), through libc (which the library sees)
 * or by raw system calls (which it does not); dup3 every other round. */
static void take(int from, int to, bool raw, long round)
{
	if (!raw) {
		if (dup2(from, to) == to)
			close(to);
		return;
	}
	long r;
#ifdef SYS_dup2
	if (round % 2 == 0)
		r = syscall(SYS_dup2, from, to);
	else
#endif
		r = syscall(SYS_dup3, from, to, 0);
	if (r == to)
		syscall(SYS_close, to);
}

/*
 * stuck FILE ROUNDS eq|lt libc|raw syslog|native READY GO: RLIMIT_NOFILE
 * 1024 with the hard limit equal (eq) or above (lt); openlog("stuck",
 * LOG_PID, LOG_USER); a thread logs "STUCK race <i>" at LOG_INFO while
 * the main thread fights ROUNDS rounds over the writer's descriptor with
 * FILE.  Then a byte on READY, a wait for GO's end, and three times
 * (after 300 ms, 1 s, 3 s) five calls "after <t> <i>".  Exit 4: errno
 * moved; 5: set-up failed; 6: a byte of ours in FILE; 7: FILE was closed.
 */
int stuck_subject(int argc, char **argv)
{
	static const unsigned pause_ms[] = { 300, 1000, 3000 };
	struct rlimit rl = { 1024, 1024 };
	pthread_t logger;
	struct stat st;
	char text[32], c;

	if (argc != 8)
		return 2;
	long rounds = atol(argv[2]);
	bool raw = strcmp(argv[4], "raw") == 0;
	native = strcmp(argv[5], "native") == 0;
	int ready = atoi(argv[6]), go = atoi(argv[7]);
	if (strcmp(argv[3], "lt") == 0)
		rl.rlim_max = 4096;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 5;
	int f = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
	if (f < 0)
		return 5;
	openlog("stuck", LOG_PID, LOG_USER);
	if (pthread_create(&logger, NULL, race, NULL) != 0)
		return 5;
	for (long i = 0; i < rounds; i++) {
		int x = user_events_fd();
		if (x >= 0)
			take(f, x, raw, i);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(logger, NULL);
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) < 0)
		return 5;
	for (int t = 0; t < 3; t++) {
		struct timespec ts = { pause_ms[t] / 1000, (long)(pause_ms[t] % 1000) * 1000000 };
		nanosleep(&ts, NULL);
		for (int i = 0; i < 5; i++) {
			snprintf(text, sizeof text, "after %d %d", t, i);
			if (!say_one(text))
				return 4;
		}
	}
	/* What the writer says, for a failure's message. */
	struct ue_status us;
	char diag[64];
	ue_status(&us);
	snprintf(diag, sizeof diag, "%s.diag", argv[1]);
	FILE *d = fopen(diag, "w");
	if (d) {
		fprintf(d, "writer state %d error %d, %u registered, %u failed, descriptor %d",
			us.state, us.error, us.registered, us.failed, user_events_fd());
		fclose(d);
	}
	if (fcntl(f, F_GETFD) < 0)
		return 7;
	/* Below the limit, a raw dup2 between the writer's fstat and its
	 * writev lands an event in FILE, a window only the kernel could
	 * close (docs/design.md, "The descriptor policy"): the test counts
	 * those bytes there rather than failing on them. */
	if (raw && rl.rlim_cur == rl.rlim_max)
		return 0;
	return fstat(f, &st) == 0 && st.st_size == 0 ? 0 : 6;
}

/* --- the test --- */

/* Starts subject i of a variant, its output to OUT_FMT, its end of the
 * two pipes kept across exec. */
static pid_t start(int i, const char *rounds, const char *const how[3], int ready, int go)
{
	char file[64], out[64], rfd[16], gfd[16];
	pid_t pid;

	snprintf(file, sizeof file, FILE_FMT, i);
	snprintf(out, sizeof out, OUT_FMT, i);
	snprintf(rfd, sizeof rfd, "%d", ready);
	snprintf(gfd, sizeof gfd, "%d", go);
	unlink(file);
	unlink(out);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 ||
		    fcntl(ready, F_SETFD, 0) < 0 || fcntl(go, F_SETFD, 0) < 0)
			_exit(126);
		execl(self_exe, self_exe, "subject", "stuck", file, rounds, how[0], how[1], how[2],
		      rfd, gfd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The events in s from pid's main thread. */
static size_t of_pid(const struct revs *s, pid_t pid)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->v[i].pid == pid;
	return n;
}

/* RUNS subjects of one variant; every one must end with its 15 events
 * after the fight and an empty file (but for raw calls at soft == hard:
 * *landed counts the bytes there).  Returns the race's events read. */
static size_t fight(const char *const how[3], const char *rounds, size_t *landed)
{
	int ready[2], go[2], st;
	pid_t pids[RUNS];
	struct reader r;
	struct revs ev = { 0 };
	char c, text[32], path[64];

	ck_assert_int_eq(pipe2(ready, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(go, O_CLOEXEC), 0);
	reader_open(&r, "reliab_stuck", 0);
	reader_enable(&r, TP_USER);
	for (int i = 0; i < RUNS; i++)
		pids[i] = start(i, rounds, how, ready[1], go[0]);
	close(ready[1]);
	close(go[0]);
	/* All fought (or died): the race's events are in, only the calls
	 * after it are to come. */
	for (int i = 0; i < RUNS && read(ready[0], &c, 1) == 1; i++)
		;
	reader_drain(&r, revs_collect, &ev);
	size_t raced = ev.n;
	revs_free(&ev);
	close(go[1]);
	close(ready[0]);
	for (int i = 0; i < RUNS; i++) {
		char diag[128] = "";

		ck_assert_int_eq(waitpid(pids[i], &st, 0), pids[i]);
		snprintf(path, sizeof path, FILE_FMT ".diag", i);
		kf_read(path, diag, sizeof diag);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s %s %s run %d: status %#x (%s)",
			      how[0], how[1], how[2], i, st, diag);
		snprintf(path, sizeof path, OUT_FMT, i);
		ck_assert_int_eq(file_size(path), 0);
		unlink(path);
		snprintf(path, sizeof path, FILE_FMT, i);
		off_t n = file_size(path);
		if (n > 0)
			*landed += (size_t)n;
		unlink(path);
	}
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	for (int i = 0; i < RUNS; i++) {
		char diag[128] = "";
		snprintf(path, sizeof path, FILE_FMT ".diag", i);
		kf_read(path, diag, sizeof diag);
		unlink(path);
		for (int t = 0; t < 3; t++) {
			for (int k = 0; k < 5; k++) {
				snprintf(text, sizeof text, "after %d %d", t, k);
				ck_assert_msg(revs_count(&ev, pids[i], text) == 1,
					      "%s %s %s run %d: \"%s\" missing (%zu events; %s)",
					      how[0], how[1], how[2], i, text, of_pid(&ev, pids[i]),
					      diag);
			}
		}
	}
	ck_assert_uint_eq(ev.n, (size_t)RUNS * 15);
	revs_free(&ev);
	return raced;
}

static void variant(const char *name, const char *const how[3])
{
	/* Replace mode: glibc's /dev/log plays no part. */
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	reg(LOG_USER | LOG_INFO);
	const char *rounds = getenv("EHSYSLOG_STUCK_ROUNDS");
	char load[64];

	if (!rounds || !*rounds)
		rounds = ROUNDS_DEFAULT;
	size_t landed = 0;
	size_t raced = fight(how, rounds, &landed);
	snprintf(load, sizeof load, "%d runs of %s rounds", RUNS, rounds);
	report(name, load,
	       "RLIMIT_NOFILE 1024 (hard equal or 4096); a thread logs at LOG_INFO while "
	       "another finds the writer's descriptor in /proc/self/fd, dup2()s a file of its "
	       "own over it and closes it", "-",
	       "%d of %d runs made all 15 events after the fight (300 ms, 1 s, 3 s later) at "
	       "the same priority; %zu race events read; %zu bytes in the program's files",
	       RUNS, RUNS, raced, landed);
}

#define VARIANT(test, nofile, calls, site)                                         \
	START_TEST(test)                                                           \
	{                                                                          \
		variant(#test, (const char *const[]){ nofile, calls, site });     \
	}                                                                          \
	END_TEST

VARIANT(stuck_syslog_libc_eq, "eq", "libc", "syslog")
VARIANT(stuck_syslog_libc_lt, "lt", "libc", "syslog")
VARIANT(stuck_syslog_raw_eq, "eq", "raw", "syslog")
VARIANT(stuck_syslog_raw_lt, "lt", "raw", "syslog")
VARIANT(stuck_native_libc_eq, "eq", "libc", "native")
VARIANT(stuck_native_libc_lt, "lt", "libc", "native")
VARIANT(stuck_native_raw_eq, "eq", "raw", "native")
VARIANT(stuck_native_raw_lt, "lt", "raw", "native")

/* A case each, so that CK_RUN_CASE can pick one. */
#define CASE(s, test)                                                              \
	do {                                                                       \
		TCase *tc = tcase_create(#test);                                   \
		tcase_set_timeout(tc, 900);                                        \
		tcase_add_test(tc, test);                                          \
		suite_add_tcase(s, tc);                                            \
	} while (0)

Suite *retry_suite(void)
{
	Suite *s = suite_create("retry");

	CASE(s, stuck_syslog_libc_eq);
	CASE(s, stuck_syslog_libc_lt);
	CASE(s, stuck_syslog_raw_eq);
	CASE(s, stuck_syslog_raw_lt);
	CASE(s, stuck_native_libc_eq);
	CASE(s, stuck_native_libc_lt);
	CASE(s, stuck_native_raw_eq);
	CASE(s, stuck_native_raw_lt);
	return s;
}
