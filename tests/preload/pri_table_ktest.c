/* SPDX-License-Identifier: MIT */
/*
 * The priority table against a kernel with user_events (run as root in
 * the test guest through scripts/kernel-test): each priority's byte is
 * registered at its first call and then set by the kernel exactly while
 * its tracepoint is traced, follows openlog's facility, and the stubs
 * answer from it.  Links the wrappers and the bridge as
 * tests/preload/test_fastpath does, over the real writer.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "bridge/pri_table.h"
#include "preload/stubs.h"
#include "../user_events/nosyscall.h"
#include "../lib/kernel_files.h"

#if !EHS_STUBS
int main(void)
{
	puts("SKIP: no x86-64 entry stubs in this build: the table is not used");
	return 77;
}
#else

static void toggle(const char *event, int on)
{
	ck_assert_msg(kf_enable(event, on) == 0, "%s's enable", event);
}

/* pri's byte once it reads want, or after 1 s: the kernel may set a bit
 * from a work queue. */
static unsigned byte_becomes(int pri, unsigned want)
{
	const struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < 1000 && ehs_pri_table.full[pri] != want; i++)
		nanosleep(&ms, NULL);
	return ehs_pri_table.full[pri];
}

#define T EHS_PRI_TRACED

static void info_once(void *arg)
{
	(void)arg;
	syslog(LOG_INFO, "request %d", 42);
}

static void err_once(void *arg)
{
	(void)arg;
	syslog(LOG_ERR, "request %d", 42);
}

/* Whatever a failed test left traced stops being traced: every
 * user_events event of the guest, which belongs to the tests. */
static void teardown(void)
{
	(void)kf_enable(NULL, 0);
}

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	unsetenv("EHSYSLOG_DISABLE");
	unsetenv("EHSYSLOG_PROVIDER");
}

START_TEST(bytes_follow_their_tracepoints)
{
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], T);
	syslog(LOG_INFO, "first");
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], 0);	/* registered, untraced */
	ck_assert_uint_eq(ehs_pri_table.full[LOG_NOTICE], T);	/* same tracepoint, not called */
	ck_assert_int_eq(syscalls_made(info_once, NULL), 0);

	/* Traced: the stub takes the full path, whose event is one writev. */
	toggle("Syslog_L4K2", 1);
	ck_assert_uint_eq(byte_becomes(LOG_INFO, T), T);
	ck_assert_int_ge(syscalls_made(info_once, NULL), 1);	/* writev, maybe fstat */
	syslog(LOG_NOTICE, "notice");	/* registers its byte, traced */
	ck_assert_uint_eq(ehs_pri_table.full[LOG_NOTICE], T);
	toggle("Syslog_L4K2", 0);
	ck_assert_uint_eq(byte_becomes(LOG_INFO, 0), 0);
	ck_assert_uint_eq(byte_becomes(LOG_NOTICE, 0), 0);
	ck_assert_int_eq(syscalls_made(info_once, NULL), 0);
}
END_TEST

START_TEST(openlog_moves_priorities_without_a_facility)
{
	syslog(LOG_ERR, "user");
	syslog(LOG_MAIL | LOG_ERR, "mail");
	ck_assert_uint_eq(ehs_pri_table.full[LOG_ERR], 0);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_MAIL | LOG_ERR], 0);

	/* LOG_ERR leaves Syslog_L2K2 for LOCAL3's Syslog_L2K80000 at its
	 * next call; LOG_MAIL | LOG_ERR keeps its own. */
	openlog("ktest", 0, LOG_LOCAL3);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_ERR], T);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_MAIL | LOG_ERR], 0);
	syslog(LOG_ERR, "local3");
	ck_assert_uint_eq(ehs_pri_table.full[LOG_ERR], 0);
	toggle("Syslog_L2K2", 1);
	toggle("Syslog_L2K80000", 1);
	ck_assert_uint_eq(byte_becomes(LOG_ERR, T), T);
	/* Its events go there too: a route kept from before openlog would
	 * find L2K2 and write nothing while L2K2 is untraced. */
	toggle("Syslog_L2K2", 0);
	ck_assert_int_ge(syscalls_made(err_once, NULL), 1);
	toggle("Syslog_L2K2", 1);
	toggle("Syslog_L2K80000", 0);
	ck_assert_uint_eq(byte_becomes(LOG_ERR, 0), 0);	/* L2K2 is no longer its */
	ck_assert_uint_eq(ehs_pri_table.full[LOG_MAIL | LOG_ERR], 0);
	toggle("Syslog_L2K2", 0);

	/* The same facility again: the registrations stay. */
	openlog("ktest", 0, LOG_LOCAL3);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_ERR], 0);
	toggle("Syslog_L2K80000", 1);
	ck_assert_uint_eq(byte_becomes(LOG_ERR, T), T);
	toggle("Syslog_L2K80000", 0);
}
END_TEST

START_TEST(pass_through_goes_on_to_glibc)
{
	setenv("EHSYSLOG_PASSTHROUGH", "1", 1);
	syslog(LOG_INFO, "first");
	/* Pass-through marked, the kernel's bit clear. */
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], EHS_PRI_PASS);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_ERR], T | EHS_PRI_PASS);
	void *p = dlsym(RTLD_NEXT, "syslog");
	ck_assert_ptr_nonnull(p);
	ehs_stub_fn glibc;
	memcpy(&glibc, &p, sizeof p);
	ck_assert(ehs_stub_next[EHS_STUB_SYSLOG] == glibc);
	toggle("Syslog_L4K2", 1);
	ck_assert_uint_eq(byte_becomes(LOG_INFO, T | EHS_PRI_PASS), T | EHS_PRI_PASS);
	ck_assert_int_ge(syscalls_made(info_once, NULL), 1);
	toggle("Syslog_L4K2", 0);
	ck_assert_uint_eq(byte_becomes(LOG_INFO, EHS_PRI_PASS), EHS_PRI_PASS);
}
END_TEST

START_TEST(disabled_registers_nothing)
{
	setenv("EHSYSLOG_DISABLE", "1", 1);
	syslog(LOG_INFO, "first");
	/* Disabled, replace mode would only drop the messages: the byte says
	 * pass-through, and no registration set its top bit. */
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], EHS_PRI_PASS);
	struct ue_status st;
	ue_status(&st);
	ck_assert_uint_eq(st.registered, 0);
	ck_assert_int_eq(st.state, UE_STATUS_UNUSED);
}
END_TEST

int main(void)
{
	if (kf_skip_unless_usable())
		return 77;
	Suite *s = suite_create("priority table in the kernel");
	TCase *tc = tcase_create("kernel");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, bytes_follow_their_tracepoints);
	tcase_add_test(tc, openlog_moves_priorities_without_a_facility);
	tcase_add_test(tc, pass_through_goes_on_to_glibc);
	tcase_add_test(tc, disabled_registers_nothing);
	suite_add_tcase(s, tc);
	return check_run(s);
}
#endif
