/* SPDX-License-Identifier: MIT */
/*
 * The writer's retry policy on the traced path, without user_events: a
 * tracepoint the kernel would keep enabled (its word set by hand here)
 * whose registration failed.  A transient failure (EMFILE) is retried at
 * most once per UE_RETRY_INTERVAL_MS however often the program logs; a
 * permanent one is not retried at all.  A tracepoint whose own first use
 * met the transient failure is retried by its own checks, untraced too,
 * at the same rate.  Attempts are counted in syscalls.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>

#include "ehsyslog/user_events.h"
#include "user_events/internal.h"
#include "nosyscall.h"

/* Nothing exists there: an open fails with ENOENT, or with EMFILE first
 * when no descriptor is left. */
#define NO_DATA "/nonexistent-ue-retry/user_events_data"
#define NO_MOUNTS "/nonexistent-ue-retry/mounts"

static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("Retry_L4K1");
static struct ue_tracepoint probe = UE_TRACEPOINT_INIT("Retry_L5K1");
static struct rlimit saved_nofile;

/* Every open() fails with EMFILE from now on. */
static void take_descriptors(void)
{
	struct rlimit none;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &saved_nofile), 0);
	none = saved_nofile;
	none.rlim_cur = 0;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &none), 0);
}

static void setup(void)
{
	struct ue_status st;

	ue__set_paths(NO_DATA, NO_MOUNTS);
	ue_status(&st);	/* the lock's first use: its atfork handlers now */
}

static uint64_t coarse_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);	/* vDSO: no syscall */
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* One attempt to open user_events_data, as a first use makes it. */
static void first_use(void *arg)
{
	if (ue_tracepoint_active(arg))
		abort();
}

/* tp's first use fails; then it looks traced and is written to in a
 * tight loop for ms milliseconds (restoring the descriptor limit first
 * if restore).  Every write must return -ENOTCONN and keep errno. */
static void flood(unsigned ms, int restore)
{
	char ev[8] = { 0 };
	struct iovec iov[2] = { { NULL, 0 }, { ev, sizeof ev } };
	long calls = 0;
	uint64_t end;

	first_use(&tp);
	tp.state = UE_STATE_ENABLED;	/* what the kernel's enabler keeps */
	if (restore && setrlimit(RLIMIT_NOFILE, &saved_nofile) < 0)
		abort();
	end = coarse_ms() + ms;
	do {
		errno = EXDEV;
		if (ue_tracepoint_write(&tp, iov, 2) != -ENOTCONN || errno != EXDEV)
			abort();
		calls++;
	} while (coarse_ms() < end);
	if (calls < 1000)
		abort();	/* not a flood: the test proves nothing */
}

static void flood_exhausted(void *arg)
{
	(void)arg;
	flood(5 * UE_RETRY_INTERVAL_MS + UE_RETRY_INTERVAL_MS / 2, 0);
}

static void flood_then_permanent(void *arg)
{
	(void)arg;
	flood(3 * UE_RETRY_INTERVAL_MS + UE_RETRY_INTERVAL_MS / 2, 1);
}

/* fn, 550 ms of calls after a first use that met EMFILE, makes the
 * first attempt, then one per 100 ms (a coarse clock tick shorter at
 * worst), not one per call. */
static void assert_rate_limited(void (*fn)(void *))
{
	long per_attempt, n;

	take_descriptors();
	per_attempt = syscalls_made(first_use, &probe);
	n = syscalls_made(fn, NULL);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &saved_nofile), 0);
	ck_assert_int_gt(per_attempt, 0);
	ck_assert_int_ge(n, 0);
	ck_assert_int_eq(n % per_attempt, 0);
	ck_assert_int_ge(n / per_attempt, 2);
	ck_assert_int_le(n / per_attempt, 7);
}

/* fn, calls after a first use that met EMFILE with the limit restored,
 * makes that attempt, setrlimit, one retry that finds the permanent
 * failure (ENOENT, no tracefs there), and nothing more for the last
 * 250 ms. */
static void assert_quiet_after_permanent(void (*fn)(void *))
{
	long transient, permanent, n;

	permanent = syscalls_made(first_use, &probe);
	take_descriptors();
	transient = syscalls_made(first_use, &probe);
	n = syscalls_made(fn, NULL);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &saved_nofile), 0);
	ck_assert_int_gt(transient, 0);
	ck_assert_int_gt(permanent, transient);
	ck_assert_int_eq(n, transient + 1 + permanent);
}

START_TEST(transient_failure_retried_at_limited_rate)
{
	assert_rate_limited(flood_exhausted);
}
END_TEST

START_TEST(permanent_failure_stops_retries)
{
	assert_quiet_after_permanent(flood_then_permanent);
}
END_TEST

/* tp's first use fails, then its checks run in a tight loop for ms
 * milliseconds (the descriptor limit restored first if restore): each
 * must say untraced and keep errno.  Aborts unless the word still says
 * "retry" at the end (keep) or is 0 (!keep). */
static void checks(unsigned ms, int restore, int keep)
{
	long calls = 0;
	uint64_t end;

	first_use(&tp);
	if (restore && setrlimit(RLIMIT_NOFILE, &saved_nofile) < 0)
		abort();
	end = coarse_ms() + ms;
	do {
		errno = EXDEV;
		if (ue_tracepoint_active(&tp) || errno != EXDEV)
			abort();
		calls++;
	} while (coarse_ms() < end);
	if (calls < 1000 || (keep ? tp.state != UE_STATE_RETRY : tp.state != 0))
		abort();
}

static void checks_exhausted(void *arg)
{
	(void)arg;
	checks(5 * UE_RETRY_INTERVAL_MS + UE_RETRY_INTERVAL_MS / 2, 0, 1);
}

static void checks_then_permanent(void *arg)
{
	(void)arg;
	checks(3 * UE_RETRY_INTERVAL_MS + UE_RETRY_INTERVAL_MS / 2, 1, 0);
}

/* As the two above, with nobody tracing: the checks alone retry. */
START_TEST(first_use_failure_retried_by_its_checks)
{
	assert_rate_limited(checks_exhausted);
}
END_TEST

/* And the word is 0 afterwards (checks() aborts otherwise). */
START_TEST(first_use_failure_then_permanent_goes_quiet)
{
	assert_quiet_after_permanent(checks_then_permanent);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("user_events retry");
	TCase *tc = tcase_create("retry");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, transient_failure_retried_at_limited_rate);
	tcase_add_test(tc, permanent_failure_stops_retries);
	tcase_add_test(tc, first_use_failure_retried_by_its_checks);
	tcase_add_test(tc, first_use_failure_then_permanent_goes_quiet);
	suite_add_tcase(s, tc);
	return check_run(s);
}
