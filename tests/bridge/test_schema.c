/* SPDX-License-Identifier: MIT */
/* Severity/facility mapping, tracepoint names, event-name sanitising. */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <stdlib.h>
#include <gnu/libc-version.h>
#include <string.h>
#include <syslog.h>

#include "bridge/ident.h"
#include "bridge/schema.h"

START_TEST(levels)
{
	static const unsigned want[8] = { 1, 1, 1, 2, 3, 4, 4, 5 };
	for (int s = 0; s < 8; s++)
		ck_assert_uint_eq(ehs_level(s), want[s]);
}
END_TEST

START_TEST(keywords)
{
	for (unsigned f = 0; f < 24; f++)
		ck_assert_uint_eq(ehs_keyword(f), 1ull << f);
	ck_assert_uint_eq(ehs_keyword(LOG_FAC(LOG_AUTHPRIV)), 0x400);
	ck_assert_uint_eq(ehs_keyword(LOG_FAC(LOG_LOCAL7)), 0x800000);
	for (unsigned f = 24; f < 128; f++)
		ck_assert_uint_eq(ehs_keyword(f), 0);
}
END_TEST

START_TEST(tracepoint_names)
{
	ck_assert_int_eq(ehs_tracepoints_init("Syslog"), 0);
	ck_assert_str_eq(ehs_tracepoint(LOG_INFO, 1)->name, "Syslog_L4K2");
	ck_assert_str_eq(ehs_tracepoint(LOG_NOTICE, 1)->name, "Syslog_L4K2");
	ck_assert_str_eq(ehs_tracepoint(LOG_EMERG, 0)->name, "Syslog_L1K1");
	ck_assert_str_eq(ehs_tracepoint(LOG_ERR, 3)->name, "Syslog_L2K8");
	ck_assert_str_eq(ehs_tracepoint(LOG_WARNING, 10)->name, "Syslog_L3K400");
	ck_assert_str_eq(ehs_tracepoint(LOG_DEBUG, 23)->name, "Syslog_L5K800000");
	ck_assert_str_eq(ehs_tracepoint(LOG_DEBUG, 24)->name, "Syslog_L5K0");
	ck_assert_str_eq(ehs_tracepoint(LOG_CRIT, 127)->name, "Syslog_L1K0");
	ck_assert_ptr_eq(ehs_tracepoint(LOG_INFO, 30), ehs_tracepoint(LOG_INFO, 99));
	ck_assert_ptr_ne(ehs_tracepoint(LOG_INFO, 2), ehs_tracepoint(LOG_INFO, 3));
	ck_assert_int_eq(ehs_tracepoints_init("My_Prov"), 0);
	ck_assert_str_eq(ehs_tracepoint(LOG_ALERT, 16)->name, "My_Prov_L1K10000");
	ck_assert_int_lt(ehs_tracepoints_init("bad:name"), 0);
	ck_assert_int_lt(ehs_tracepoints_init(""), 0);
}
END_TEST

START_TEST(event_names)
{
	char out[EHS_EVENT_NAME_MAX + 1];
	ck_assert_uint_eq(ehs_event_name(out, "sshd"), 4);
	ck_assert_str_eq(out, "sshd");
	ehs_event_name(out, "a;b c\t\x01\x7f\xc3\xa9:z");
	ck_assert_str_eq(out, "a_b c_____:z");
	ehs_event_name(out, NULL);
	ck_assert_str_eq(out, program_invocation_short_name);
	ehs_event_name(out, "");
	ck_assert_str_eq(out, program_invocation_short_name);
	char longname[400];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	ck_assert_uint_eq(ehs_event_name(out, longname), EHS_EVENT_NAME_MAX);
	ck_assert_uint_eq(strlen(out), EHS_EVENT_NAME_MAX);
}
END_TEST

START_TEST(openlog_state)
{
	ck_assert_int_eq(ehs_ident_facility(), LOG_USER);
	ck_assert_int_eq(ehs_ident_mask(), 0xff);
	ck_assert_ptr_null(ehs_ident());
	ehs_ident_openlog("x", 0, LOG_DAEMON);
	ck_assert_str_eq(ehs_ident(), "x");
	ck_assert_int_eq(ehs_ident_facility(), LOG_DAEMON);
	/* Keeps the ident; LOG_KERN (0) taken from glibc 2.34 on, ignored
	 * before (tests/e2e/facility.sh compares with glibc's datagrams). */
	ehs_ident_openlog(NULL, 0, 0);
	ck_assert_str_eq(ehs_ident(), "x");
	ck_assert_int_eq(ehs_ident_facility(),
			 strverscmp(gnu_get_libc_version(), "2.34") >= 0 ? LOG_KERN : LOG_DAEMON);
	ehs_ident_openlog(NULL, 0, LOG_DAEMON);
	ehs_ident_openlog(NULL, 0, LOG_LOCAL1 | 1);	/* stray bits: ignored */
	ck_assert_int_eq(ehs_ident_facility(), LOG_DAEMON);
	ehs_ident_closelog();
	ck_assert_ptr_null(ehs_ident());
	ck_assert_int_eq(ehs_ident_facility(), LOG_DAEMON);
	ehs_ident_setlogmask(LOG_UPTO(LOG_ERR));
	ck_assert_int_eq(ehs_ident_mask(), 0x0f);
	ehs_ident_setlogmask(0);	/* 0 only queries */
	ck_assert_int_eq(ehs_ident_mask(), 0x0f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge schema");
	TCase *tc = tcase_create("schema");
	tcase_add_test(tc, levels);
	tcase_add_test(tc, keywords);
	tcase_add_test(tc, tracepoint_names);
	tcase_add_test(tc, event_names);
	tcase_add_test(tc, openlog_state);
	suite_add_tcase(s, tc);
	return check_run(s);
}
