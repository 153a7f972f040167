/* SPDX-License-Identifier: MIT */
/*
 * Finding user_events_data: fixed path, tracefs and debugfs mounts read
 * from a fake mounts file, the descriptor's number and flags, and a file
 * that is not on tracefs refused before any write.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "user_events/internal.h"

static char dir[64];
static char fixed[128];	/* missing unless a test creates it */
static char mounts[128];

static void setup(void)
{
	strcpy(dir, "/tmp/ue_discover.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chmod(dir, 0755), 0);
	snprintf(fixed, sizeof fixed, "%s/fixed_user_events_data", dir);
	snprintf(mounts, sizeof mounts, "%s/mounts", dir);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Creates <dir>/<sub>/user_events_data (sub may contain '/'). */
static void make_data(const char *sub, char *out, size_t cap)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", dir, sub);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(out, cap, "%s/%s/user_events_data", dir, sub);
	write_file(out, "");
}

/* ue__fd_raise() for whatever fd holds. */
static int raise_fd(int fd, bool *beyond)
{
	struct stat st;

	ck_assert_int_eq(fstat(fd, &st), 0);
	return ue__fd_raise(fd, beyond, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
}

static void discover(struct ue_found *f)
{
	struct ue_paths p = { fixed, mounts, false };

	ue__discover(&p, f);
}

/* With text as the mounts file, the search opens want. */
static void found_with_mounts(const char *text, const char *want)
{
	struct ue_found f;

	write_file(mounts, text);
	discover(&f);
	ck_assert_int_eq(f.state, UE_STATUS_OK);
	ck_assert_str_eq(f.path, want);
	close(f.fd);
}

START_TEST(fixed_path_first)
{
	char other[200], line[300];
	struct ue_found f;
	int flags;

	write_file(fixed, "");
	make_data("tracing", other, sizeof other);
	snprintf(line, sizeof line, "tracefs %s/tracing tracefs rw 0 0\n", dir);
	write_file(mounts, line);
	discover(&f);
	ck_assert_int_eq(f.state, UE_STATUS_OK);
	ck_assert_str_eq(f.path, fixed);
	ck_assert_int_ge(f.fd, 0);
	flags = fcntl(f.fd, F_GETFL);
	ck_assert_int_eq(flags & O_ACCMODE, O_WRONLY);
	ck_assert_int_eq(fcntl(f.fd, F_GETFD), FD_CLOEXEC);
	close(f.fd);
}
END_TEST

START_TEST(tracefs_mount_with_escaped_space)
{
	char want[200], text[600];

	make_data("my tracing", want, sizeof want);
	snprintf(text, sizeof text,
		 "proc /proc proc rw 0 0\n"
		 "debugfs %s/dbg debugfs rw 0 0\n"
		 "tracefs %s/my\\040tracing tracefs rw,nosuid 0 0\n"
		 "tracefs /elsewhere tracefs rw 0 0\n", dir, dir);
	found_with_mounts(text, want);
}
END_TEST

START_TEST(debugfs_tracing_last)
{
	char want[200], text[600];

	make_data("dbg/tracing", want, sizeof want);
	snprintf(text, sizeof text,
		 "sysfs /sys sysfs rw 0 0\n"
		 "debugfs %s/dbg debugfs rw 0 0", dir);	/* no final newline */
	found_with_mounts(text, want);
}
END_TEST

/* A line longer than the reader's buffer is read through, not
 * misparsed. */
START_TEST(long_line_skipped)
{
	static char text[20000];
	char want[200];
	size_t n;

	make_data("t", want, sizeof want);
	n = (size_t)snprintf(text, sizeof text, "overlay /x overlay rw,lowerdir=");
	memset(text + n, 'a', 9000);
	n += 9000;
	snprintf(text + n, sizeof text - n, " 0 0\ntracefs %s/t tracefs rw 0 0\n", dir);
	found_with_mounts(text, want);
}
END_TEST

/* A tracefs line longer than the reader's buffer is found: a mount
 * point of 200 spaces (800 bytes escaped), options of 9000. */
START_TEST(long_tracefs_line_read)
{
	static char text[20000];
	char sub[201], want[300];
	size_t n;

	memset(sub, ' ', 200);
	sub[200] = '\0';
	make_data(sub, want, sizeof want);
	n = (size_t)snprintf(text, sizeof text, "tracefs %s/", dir);
	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "\\040");
	n += (size_t)snprintf(text + n, sizeof text - n, " tracefs rw,");
	memset(text + n, 'a', 9000);
	n += 9000;
	snprintf(text + n, sizeof text - n, " 0 0\n");
	found_with_mounts(text, want);
}
END_TEST

/* An escape is decoded wherever the reads cut it: the line before the
 * tracefs line grows a byte at a time past any buffer size up to 600. */
START_TEST(escape_cut_by_reads)
{
	static char text[1200];
	char want[200], pad[600];

	make_data("a b", want, sizeof want);
	for (size_t k = 1; k < sizeof pad; k++) {
		memset(pad, 'p', k);
		pad[k] = '\0';
		snprintf(text, sizeof text, "none /%s tmpfs rw 0 0\n"
			 "tracefs %s/a\\040b tracefs rw 0 0\n", pad, dir);
		found_with_mounts(text, want);
	}
}
END_TEST

/* A backslash that starts no escape of three octal digits is a byte of
 * the name, with whatever followed it. */
START_TEST(backslash_kept)
{
	char want[200], text[600];

	make_data("a\\9\\04x\\", want, sizeof want);
	snprintf(text, sizeof text, "tracefs %s/a\\9\\04x\\ tracefs rw 0 0\n", dir);
	found_with_mounts(text, want);
}
END_TEST

/* Only the types tracefs and debugfs count, whole; a mount point longer
 * than a path is passed over for the next. */
START_TEST(type_and_point_checked)
{
	static char text[2000];
	char want[200];
	size_t n;

	make_data("t", want, sizeof want);
	n = (size_t)snprintf(text, sizeof text,
			     "x %s/t tracefsx rw 0 0\n"
			     "x %s/t tracef rw 0 0\n"
			     "tracefs /", dir, dir);
	memset(text + n, 'l', UE_PATH_MAX);
	n += UE_PATH_MAX;
	snprintf(text + n, sizeof text - n, " tracefs rw 0 0\n"
		 "   tracefs   %s/t   tracefs\n", dir);
	found_with_mounts(text, want);
}
END_TEST

/* Where the fixed path's directory is a tracefs without the file, the
 * kernel has no user_events: the search ends there, no mounts file read
 * (here it names a directory with a user_events_data that must not be
 * opened).  Needs root to mount tracefs in a mount namespace of its own. */
START_TEST(tracefs_without_file_ends_search)
{
	char tfs[128], other[200], text[300];
	int status;
	pid_t pid;

	if (geteuid() != 0) {
		fprintf(stderr, "tracefs_without_file_ends_search: not checked: "
			"mounting tracefs needs root\n");
		return;
	}
	make_data("other", other, sizeof other);
	snprintf(text, sizeof text, "tracefs %s/other tracefs rw 0 0\n", dir);
	write_file(mounts, text);
	snprintf(tfs, sizeof tfs, "%s/tfs", dir);
	ck_assert_int_eq(mkdir(tfs, 0755), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct ue_paths p = { fixed, mounts, false };
		struct ue_found f;

		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("nodev", tfs, "tracefs", 0, NULL) < 0)
			_exit(3);
		/* A name no tracefs has, whatever this kernel's options. */
		snprintf(fixed, sizeof fixed, "%s/ehs_no_such_file", tfs);
		ue__discover(&p, &f);
		_exit(f.fd == -1 && f.state == UE_STATUS_NO_USER_EVENTS &&
		      f.error == ENOENT && strcmp(f.path, fixed) == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

START_TEST(nothing_mounted)
{
	struct ue_found f;

	write_file(mounts, "proc /proc proc rw 0 0\nsysfs /sys sysfs rw 0 0\n");
	discover(&f);
	ck_assert_int_eq(f.fd, -1);
	ck_assert_int_eq(f.state, UE_STATUS_NO_TRACEFS);
	ck_assert_int_eq(f.error, ENOENT);
	ck_assert_str_eq(f.path, fixed);
}
END_TEST

START_TEST(no_mounts_file)
{
	struct ue_found f;

	discover(&f);	/* mounts does not exist */
	ck_assert_int_eq(f.fd, -1);
	ck_assert_int_eq(f.state, UE_STATUS_NO_TRACEFS);
	ck_assert_int_eq(f.error, ENOENT);
}
END_TEST

START_TEST(permission_denied)
{
	char text[300];
	struct ue_found f;
	int status;
	pid_t pid;

	write_file(fixed, "");
	ck_assert_int_eq(chmod(fixed, 0640), 0);
	snprintf(text, sizeof text, "tracefs %s/none tracefs rw 0 0\n", dir);
	write_file(mounts, text);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* root opens anything: look as nobody */
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(3);
		discover(&f);
		_exit(f.fd == -1 && f.state == UE_STATUS_NO_PERMISSION &&
		      f.error == EACCES && strcmp(f.path, fixed) == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* Where soft == hard: moved above the first ~1000 numbers, below the
 * soft limit. */
START_TEST(fd_kept_high)
{
	struct rlimit rl;
	struct ue_found f;
	bool beyond;

	write_file(fixed, "");
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = 4096 < rl.rlim_max ? 4096 : rl.rlim_max;
	ck_assert_int_ge(rl.rlim_cur, 1024);
	rl.rlim_max = rl.rlim_cur;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	discover(&f);
	ck_assert_int_eq(f.fd, 960);
	ck_assert(!f.beyond);
	ck_assert_int_eq(fcntl(f.fd, F_GETFD), FD_CLOEXEC);
	ck_assert_int_eq(fcntl(f.fd, F_GETFL) & O_ACCMODE, O_WRONLY);
	/* The number taken: the next one is used. */
	discover(&f);
	ck_assert_int_eq(f.fd, 961);

	rl.rlim_cur = rl.rlim_max = 100;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_int_eq(raise_fd(dup(0), &beyond), 50);
	/* Everything from the floor up taken: the low number stays. */
	for (int i = 51; i < 100; i++)
		ck_assert_int_eq(dup2(0, i), i);
	int low = dup(0);
	ck_assert_int_lt(low, 50);
	ck_assert_int_eq(raise_fd(low, &beyond), low);
	ck_assert(!beyond);
}
END_TEST

/* How many descriptors the process has open. */
static size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A number that no longer holds the file it was raised or checked for
 * (another thread put its own there) is left open, and no copy of it is
 * kept. */
START_TEST(foreign_number_left_open)
{
	struct stat st;
	bool beyond;
	int fd = open(fixed, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int other = open("/dev/null", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(other, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert(ue__fd_is(fd, (uint64_t)st.st_dev, (uint64_t)st.st_ino));
	ck_assert(!ue__fd_is(other, (uint64_t)st.st_dev, (uint64_t)st.st_ino));
	ue__close_if(other, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	ck_assert_int_ge(fcntl(other, F_GETFD), 0);
	/* Raised for fixed's identity, but other holds /dev/null: the copy
	 * is closed again, other comes back for the caller's check to
	 * refuse, and stays open. */
	size_t before = open_fds();
	ck_assert_int_eq(ue__fd_raise(other, &beyond, (uint64_t)st.st_dev, (uint64_t)st.st_ino),
			 other);
	ck_assert_int_ge(fcntl(other, F_GETFD), 0);
	ck_assert_uint_eq(open_fds(), before);	/* no copy left behind */
	ue__close_if(fd, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1);
	ck_assert_int_eq(errno, EBADF);
	close(other);
}
END_TEST

static void assert_nofile(rlim_t soft, rlim_t hard)
{
	struct rlimit rl;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_uint_eq(rl.rlim_cur, soft);
	ck_assert_uint_eq(rl.rlim_max, hard);
}

/* Where soft < hard: at the soft limit itself, out of the program's
 * reach, and the limit is as it was. */
START_TEST(fd_at_soft_limit)
{
	struct rlimit rl;
	struct ue_found f;
	int first;

	write_file(fixed, "");
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = 1024;
	if (rl.rlim_max < UE_FD_BEYOND_MAX + 2) {
		/* Root may raise the hard limit; others test what it allows. */
		rlim_t had = rl.rlim_max;

		rl.rlim_max = UE_FD_BEYOND_MAX + 2;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			rl.rlim_max = had;
	}
	if (rl.rlim_max <= 1024) {
		printf("fd_at_soft_limit: hard RLIMIT_NOFILE %lu, not above 1024: "
		       "nothing to test\n", (unsigned long)rl.rlim_max);
		return;
	}
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	discover(&f);
	ck_assert_int_eq(f.fd, 1024);
	ck_assert(f.beyond);
	ck_assert_int_eq(fcntl(f.fd, F_GETFD), FD_CLOEXEC);
	ck_assert_int_eq(fcntl(f.fd, F_GETFL) & O_ACCMODE, O_WRONLY);
	assert_nofile(1024, rl.rlim_max);
	errno = 0;
	ck_assert_int_eq(dup2(0, 1024), -1);
	ck_assert_int_eq(errno, EBADF);
	/* That number taken: below the limit, as where soft == hard. */
	first = f.fd;
	discover(&f);
	ck_assert_int_eq(f.fd, 960);
	ck_assert(!f.beyond);
	close(first);
	close(f.fd);

	/* At the cap, still; above it the table would cost too much. */
	if (rl.rlim_max < UE_FD_BEYOND_MAX + 2) {
		printf("fd_at_soft_limit: hard RLIMIT_NOFILE %lu: cap not tested\n",
		       (unsigned long)rl.rlim_max);
		return;
	}
	rl.rlim_cur = UE_FD_BEYOND_MAX;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	discover(&f);
	ck_assert_int_eq(f.fd, UE_FD_BEYOND_MAX);
	ck_assert(f.beyond);
	close(f.fd);
	rl.rlim_cur = UE_FD_BEYOND_MAX + 1;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	discover(&f);
	ck_assert_int_eq(f.fd, 960);
	ck_assert(!f.beyond);
	assert_nofile(UE_FD_BEYOND_MAX + 1, rl.rlim_max);
}
END_TEST

/* The directory ue_tracefs_dir() reports for the test's paths. */
static int tracefs_dir(char *buf, size_t cap, bool env)
{
	struct ue_paths p = { fixed, mounts, env };

	return ue__tracefs_dir(&p, buf, cap);
}

/* The same order as the search: the fixed path's directory when the file
 * is there, else the first tracefs mount, else <debugfs>/tracing. */
START_TEST(tracefs_dir_order)
{
	char buf[200], want[200], text[600];

	snprintf(text, sizeof text,
		 "debugfs %s/dbg debugfs rw 0 0\n"
		 "tracefs %s/my\\040tracing tracefs rw 0 0\n", dir, dir);
	write_file(mounts, text);
	snprintf(want, sizeof want, "%s/my tracing", dir);
	ck_assert_int_eq(tracefs_dir(buf, sizeof buf, false), 0);
	ck_assert_str_eq(buf, want);

	write_file(fixed, "");
	ck_assert_int_eq(tracefs_dir(buf, sizeof buf, false), 0);
	ck_assert_str_eq(buf, dir);
	ck_assert_int_eq(tracefs_dir(buf, strlen(dir), false), -ENAMETOOLONG);
	unlink(fixed);

	/* debugfs's tracing/ only when it exists. */
	snprintf(text, sizeof text, "debugfs %s/dbg debugfs rw 0 0\n", dir);
	write_file(mounts, text);
	ck_assert_int_eq(tracefs_dir(buf, sizeof buf, false), -ENOENT);
	make_data("dbg/tracing", want, sizeof want);
	ck_assert_int_eq(tracefs_dir(buf, sizeof buf, false), 0);
	snprintf(want, sizeof want, "%s/dbg/tracing", dir);
	ck_assert_str_eq(buf, want);
}
END_TEST

/* $EHSYSLOG_TRACEFS replaces the search where the paths honour it: the
 * writer opens user_events_data there and nowhere else. */
START_TEST(env_replaces_search)
{
	char buf[200], other[200], want[200], line[300];
	struct ue_paths p = { fixed, mounts, true };
	struct ue_found f;

	write_file(fixed, "");
	make_data("tracing", other, sizeof other);
	snprintf(line, sizeof line, "tracefs %s/tracing tracefs rw 0 0\n", dir);
	write_file(mounts, line);
	make_data("env", want, sizeof want);
	snprintf(buf, sizeof buf, "%s/env", dir);
	ck_assert_int_eq(setenv("EHSYSLOG_TRACEFS", buf, 1), 0);

	ck_assert_int_eq(tracefs_dir(other, sizeof other, true), 0);
	ck_assert_str_eq(other, buf);
	ue__discover(&p, &f);
	ck_assert_int_eq(f.state, UE_STATUS_OK);
	ck_assert_str_eq(f.path, want);
	close(f.fd);

	/* Not honoured: the fixed path, as without the variable. */
	ck_assert_int_eq(tracefs_dir(other, sizeof other, false), 0);
	ck_assert_str_eq(other, dir);
	discover(&f);
	ck_assert_str_eq(f.path, fixed);
	close(f.fd);

	/* Nothing there: no tracefs, and no fallback to the search. */
	snprintf(buf, sizeof buf, "%s/none", dir);
	ck_assert_int_eq(setenv("EHSYSLOG_TRACEFS", buf, 1), 0);
	ue__discover(&p, &f);
	ck_assert_int_eq(f.fd, -1);
	ck_assert_int_eq(f.state, UE_STATUS_NO_TRACEFS);
	ck_assert_int_eq(f.error, ENOENT);

	/* Empty: as if unset. */
	ck_assert_int_eq(setenv("EHSYSLOG_TRACEFS", "", 1), 0);
	ue__discover(&p, &f);
	ck_assert_str_eq(f.path, fixed);
	close(f.fd);
	unsetenv("EHSYSLOG_TRACEFS");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("user_events discovery");
	TCase *tc = tcase_create("discover");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, fixed_path_first);
	tcase_add_test(tc, tracefs_mount_with_escaped_space);
	tcase_add_test(tc, debugfs_tracing_last);
	tcase_add_test(tc, long_line_skipped);
	tcase_add_test(tc, long_tracefs_line_read);
	tcase_add_test(tc, escape_cut_by_reads);
	tcase_add_test(tc, backslash_kept);
	tcase_add_test(tc, type_and_point_checked);
	tcase_add_test(tc, tracefs_without_file_ends_search);
	tcase_add_test(tc, nothing_mounted);
	tcase_add_test(tc, no_mounts_file);
	tcase_add_test(tc, permission_denied);
	tcase_add_test(tc, fd_kept_high);
	tcase_add_test(tc, foreign_number_left_open);
	tcase_add_test(tc, fd_at_soft_limit);
	tcase_add_test(tc, tracefs_dir_order);
	tcase_add_test(tc, env_replaces_search);
	suite_add_tcase(s, tc);
	return check_run(s);
}
