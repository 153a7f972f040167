/* SPDX-License-Identifier: MIT */
/*
 * Unloading and privilege: dlclose() leaves no enable word for the kernel
 * to write into; a setuid program ignores the environment's settings.
 */
#define _GNU_SOURCE 1
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "reliability/reader.h"
#include "reliability/reliab.h"

static const char *builddir(void)
{
	const char *b = getenv("top_builddir");
	return b ? b : ".";
}

START_TEST(dlclose_leaves_no_enable_word)
{
	char lib[4096], prog[4096], enable[4096];
	struct reader r;
	struct revs ev = { 0 };
	int st;
	pid_t pid;

	snprintf(lib, sizeof lib, "%s/.libs/libehsyslog.so", builddir());
	snprintf(prog, sizeof prog, "%s/tests/reliability/dlopen_user", builddir());
	reg(LOG_LOCAL6 | LOG_INFO);
	reader_open(&r, "reliab_dlclose", 0);
	reader_enable(&r, TP_LOCAL6);
	char *dir = reader_dir(&r);
	ck_assert_ptr_nonnull(dir);
	snprintf(enable, sizeof enable, "%s/events/user_events/%s/enable", dir, TP_LOCAL6);
	free(dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execl(prog, prog, lib, enable, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st), "dlopen_user died: %#x", st);
	ck_assert_msg(WEXITSTATUS(st) != 1, "the kernel wrote into memory of the unloaded library");
	ck_assert_msg(WEXITSTATUS(st) != 2, "the library stayed mapped after dlclose");
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	ck_assert_uint_eq(revs_count(&ev, pid, "through dlopen"), 1);
	revs_free(&ev);
	report("dlclose_leaves_no_enable_word", "one event through a dlopen()ed library",
	       "dlclose(), then zeroed pages mapped where the library was, then the "
	       "event disabled and enabled again", "-",
	       "event arrived; library unmapped; pages untouched by the kernel");
}
END_TEST

/* Where the program's dup2() is libc's own, the writer checks its
 * descriptor before each traced write.  soft == hard: the descriptor is
 * below the limit, where dup2() can reach it. */
START_TEST(dlopen_descriptor_replaced)
{
	static const char file[] = "/tmp/reliab-dlopen-dup2";
	char lib[4096], prog[4096], text[32];
	struct reader r;
	struct revs ev = { 0 };
	int st;
	pid_t pid;

	snprintf(lib, sizeof lib, "%s/.libs/libehsyslog.so", builddir());
	snprintf(prog, sizeof prog, "%s/tests/reliability/dlopen_dup2", builddir());
	unlink(file);
	reg(LOG_LOCAL6 | LOG_INFO);
	reader_open(&r, "reliab_dlopen_dup2", 0);
	reader_enable(&r, TP_LOCAL6);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		set_nofile(1024, 1024);
		execl(prog, prog, lib, file, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st), "dlopen_dup2 died: %#x", st);
	ck_assert_msg(WEXITSTATUS(st) != 1, "a byte of ours reached the program's file");
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	ck_assert_uint_eq(revs_count(&ev, pid, "before dup2"), 1);
	for (int i = 0; i < 5; i++) {
		snprintf(text, sizeof text, "after dup2 %d", i);
		ck_assert_msg(revs_count(&ev, pid, text) == 1, "\"%s\" missing", text);
	}
	revs_free(&ev);
	unlink(file);
	report("dlopen_descriptor_replaced", "6 events through a dlopen()ed library",
	       "dup2() of the program's file over the library's descriptor, which the "
	       "library's wrappers cannot see there", "-",
	       "0 bytes of ours in the program's file; 6 of 6 events arrived");
}
END_TEST

START_TEST(secure_execution_ignores_environment)
{
	static const char copy[] = "/tmp/reliab-setuid";
	char buf[65536];
	struct reader r;
	struct revs ev = { 0 };
	int in, out, st;
	ssize_t n;
	pid_t pid;

	/* A setuid-root copy of this program, run by nobody. */
	in = open(self_exe, O_RDONLY);
	out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ck_assert_int_ge(in, 0);
	ck_assert_int_ge(out, 0);
	while ((n = read(in, buf, sizeof buf)) > 0)
		ck_assert_int_eq(write(out, buf, (size_t)n), n);
	close(in);
	close(out);
	ck_assert_int_eq(chmod(copy, 04755), 0);
	int cfg = open("/tmp/reliab-evil.conf", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	ck_assert_int_ge(cfg, 0);
	ck_assert_int_eq(write(cfg, "provider = EvilConf\n", 20), 20);
	close(cfg);

	reg(LOG_LOCAL6 | LOG_INFO);
	reader_open(&r, "reliab_secure", 0);
	reader_enable(&r, TP_LOCAL6);
	unlink("/tmp/reliab-secure-out");
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *env[] = { (char *)"EHSYSLOG_PROVIDER=EvilEnv", (char *)"EHSYSLOG_DISABLE=yes",
				(char *)"EHSYSLOG_CONFIG=/tmp/reliab-evil.conf",
				/* Honoured, it would leave the writer no tracefs. */
				(char *)"EHSYSLOG_TRACEFS=/tmp/reliab-no-tracefs", NULL };
		int fd = open("/tmp/reliab-secure-out", O_WRONLY | O_CREAT | O_APPEND, 0666);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || setgroups(0, NULL) < 0 ||
		    setgid(65534) < 0 || setuid(65534) < 0)
			_exit(126);
		execve(copy, (char *[]){ (char *)copy, (char *)"subject", (char *)"log",
					 (char *)"secure", (char *)"3", (char *)"6", NULL }, env);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "subject status %#x", st);
	ck_assert_int_eq(file_size("/tmp/reliab-secure-out"), 0);
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	for (int i = 0; i < 3; i++) {
		char text[32];
		snprintf(text, sizeof text, "secure %d", i);
		ck_assert_msg(revs_count(&ev, pid, text) == 1, "%s missing", text);
	}
	/* Neither provider was ever registered. */
	ck_assert_ptr_nonnull(kf_read(TRACING "/user_events_status", buf, sizeof buf));
	ck_assert_ptr_null(strstr(buf, "EvilEnv"));
	ck_assert_ptr_null(strstr(buf, "EvilConf"));
	unlink(copy);
	revs_free(&ev);
	report("secure_execution_ignores_environment", "3 calls from a setuid-root program run by uid 65534",
	       "-", "EHSYSLOG_PROVIDER, EHSYSLOG_DISABLE=yes, EHSYSLOG_CONFIG (a world-writable "
	       "file) and EHSYSLOG_TRACEFS (a missing directory) in its environment",
	       "all 3 events on the default provider; neither the environment's nor the "
	       "file's provider registered; nothing printed");
}
END_TEST

/* A privilege-separated daemon: root logs, forks, and the worker drops to
 * nobody.  The descriptor root opened must not let the worker register or
 * write anything it could not by itself; once it may open
 * user_events_data itself, its events arrive. */
static void drop_case(const char *expect, int want_dropped)
{
	const char *provider = "ReliabDrop";
	char tp[64];
	struct reader r;
	struct revs ev = { 0 };
	int st;
	pid_t pid;

	setenv("EHSYSLOG_PROVIDER", provider, 1);
	snprintf(tp, sizeof tp, "%s_L4K200000", provider);
	reg(LOG_LOCAL5 | LOG_INFO);
	reader_open(&r, "reliab_drop", 0);
	reader_enable(&r, tp);
	unlink("/tmp/reliab-drop-output");
	pid = run_subject(&st, "/tmp/reliab-drop-output",
			  (char *[]){ (char *)"drop", (char *)provider, (char *)expect, NULL });
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: subject status %#x", expect, st);
	ck_assert_int_eq(file_size("/tmp/reliab-drop-output"), 0);
	reader_drain(&r, revs_collect, &ev);
	reader_close(&r);
	ck_assert_uint_eq(revs_count(&ev, pid, "root"), 1);
	ck_assert_uint_eq(revs_count(&ev, 0, "dropped"), (size_t)want_dropped);
	ck_assert_uint_eq(ev.n, 1 + (size_t)want_dropped);
	revs_free(&ev);
}

START_TEST(privileges_dropped_after_fork)
{
	struct stat dir, data;

	drop_case("denied", 0);
	ck_assert_int_eq(stat(TRACING, &dir), 0);
	ck_assert_int_eq(stat(TRACING "/user_events_data", &data), 0);
	ck_assert_int_eq(chmod(TRACING, (dir.st_mode & 07777) | 0001), 0);
	ck_assert_int_eq(chmod(TRACING "/user_events_data", (data.st_mode & 07777) | 0002), 0);
	drop_case("allowed", 1);
	chmod(TRACING "/user_events_data", data.st_mode & 07777);
	chmod(TRACING, dir.st_mode & 07777);
	report("privileges_dropped_after_fork", "3 calls, twice",
	       "root logs, forks, the child calls setresuid(65534...)", "-",
	       "the child registered nothing (user_events_status) and wrote no event while "
	       "user_events_data was closed to it; once o+x/o+w, its event arrived");
}
END_TEST

Suite *security_suite(void)
{
	Suite *s = suite_create("security");
	TCase *tc = tcase_create("security");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, dlclose_leaves_no_enable_word);
	tcase_add_test(tc, dlopen_descriptor_replaced);
	tcase_add_test(tc, secure_execution_ignores_environment);
	tcase_add_test(tc, privileges_dropped_after_fork);
	suite_add_tcase(s, tc);
	return s;
}
