/* SPDX-License-Identifier: MIT */
/*
 * Faults met before or between logging calls: no descriptors left, no
 * permission, the kernel's event limit reached, no tracefs; dlclose();
 * secure execution.  Each time the calls must stay silent no-ops (no
 * crash, errno kept, nothing printed) and events must resume once the
 * condition clears (after openlog(), the library's retry point).
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sched.h>
#include <syslog.h>
#include <unistd.h>

#include <ehsyslog/user_events.h>

#include "reliability/reader.h"
#include "reliability/reliab.h"

#define OUT "/tmp/reliab-subject-output"

/* The subject's 5 "denied" events are absent, its 5 "resumed" present,
 * it exited 0 and printed nothing. */
static void assert_resumed(struct reader *r, pid_t pid, int st)
{
	struct revs ev = { 0 };
	char text[32];

	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "subject status %#x", st);
	ck_assert_int_eq(file_size(OUT), 0);
	reader_drain(r, revs_collect, &ev);
	for (int i = 0; i < 5; i++) {
		snprintf(text, sizeof text, "denied %d", i);
		ck_assert_uint_eq(revs_count(&ev, pid, text), 0);
		snprintf(text, sizeof text, "resumed %d", i);
		ck_assert_msg(revs_count(&ev, pid, text) == 1, "%s missing", text);
	}
	ck_assert_uint_eq(ev.n, 5);
	revs_free(&ev);
}

/* A subject that runs on its own. */
static void simple_fault(const char *what, const char *inst)
{
	struct reader r;
	int st;
	pid_t pid;

	unlink(OUT);
	reg(LOG_LOCAL4 | LOG_INFO);
	reader_open(&r, inst, 0);
	reader_enable(&r, TP_LOCAL4);
	pid = run_subject(&st, OUT, (char *[]){ (char *)what, NULL });
	assert_resumed(&r, pid, st);
	reader_close(&r);
}

START_TEST(nofile_exhausted)
{
	simple_fault("rlimit", "reliab_rlimit");
	report("nofile_exhausted", "5 calls denied, 5 after", "RLIMIT_NOFILE 0 before the first log",
	       "-", "0 of 5 events while denied (the calls passed on to glibc), nothing "
	       "printed; 5 of 5 after the limit was restored and openlog()");
}
END_TEST

START_TEST(tracefs_not_mounted)
{
	simple_fault("tracefs", "reliab_tracefs");
	report("tracefs_not_mounted", "5 calls denied, 5 after",
	       "no tracefs or debugfs mounted in the process's namespace", "-",
	       "0 of 5 events while unmounted, nothing printed; 5 of 5 after mounting "
	       "tracefs and openlog()");
}
END_TEST

/* A subject that waits between its two halves while the test changes
 * the condition with change(undo = 0), then restores it (undo = 1). */
static pid_t paused_fault(const char *what, void (*change)(int undo), int *st,
			  struct reader *r, const char *tp, int pri)
{
	int go[2], ready[2];
	char in[16], out[16], c;
	pid_t pid;

	unlink(OUT);
	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(ready), 0);
	snprintf(in, sizeof in, "%d", go[0]);
	snprintf(out, sizeof out, "%d", ready[1]);
	change(0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(OUT, O_WRONLY | O_CREAT | O_APPEND, 0666);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execl(self_exe, self_exe, "subject", what, in, out, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	change(1);
	reg(pri);
	reader_enable(r, tp);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(waitpid(pid, st, 0), pid);
	close(go[1]);
	close(ready[0]);
	return pid;
}

static void write_file(const char *path, const char *text)
{
	ck_assert_int_eq(kf_write(path, text), 0);
}

static struct stat dir_st, data_st;

static void let_nobody_write(int undo)
{
	if (!undo) {
		ck_assert_int_eq(stat(TRACING, &dir_st), 0);
		ck_assert_int_eq(stat(TRACING "/user_events_data", &data_st), 0);
		/* Searchable, but user_events_data not writable by others. */
		ck_assert_int_eq(chmod(TRACING, (dir_st.st_mode & 07777) | 0001), 0);
		ck_assert_int_eq(chmod(TRACING "/user_events_data", data_st.st_mode & 07770), 0);
	} else {
		ck_assert_int_eq(chmod(TRACING "/user_events_data", (data_st.st_mode & 07777) | 0002), 0);
	}
}

START_TEST(data_file_unwritable)
{
	struct reader r;
	int st;
	pid_t pid;

	reader_open(&r, "reliab_perm", 0);
	pid = paused_fault("nonroot", let_nobody_write, &st, &r, TP_LOCAL4, LOG_LOCAL4 | LOG_INFO);
	chmod(TRACING "/user_events_data", data_st.st_mode & 07777);
	chmod(TRACING, dir_st.st_mode & 07777);
	assert_resumed(&r, pid, st);
	reader_close(&r);
	report("data_file_unwritable", "5 calls denied, 5 after",
	       "user_events_data not writable by the process (uid 65534)", "-",
	       "0 of 5 events while denied, errno kept, nothing printed; 5 of 5 after "
	       "chmod o+w and openlog()");
}
END_TEST

static char old_max[32];

static void limit_events(int undo)
{
	if (!undo) {
		FILE *f = fopen("/proc/sys/kernel/user_events_max", "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(fgets(old_max, sizeof old_max, f));
		fclose(f);
		write_file("/proc/sys/kernel/user_events_max", "0\n");
	} else {
		write_file("/proc/sys/kernel/user_events_max", old_max);
	}
}

START_TEST(user_events_max_reached)
{
	struct reader r;
	int st;
	pid_t pid;

	/* A provider of its own: its events do not exist before the
	 * subject registers them, so the limit applies. */
	setenv("EHSYSLOG_PROVIDER", "ReliabMax", 1);
	reader_open(&r, "reliab_max", 0);
	pid = paused_fault("max", limit_events, &st, &r, "ReliabMax_L4K200000",
			   LOG_LOCAL5 | LOG_INFO);
	struct revs ev = { 0 };
	char text[32];
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "subject status %#x", st);
	ck_assert_int_eq(file_size(OUT), 0);
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	for (int i = 0; i < 5; i++) {
		snprintf(text, sizeof text, "resumed %d", i);
		ck_assert_msg(revs_count(&ev, pid, text) == 1, "%s missing", text);
	}
	ck_assert_uint_eq(ev.n, 5);
	revs_free(&ev);
	report("user_events_max_reached", "5 calls denied, 5 after",
	       "kernel.user_events_max set to 0 before the first log", "-",
	       "registration refused, calls silent, errno kept, nothing printed; 5 of 5 "
	       "after restoring %.*s and openlog()", (int)strcspn(old_max, "\n"), old_max);
}
END_TEST

/* A traced daemon closes every descriptor (ours too), fills
 * them all with its own file, logs, then frees them and logs again.  The
 * writer's reopen fails with EMFILE while the kernel still flips the word;
 * it must come back by itself, without openlog(), and never write into
 * the daemon's file. */
static const char fds_file[] = "/tmp/reliab-fds-file";

/* Runs the subject WHAT (a daemon taking every descriptor) while the
 * tracepoints TPS are traced; it must succeed and write nothing, to its
 * output or its own file.  Its events go to *ev; returns its pid. */
static pid_t run_fds_daemon(const char *what, const char *how, const char *const tps[],
			    struct revs *ev)
{
	struct reader r;
	int st;
	pid_t pid;

	unlink(OUT);
	unlink(fds_file);
	reader_open(&r, "reliab_fds", 0);
	for (size_t i = 0; tps[i]; i++)
		reader_enable(&r, tps[i]);
	pid = run_subject(&st, OUT, (char *[]){ (char *)what, (char *)fds_file, (char *)how, NULL });
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s %s: subject status %#x", what,
		      how ? how : "", st);
	ck_assert_int_eq(file_size(OUT), 0);
	ck_assert_int_eq(file_size(fds_file), 0);
	reader_drain(&r, revs_collect, ev);
	reader_close(&r);
	unlink(fds_file);
	return pid;
}

START_TEST(descriptors_taken_then_freed)
{
	struct revs ev = { 0 };
	pid_t pid;

	reg(LOG_DAEMON | LOG_INFO);
	pid = run_fds_daemon("fds", NULL, (const char *const[]){ "Syslog_L4K8", NULL }, &ev);
	revs_sort(&ev);
	ck_assert_uint_eq(revs_count(&ev, pid, "before close"), 1);
	ck_assert_uint_eq(revs_count(&ev, pid, "after close"), 0);
	ck_assert_msg(revs_count(&ev, pid, "recovered") == 1, "\"recovered\" missing");
	ck_assert_uint_eq(ev.n, 2);
	ck_assert(ev.v[0].msg_len == 12 && memcmp(ev.v[0].msg, "before close", 12) == 0);
	for (size_t i = 0; i < ev.n; i++) {
		ck_assert_str_eq(ev.v[i].name, "Syslog_L4K8");
		ck_assert_uint_eq(ev.v[i].severity, LOG_INFO);
		ck_assert_uint_eq(ev.v[i].facility, LOG_DAEMON >> 3);
	}
	revs_free(&ev);
	report("descriptors_taken_then_freed", "3 calls",
	       "close_range(3, ~0U), every descriptor up to RLIMIT_NOFILE 4096 then dup2()ed "
	       "to the program's file, freed again", "-",
	       "\"before close\" and \"recovered\" arrived without openlog(), "
	       "\"after close\" dropped, 0 bytes in the program's file");
}
END_TEST

/* The same daemon frees its descriptors through libc and logs at once:
 * each call that frees one lifts the writer's retry pause, so the next
 * traced call opens again without waiting. */
START_TEST(descriptors_freed_through_libc)
{
	static const char *const hows[] = { "close_range", "closefrom", "close", "fclose",
					    "setrlimit" };

	reg(LOG_DAEMON | LOG_INFO);
	for (size_t i = 0; i < sizeof hows / sizeof *hows; i++) {
		struct revs ev = { 0 };
		pid_t pid = run_fds_daemon("fds-freed", hows[i],
					   (const char *const[]){ "Syslog_L4K8", NULL }, &ev);

		ck_assert_uint_eq(revs_count(&ev, pid, "before close"), 1);
		ck_assert_uint_eq(revs_count(&ev, pid, "after close"), 0);
		ck_assert_msg(revs_count(&ev, pid, "recovered") == 1, "%s: \"recovered\" missing",
			      hows[i]);
		ck_assert_uint_eq(ev.n, 2);
		revs_free(&ev);
	}
	report("descriptors_freed_through_libc", "3 calls, 5 times",
	       "as descriptors_taken_then_freed, the descriptors freed by libc's close_range(), "
	       "closefrom(), close(), fclose() or a higher RLIMIT_NOFILE", "-",
	       "\"recovered\", logged right after, arrived each time; 0 bytes in the program's file");
}
END_TEST

/* The same daemon, but a tracepoint first used while the descriptors are
 * taken (LOG_ERR) fails too, and the first call after they are freed is
 * another tracepoint's first use (LOG_WARNING, not traced here): that
 * open must bring both lost tracepoints back at once, no pause needed. */
START_TEST(first_use_after_freed_revives_all)
{
	struct revs ev = { 0 };
	pid_t pid;

	reg(LOG_DAEMON | LOG_INFO);
	reg(LOG_DAEMON | LOG_ERR);
	pid = run_fds_daemon("fds-first-use", NULL, (const char *const[]){ "Syslog_L4K8", "Syslog_L2K8", NULL },
			     &ev);
	ck_assert_uint_eq(revs_count(&ev, pid, "before close"), 1);
	ck_assert_uint_eq(revs_count(&ev, pid, "lost error"), 0);
	ck_assert_uint_eq(revs_count(&ev, pid, "after close"), 0);
	ck_assert_msg(revs_count(&ev, pid, "error back") == 1, "\"error back\" missing");
	ck_assert_msg(revs_count(&ev, pid, "recovered") == 1, "\"recovered\" missing");
	ck_assert_uint_eq(ev.n, 3);
	revs_sort(&ev);
	ck_assert_str_eq(ev.v[1].name, "Syslog_L2K8");
	ck_assert_uint_eq(ev.v[1].severity, LOG_ERR);
	ck_assert_str_eq(ev.v[2].name, "Syslog_L4K8");
	revs_free(&ev);
	report("first_use_after_freed_revives_all", "6 calls on 3 tracepoints",
	       "as descriptors_taken_then_freed, plus a first use while the descriptors "
	       "are taken and another right after they are freed", "-",
	       "\"before close\", \"error back\" and \"recovered\" arrived without "
	       "openlog() or pause; 0 bytes in the program's file");
}
END_TEST

/* An EHS_EMIT site keeps a copy of its tracepoint's channel: every
 * change of the writer's descriptor, and openlog moving the facility,
 * must reach it (subjects.c, native_copy). */
START_TEST(native_site_follows_the_writer)
{
	static const char *const words[] = { "before", "recovered", "limit", "moved" };
	struct revs ev = { 0 };
	char text[32];
	pid_t pid;

	reg(LOG_DAEMON | LOG_INFO);
	reg(LOG_LOCAL5 | LOG_INFO);
	pid = run_fds_daemon("native-copy", NULL,
			     (const char *const[]){ "Syslog_L4K8", TP_LOCAL5, NULL }, &ev);
	for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
		for (int i = 0; i < 3; i++) {
			snprintf(text, sizeof text, "%s %d", words[w], i);
			ck_assert_msg(revs_count(&ev, pid, text) == 1, "\"%s\" missing", text);
			snprintf(text, sizeof text, "after %d", i);
			ck_assert_uint_eq(revs_count(&ev, pid, text), 0);
		}
	}
	ck_assert_uint_eq(ev.n, 12);
	revs_sort(&ev);
	for (size_t i = 0; i < ev.n; i++)
		ck_assert_str_eq(ev.v[i].name, i < 9 ? "Syslog_L4K8" : TP_LOCAL5);
	revs_free(&ev);
	report("native_site_follows_the_writer", "15 calls from one EHS_EMIT site",
	       "as descriptors_taken_then_freed, then a higher RLIMIT_NOFILE and openlog() "
	       "to another facility", "-",
	       "each event but the 3 with no descriptor arrived once, on its facility's "
	       "tracepoint; 0 bytes in the program's file");
}
END_TEST

Suite *faults_suite(void)
{
	Suite *s = suite_create("faults");
	TCase *tc = tcase_create("faults");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, nofile_exhausted);
	tcase_add_test(tc, tracefs_not_mounted);
	tcase_add_test(tc, data_file_unwritable);
	tcase_add_test(tc, user_events_max_reached);
	tcase_add_test(tc, descriptors_taken_then_freed);
	tcase_add_test(tc, first_use_after_freed_revives_all);
	tcase_add_test(tc, descriptors_freed_through_libc);
	tcase_add_test(tc, native_site_follows_the_writer);
	suite_add_tcase(s, tc);
	return s;
}
