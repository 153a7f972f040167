/* SPDX-License-Identifier: MIT */
/*
 * The writer where user_events cannot be used (this host's kernel lacks
 * it): silent no-op, errno kept, no syscall once the failure is known,
 * retry only on request, the size policy, and a non-tracefs file refused.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ehsyslog/user_events.h"
#include "user_events/internal.h"
#include "nosyscall.h"

static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterTest_L4K1");
static struct ue_tracepoint tp2 = UE_TRACEPOINT_INIT("WriterTest_L2K1");

static void skip_if_user_events(void)
{
	if (access(UE_FIXED_PATH, F_OK) == 0) {
		printf("skip: this host has user_events; the kernel tests cover it\n");
		exit(77);
	}
}

START_TEST(first_use_fails_silently)
{
	struct ue_status st;

	ue_status(&st);
	ck_assert_int_eq(st.state, UE_STATUS_UNUSED);
	ck_assert_uint_eq(tp.state, UE_STATE_UNREGISTERED);
	errno = EXDEV;
	ck_assert(!ue_tracepoint_active(&tp));
	ck_assert_int_eq(errno, EXDEV);
	ck_assert_uint_eq(tp.state, 0);
	ue_status(&st);
	ck_assert_int_eq(errno, EXDEV);
	ck_assert(st.state == UE_STATUS_NO_TRACEFS || st.state == UE_STATUS_NO_USER_EVENTS);
	ck_assert_int_eq(st.error, ENOENT);
	ck_assert_uint_eq(st.registered, 0);
	ck_assert_uint_eq(st.failed, 1);
	ck_assert_str_eq(ue_status_string(st.state),
			 st.state == UE_STATUS_NO_TRACEFS ? "tracefs not mounted"
							  : "kernel without user_events");
}
END_TEST

static void check_many(void *arg)
{
	struct ue_tracepoint *t = arg;
	char ev[16] = { 0 };
	struct iovec iov[2] = { { NULL, 0 }, { ev, sizeof ev } };

	for (int i = 0; i < 10000; i++) {
		if (ue_tracepoint_active(t) || ue_tracepoint_write(t, iov, 2) != 0)
			abort();
	}
}

static void get_pid(void *arg)
{
	(void)arg;
	syscall(SYS_getpid);
}

/* Once the failure is known, a check makes no syscall at all: the next
 * tracepoint's first use included. */
START_TEST(failure_costs_no_syscall)
{
	ck_assert_int_eq(syscalls_made(get_pid, NULL), 1);	/* the probe counts */
	ck_assert(!ue_tracepoint_active(&tp));
	ck_assert_int_eq(syscalls_made(check_many, &tp), 0);
	/* tp2's first use must take the lock but not retry the open */
	ck_assert_int_eq(syscalls_made(check_many, &tp2), 0);
}
END_TEST

START_TEST(retry_on_request_only)
{
	struct ue_status st;

	ck_assert(!ue_tracepoint_active(&tp));
	ck_assert(!ue_tracepoint_active(&tp));
	errno = ERANGE;
	ck_assert_int_eq(ue_retry(), 0);
	ck_assert_int_eq(errno, ERANGE);
	ue_status(&st);
	ck_assert_int_eq(st.state, UE_STATUS_UNUSED);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert_uint_eq(tp.state, UE_STATE_UNREGISTERED);
	ck_assert(!ue_tracepoint_active(&tp));
	ue_status(&st);
	ck_assert(st.state == UE_STATUS_NO_TRACEFS || st.state == UE_STATUS_NO_USER_EVENTS);
	ck_assert_uint_eq(st.failed, 1);
}
END_TEST

/* Nothing on stdout or stderr, whatever is called. */
START_TEST(no_output)
{
	int fds[2], status;
	char buf[64];
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct ue_status st;
		struct iovec iov[2] = { { NULL, 0 }, { buf, 8 } };

		dup2(fds[1], 1);
		dup2(fds[1], 2);
		ue_tracepoint_active(&tp);
		ue_tracepoint_register(&tp2, 0);
		ue_tracepoint_write(&tp, iov, 2);
		ue_status(&st);
		ue_retry();
		ue_tracepoint_active(&tp);
		ue_close();
		_exit(0);
	}
	close(fds[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(read(fds[0], buf, sizeof buf), 0);
	close(fds[0]);
}
END_TEST

START_TEST(explicit_register_reports)
{
	errno = EDOM;
	ck_assert_int_eq(ue_tracepoint_register(&tp, 0), -ENOENT);
	ck_assert_int_eq(errno, EDOM);
	ck_assert_uint_eq(tp.state, UE_STATE_UNREGISTERED);	/* left as it was */
	ck_assert_int_eq(ue_tracepoint_register(&tp, 0x4), -EINVAL);
}
END_TEST

static void *first_use(void *arg)
{
	return (void *)(uintptr_t)ue_tracepoint_active(arg);
}

START_TEST(threads_first_use_together)
{
	static struct ue_tracepoint many[4] = {
		UE_TRACEPOINT_INIT("T_L1K1"), UE_TRACEPOINT_INIT("T_L2K1"),
		UE_TRACEPOINT_INIT("T_L3K1"), UE_TRACEPOINT_INIT("T_L4K1"),
	};
	pthread_t th[16];
	struct ue_status st;
	void *r;

	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, first_use, &many[i % 4]), 0);
	for (int i = 0; i < 16; i++) {
		ck_assert_int_eq(pthread_join(th[i], &r), 0);
		ck_assert_ptr_null(r);
	}
	ue_status(&st);
	ck_assert_uint_eq(st.failed, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(many[i].state, 0);
}
END_TEST

/* The size policy comes before any descriptor is looked at: a tracepoint
 * made to look enabled but not registered shows which check answered. */
START_TEST(size_policy)
{
	static uint8_t ev[UE_EVENT_MAX + 1];
	struct ue_tracepoint fake = UE_TRACEPOINT_INIT("Fake_L4K1");
	struct iovec iov[3] = { { NULL, 0 }, { ev, 8 }, { ev + 8, UE_EVENT_MAX - 8 } };
	struct ue_status st;

	ck_assert_int_eq(ue_tracepoint_write(&fake, iov, 3), 0);	/* not enabled */
	fake.state = UE_STATE_ENABLED;
	errno = EXDEV;
	ck_assert_int_eq(ue_tracepoint_write(&fake, iov, 3), -ENOTCONN);
	ck_assert_int_eq(errno, EXDEV);
	iov[2].iov_len++;
	ck_assert_int_eq(ue_tracepoint_write(&fake, iov, 3), -EMSGSIZE);
	iov[2].iov_len = SIZE_MAX;	/* a sum that would wrap */
	ck_assert_int_eq(ue_tracepoint_write(&fake, iov, 3), -EMSGSIZE);
	iov[1].iov_len = 7;
	ck_assert_int_eq(ue_tracepoint_write(&fake, iov, 2), -EINVAL);
	ck_assert_int_eq(ue_tracepoint_write(&fake, iov, 1), -EINVAL);
	ck_assert_int_eq(errno, EXDEV);
	ue_status(&st);
	ck_assert_uint_eq(st.oversize, 2);

	/* The same policy when the caller gives the length. */
	iov[1].iov_len = 8;
	iov[2].iov_len = UE_EVENT_MAX - 8;
	fake.state = 0;
	ck_assert_int_eq(ue_tracepoint_write_sized(&fake, iov, 3, UE_EVENT_MAX), 0);
	fake.state = UE_STATE_ENABLED;
	ck_assert_int_eq(ue_tracepoint_write_sized(&fake, iov, 3, UE_EVENT_MAX), -ENOTCONN);
	ck_assert_int_eq(ue_tracepoint_write_sized(&fake, iov, 3, UE_EVENT_MAX + 1), -EMSGSIZE);
	ck_assert_int_eq(ue_tracepoint_write_sized(&fake, iov, 3, SIZE_MAX), -EMSGSIZE);
	ck_assert_int_eq(ue_tracepoint_write_sized(&fake, iov, 2, 7), -EINVAL);
	ck_assert_int_eq(ue_tracepoint_write_sized(&fake, iov, 1, 8), -EINVAL);
	ck_assert_int_eq(ue_tracepoint_write_sized(&fake, iov, IOV_MAX + 1, 8), -EINVAL);
	ck_assert_int_eq(errno, EXDEV);
	ue_status(&st);
	ck_assert_uint_eq(st.oversize, 4);
}
END_TEST

/* A file that is not on tracefs is never used, even at the right path. */
START_TEST(non_tracefs_file_refused)
{
	char path[] = "/tmp/ue_fake_data.XXXXXX";
	char ev[8] = { 7, 0, 0, 0, 0, 0, 0, 4 };
	struct iovec iov[2] = { { NULL, 0 }, { ev, sizeof ev } };
	struct ue_status st;
	struct stat sb;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ue__set_paths(path, "/nonexistent");
	ck_assert(!ue_tracepoint_active(&tp));
	tp.state = UE_STATE_ENABLED;	/* even if it looked enabled */
	ck_assert_int_eq(ue_tracepoint_write(&tp, iov, 2), -ENOTCONN);
	ue_status(&st);
	ck_assert_int_eq(st.state, UE_STATUS_ERROR);
	ck_assert_int_eq(st.error, ENOTTY);
	ck_assert_str_eq(st.path, path);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_eq(sb.st_size, 0);
	unlink(path);
	ue__set_paths(NULL, NULL);
}
END_TEST

START_TEST(status_strings)
{
	ck_assert_str_eq(ue_status_string(UE_STATUS_UNUSED), "not used yet");
	ck_assert_str_eq(ue_status_string(UE_STATUS_OK), "ok");
	ck_assert_str_eq(ue_status_string(UE_STATUS_NO_PERMISSION),
			 "no permission to open user_events_data");
	ck_assert_str_eq(ue_status_string(UE_STATUS_ERROR), "error");
	ck_assert_str_eq(ue_status_string(99), "unknown state");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("user_events no-op");
	TCase *tc = tcase_create("noop");
	skip_if_user_events();
	tcase_add_test(tc, first_use_fails_silently);
	tcase_add_test(tc, failure_costs_no_syscall);
	tcase_add_test(tc, retry_on_request_only);
	tcase_add_test(tc, no_output);
	tcase_add_test(tc, explicit_register_reports);
	tcase_add_test(tc, threads_first_use_together);
	tcase_add_test(tc, size_policy);
	tcase_add_test(tc, non_tracefs_file_refused);
	tcase_add_test(tc, status_strings);
	suite_add_tcase(s, tc);
	return check_run(s);
}
