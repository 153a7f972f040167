/* SPDX-License-Identifier: MIT */
/*
 * EHS_EMIT's call site and the library (native_site.c), seen through
 * ld's --wrap (local.mk): which of ehs_site_write and ehs_site_event a
 * call makes, and which tracepoint the event goes to.  An untraced site
 * calls nothing once its first call pointed it at its priority's byte of
 * the table; a traced one calls ehs_site_write alone; openlog moving the
 * facility sends the sites without one to ehs_site_event once, and their
 * events to the new facility's tracepoint; events off in the
 * configuration leave every site's byte clear.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <ehsyslog.h>

#include "bridge/bridge.h"
#include "bridge/pri_table.h"
#include "bridge/schema.h"
#include "capture.h"
#include "../doubles/writer_wrap.h"

static struct capture cap;
static unsigned writes, events;
static struct ue_tracepoint *last_tp;

int __real_ehs_site_write(struct ehs_event_site *site, struct iovec *iov,
			  unsigned long iovcnt, size_t size);
int __wrap_ehs_site_write(struct ehs_event_site *site, struct iovec *iov,
			  unsigned long iovcnt, size_t size);
int __wrap_ehs_site_write(struct ehs_event_site *site, struct iovec *iov,
			  unsigned long iovcnt, size_t size)
{
	writes++;
	return __real_ehs_site_write(site, iov, iovcnt, size);
}

int __real_ehs_site_event(struct ehs_event_site *site, int priority, const char *event_name,
			  const struct ehs_field *fields, unsigned nfields);
int __wrap_ehs_site_event(struct ehs_event_site *site, int priority, const char *event_name,
			  const struct ehs_field *fields, unsigned nfields);
int __wrap_ehs_site_event(struct ehs_event_site *site, int priority, const char *event_name,
			  const struct ehs_field *fields, unsigned nfields)
{
	events++;
	return __real_ehs_site_event(site, priority, event_name, fields, nfields);
}

int __wrap_ue_tracepoint_write(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt)
{
	last_tp = tp;
	return __real_ue_tracepoint_write(tp, iov, iovcnt);
}

int __wrap_ue_tracepoint_write_sized(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt,
				     size_t size)
{
	last_tp = tp;
	return __real_ue_tracepoint_write_sized(tp, iov, iovcnt, size);
}

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	memset(&cap, 0, sizeof cap);
	ue_double_trace(capture_sink, &cap);
}

/* Sites, called as the tests say; their values count evaluations.  Each
 * test has its own, so that they start unarmed also when the tests run
 * in one process (CK_FORK=no). */
static unsigned evaluated;

#define SITE_INFO(fn) \
	static int fn(int n) \
	{ \
		return EHS_EMIT(LOG_INFO, "site", EHS_INT64("n", (evaluated++, n)), \
				EHS_STRING("path", "/index.html")); \
	}
#define SITE_LOCAL3(fn) \
	static int fn(int n) \
	{ \
		return EHS_EMIT(LOG_LOCAL3 | LOG_ERR, "site", EHS_INT64("n", (evaluated++, n))); \
	}
SITE_INFO(site_info)
SITE_LOCAL3(site_local3)
SITE_INFO(moved_info)
SITE_LOCAL3(moved_local3)
SITE_INFO(off_info)

/* The calls a site made for one call of it. */
#define CALLS(call, r, want_writes, want_events) do { \
		writes = events = 0; \
		ck_assert_int_eq((call), (r)); \
		ck_assert_uint_eq(writes, (want_writes)); \
		ck_assert_uint_eq(events, (want_events)); \
	} while (0)

START_TEST(traced_then_untraced)
{
	/* The first call goes to ehs_site_event through ehs_site_write;
	 * then ehs_site_write alone. */
	CALLS(site_info(1), 1, 1, 1);
	ck_assert_ptr_eq(last_tp, ehs_tracepoint(LOG_INFO, LOG_FAC(LOG_USER)));
	CALLS(site_info(2), 1, 1, 0);
	CALLS(site_local3(3), 1, 1, 1);
	ck_assert_ptr_eq(last_tp, ehs_tracepoint(LOG_ERR, LOG_FAC(LOG_LOCAL3)));
	CALLS(site_local3(4), 1, 1, 0);
	ck_assert_uint_eq(cap.count, 4);

	/* Untraced: nothing called, nothing evaluated; traced again: the
	 * library again, without ehs_site_event. */
	ue_double_trace(NULL, NULL);
	evaluated = 0;
	CALLS(site_info(5), 0, 0, 0);
	CALLS(site_local3(6), 0, 0, 0);
	ck_assert_uint_eq(evaluated, 0);
	ue_double_trace(capture_sink, &cap);
	CALLS(site_info(7), 1, 1, 0);
	ck_assert_uint_eq(evaluated, 1);
	ck_assert_uint_eq(cap.count, 5);
}
END_TEST

START_TEST(openlog_moves_the_sites)
{
	CALLS(moved_info(1), 1, 1, 1);
	CALLS(moved_local3(2), 1, 1, 1);
	/* openlog moves the facility: the site without one finds its
	 * tracepoint again, once; the other (which may look again too)
	 * stays on its own. */
	ehs_openlog("moved", 0, LOG_LOCAL5);
	CALLS(moved_info(3), 1, 1, 1);
	ck_assert_ptr_eq(last_tp, ehs_tracepoint(LOG_INFO, LOG_FAC(LOG_LOCAL5)));
	CALLS(moved_info(4), 1, 1, 0);
	ck_assert_ptr_eq(last_tp, ehs_tracepoint(LOG_INFO, LOG_FAC(LOG_LOCAL5)));
	ck_assert_int_eq(moved_local3(5), 1);
	ck_assert_ptr_eq(last_tp, ehs_tracepoint(LOG_ERR, LOG_FAC(LOG_LOCAL3)));
	CALLS(moved_local3(6), 1, 1, 0);

	/* Untraced after the move: nothing called. */
	ue_double_trace(NULL, NULL);
	CALLS(moved_info(7), 0, 0, 0);
	ehs_closelog();
}
END_TEST

/* Events off in the configuration: the first call arms the site's byte
 * cleared, and no call after it reaches the library.  The configuration
 * is read once a process: this needs a process of its own. */
START_TEST(events_off)
{
	setenv("EHSYSLOG_DISABLE", "1", 1);
	CALLS(off_info(1), 0, 1, 1);
	evaluated = 0;
	CALLS(off_info(2), 0, 0, 0);
	ck_assert_uint_eq(evaluated, 0);
	ck_assert_uint_eq(cap.count, 0);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO] & EHS_PRI_TRACED, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("native_site");
	TCase *tc = tcase_create("site");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, traced_then_untraced);
	tcase_add_test(tc, openlog_moves_the_sites);
	const char *fork_mode = getenv("CK_FORK");
	if (fork_mode && strcmp(fork_mode, "no") == 0)
		printf("events_off: not run: CK_FORK=no, and it needs a process of its own\n");
	else
		tcase_add_test(tc, events_off);
	suite_add_tcase(s, tc);
	return check_run(s);
}
