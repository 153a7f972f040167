/* SPDX-License-Identifier: MIT */
/*
 * libsystemd's journal calls on the host: this program links the
 * interposer's wrappers and the bridge over the writer's test double,
 * and no libsystemd, so its sd_journal_* calls make their events into
 * the capturing sink and the real functions are missing (-ENOSYS in pass-through).  Checks the
 * KEY=value rules of bridge/api/journal.h field by field, extras included:
 * malformed fields, keys journald drops, repeated and refused values,
 * binary values in sendv's length form, huge values, the extras' budget,
 * the location forms, send's formatting, perror, and replace mode.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>

#include <eventheader/eventheader.h>

#include "../user_events/nosyscall.h"
#include "bridge/bridge.h"
#include "bridge/schema.h"
#include "../bridge/capture.h"
#include "event_fields.h"
#include "preload/sd_journal.h"

static struct capture cap;


/* The field names from the fifth on (after message, severity,
 * facility, errno and, if there, file and line), space-separated. */
static const char *extras(const struct evf_event *ev)
{
	static char out[2048];
	size_t at = 0;
	out[0] = '\0';
	for (unsigned k = 4; k < ev->n; k++) {
		const char *n = ev->f[k].name;
		if (strcmp(n, "file") == 0 || strcmp(n, "line") == 0)
			continue;
		at += (size_t)snprintf(out + at, sizeof out - at, "%s%s", at ? " " : "", n);
	}
	return out;
}

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	memset(&cap, 0, sizeof cap);
	ue_double_trace(capture_sink, &cap);
}

#define IOV(s) { (void *)(s), sizeof(s) - 1 }
/* The longest key journald takes. */
#define KEY64 "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"

START_TEST(sendv_every_rule)
{
	static const char bin[] = "BIN=a\0b\nc\n";	/* NUL and newlines: the length form */
	const struct iovec iov[] = {
		IOV("MESSAGE=first"),
		IOV("PRIORITY=3"),
		IOV("FOO=bar=baz"),
		IOV("lower=dropped"),
		IOV("_TRUSTED=dropped"),
		IOV("1DIGIT=dropped"),
		IOV("K-Y=dropped"),
		IOV(KEY64 "X=65 bytes"),
		IOV(KEY64 "=64"),
		IOV("SYSLOG_FACILITY=16"),
		IOV("SYSLOG_IDENTIFIER=my;id"),
		IOV("CODE_FILE=src/x.c"),
		IOV("CODE_LINE=42"),
		IOV("CODE_FUNC=main"),
		IOV("ERRNO=5"),
		{ (void *)bin, sizeof bin - 1 },
		IOV("PRIORITY=9"),
		IOV("EMPTY="),
		IOV("MESSAGE=last\nline\n"),
	};
	errno = EPERM;
	ck_assert_int_eq(sd_journal_sendv(iov, sizeof iov / sizeof iov[0]), -ENOSYS);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_uint_eq(cap.count, 1);
	struct evf_event ev;
	evf_decode_captured(&cap, 0, &ev);
	ck_assert_str_eq(ev.name, "my_id");
	evf_str_eq(&ev, "message", "last\nline");	/* the last; its line ending dropped */
	ck_assert_uint_eq(evf_num(&ev, "severity"), 3);
	ck_assert_uint_eq(ev.level, 2);
	ck_assert_uint_eq(evf_num(&ev, "facility"), 16);
	ck_assert_uint_eq(evf_num(&ev, "errno"), 5);
	evf_str_eq(&ev, "file", "src/x.c");
	ck_assert_uint_eq(evf_num(&ev, "line"), 42);
	ck_assert_str_eq(extras(&ev),
			 "FOO " KEY64 " CODE_FUNC BIN PRIORITY EMPTY");
	evf_str_eq(&ev, "FOO", "bar=baz");
	evf_str_eq(&ev, "CODE_FUNC", "main");
	evf_bytes_eq(&ev, "BIN", EH_ENC_STRING_LENGTH16_CHAR8, "a\0b\nc\n", 6);
	evf_str_eq(&ev, "PRIORITY", "9");
	evf_str_eq(&ev, "EMPTY", "");
}
END_TEST

/* Each of these makes libsystemd refuse the whole call: no event. */
START_TEST(sendv_refused)
{
	static const struct iovec good = IOV("MESSAGE=ok");
	const struct iovec bad[] = {
		{ NULL, 5 },
		IOV("X"),		/* shorter than 2 bytes */
		IOV("NOEQUALS"),
		IOV("=value"),		/* empty key */
		IOV("KE\nY=v"),		/* newline in the key */
	};
	unsigned i = (unsigned)_i;
	const struct iovec both[2] = { good, bad[i] };
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	ck_assert_int_eq(sd_journal_sendv(both, 2), -EINVAL);
	ck_assert_int_eq(sd_journal_sendv(&good, 0), -EINVAL);
	ck_assert_int_eq(sd_journal_sendv(NULL, 1), -EINVAL);
	ck_assert_uint_eq(cap.count, 0);
	/* The good one alone: one event, and replace mode's 0. */
	ck_assert_int_eq(sd_journal_sendv(&good, 1), 0);
	ck_assert_uint_eq(cap.count, 1);
}
END_TEST

START_TEST(sendv_defaults)
{
	const struct iovec iov[] = { IOV("NO_MESSAGE=x"), IOV("SYSLOG_IDENTIFIER="),
				     IOV("CODE_LINE=4294967296"), IOV("ERRNO=-1") };
	openlog("ignored", 0, LOG_LOCAL3);
	errno = ENOENT;
	sd_journal_sendv(iov, 4);
	struct evf_event ev;
	evf_decode_captured(&cap, 0, &ev);
	/* No identifier: the program's name, as libsystemd sends, not openlog's. */
	ck_assert_str_eq(ev.name, program_invocation_short_name);
	evf_str_eq(&ev, "message", "");
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_INFO);
	ck_assert_uint_eq(evf_num(&ev, "facility"), 19);	/* openlog's */
	ck_assert_uint_eq(evf_num(&ev, "errno"), ENOENT);	/* errno at the call */
	ck_assert_ptr_null(evf_field(&ev, "file"));
	ck_assert_str_eq(extras(&ev), "NO_MESSAGE SYSLOG_IDENTIFIER CODE_LINE ERRNO");
	evf_str_eq(&ev, "CODE_LINE", "4294967296");
	evf_str_eq(&ev, "ERRNO", "-1");
	closelog();
}
END_TEST

/* sendv's message is bytes: NUL bytes and inner newlines stay. */
START_TEST(sendv_binary_message)
{
	static const char msg[] = "MESSAGE=a\0b\nc\n\n";
	const struct iovec iov = { (void *)msg, sizeof msg - 1 };
	sd_journal_sendv(&iov, 1);
	struct evf_event ev;
	evf_decode_captured(&cap, 0, &ev);
	evf_bytes_eq(&ev, "message", EH_ENC_STRING_LENGTH16_CHAR8, "a\0b\nc", 5);
}
END_TEST

/* A value the extras' budget cannot hold is left out with all after it;
 * the message is whole, whatever its size (split into parts). */
START_TEST(sendv_huge_values)
{
	static char big[EHS_EXTRA_BYTES + 10], msg[9000];
	memcpy(big, "BIG=", 4);
	memset(big + 4, 'b', sizeof big - 4);
	memcpy(msg, "MESSAGE=", 8);
	memset(msg + 8, 'm', sizeof msg - 8);
	const struct iovec iov[] = { IOV("A=1"), { big, sizeof big }, IOV("B=2"),
				     { msg, sizeof msg } };
	sd_journal_sendv(iov, 4);
	ck_assert_uint_eq(cap.count, 3);
	size_t total = 0;
	for (unsigned i = 0; i < cap.count; i++) {
		struct evf_event ev;
		evf_decode_captured(&cap, i, &ev);
		ck_assert_str_eq(extras(&ev), "part parts A");
		ck_assert_uint_eq(evf_num(&ev, "part"), i + 1);
		total += evf_field(&ev, "message")->len;
	}
	ck_assert_uint_eq(total, sizeof msg - 8);
}
END_TEST

/* Many small extras: EHS_JOURNAL_EXTRA_MAX (64) at most. */
START_TEST(sendv_many_fields)
{
	static char text[100][16];
	struct iovec iov[100];
	for (int i = 0; i < 100; i++) {
		int n = snprintf(text[i], sizeof text[i], "F%d=%d", i, i);
		iov[i] = (struct iovec){ text[i], (size_t)n };
	}
	sd_journal_sendv(iov, 100);
	struct evf_event ev;
	evf_decode_captured(&cap, 0, &ev);
	ck_assert_uint_eq(ev.n, 4 + 64);
	ck_assert_str_eq(ev.f[4 + 63].name, "F63");
	evf_str_eq(&ev, "F63", "63");
}
END_TEST

static int call_printv(int priority, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = sd_journal_printv(priority, fmt, ap);
	va_end(ap);
	return r;
}

static int call_printv_loc(int priority, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = sd_journal_printv_with_location(priority, "CODE_FILE=v.c", "CODE_LINE=7",
						"vfunc", fmt, ap);
	va_end(ap);
	return r;
}

START_TEST(print_forms)
{
	struct evf_event ev;
	errno = EACCES;
	sd_journal_print(LOG_WARNING, "n=%d %m \t\n", 5);
	call_printv(LOG_DEBUG, "%s", "v");
	sd_journal_print_with_location(LOG_CRIT, "CODE_FILE=p.c", "CODE_LINE=12", "pfunc",
				       "with %s", "loc");
	call_printv_loc(LOG_NOTICE, "vloc %d", 9);
	/* Nothing sent, so no event: empty after the strip, or refused. */
	sd_journal_print(LOG_INFO, " \n");
	sd_journal_print(8, "bad priority");
	sd_journal_print(-1, "bad priority");
	sd_journal_print(LOG_INFO | LOG_DAEMON, "facility bits");
	sd_journal_print_with_location(LOG_INFO, "NOEQUALS", "CODE_LINE=1", "f", "x");
	ck_assert_int_eq(errno, EACCES);
	ck_assert_uint_eq(cap.count, 4);

	evf_decode_captured(&cap, 0, &ev);
	ck_assert_str_eq(ev.name, program_invocation_short_name);
	evf_str_eq(&ev, "message", "n=5 Permission denied");
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_WARNING);
	ck_assert_uint_eq(evf_num(&ev, "facility"), 1);
	ck_assert_uint_eq(evf_num(&ev, "errno"), EACCES);
	ck_assert_str_eq(extras(&ev), "");
	ck_assert_ptr_null(evf_field(&ev, "file"));
	evf_decode_captured(&cap, 1, &ev);
	evf_str_eq(&ev, "message", "v");
	ck_assert_uint_eq(ev.level, 5);
	evf_decode_captured(&cap, 2, &ev);
	evf_str_eq(&ev, "message", "with loc");
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_CRIT);
	evf_str_eq(&ev, "file", "p.c");
	ck_assert_uint_eq(evf_num(&ev, "line"), 12);
	ck_assert_str_eq(extras(&ev), "CODE_FUNC");
	evf_str_eq(&ev, "CODE_FUNC", "pfunc");
	evf_decode_captured(&cap, 3, &ev);
	evf_str_eq(&ev, "message", "vloc 9");
	evf_str_eq(&ev, "file", "v.c");
	ck_assert_uint_eq(evf_num(&ev, "line"), 7);
	evf_str_eq(&ev, "CODE_FUNC", "vfunc");
}
END_TEST

START_TEST(send_forms)
{
	struct evf_event ev;
	errno = ENOENT;
	int r = sd_journal_send("MESSAGE=%s %d %m  ", "sent", 3,
				"PRIORITY=%i", LOG_ERR,
				"LONG=%ld %lld %c%c", 1L << 40, -2LL, 'x', 0,
				"DBL=%.2f %p %5s", 2.5, (void *)0, "s",
				"SYSLOG_FACILITY=%d", 20, NULL);
	ck_assert_int_eq(r, -ENOSYS);
	sd_journal_send_with_location("CODE_FILE=s.c", "CODE_LINE=99", "sfunc",
				      "MESSAGE=located", "X=%u", 7u, NULL);
	ck_assert_uint_eq(cap.count, 2);
	ck_assert_int_eq(errno, ENOENT);
	evf_decode_captured(&cap, 0, &ev);
	/* Trailing whitespace stripped, the %c of 0 ends the field (C strings). */
	evf_str_eq(&ev, "message", "sent 3 No such file or directory");
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_ERR);
	ck_assert_uint_eq(evf_num(&ev, "facility"), 20);
	ck_assert_str_eq(extras(&ev), "LONG DBL");
	evf_str_eq(&ev, "LONG", "1099511627776 -2 x");
	evf_str_eq(&ev, "DBL", "2.50 (nil)     s");
	evf_decode_captured(&cap, 1, &ev);
	evf_str_eq(&ev, "message", "located");
	evf_str_eq(&ev, "file", "s.c");
	ck_assert_uint_eq(evf_num(&ev, "line"), 99);
	ck_assert_str_eq(extras(&ev), "CODE_FUNC X");
	evf_str_eq(&ev, "CODE_FUNC", "sfunc");
	evf_str_eq(&ev, "X", "7");
}
END_TEST

/* More fields and text than the stack holds: the mapped pages. */
START_TEST(send_long_list)
{
	static char big[6000];
	memset(big, 'q', sizeof big - 1);
	sd_journal_send("A=1", "B=2", "C=3", "D=4", "E=5", "F=6", "G=7", "H=8", "I=9", "J=10",
			"K=1", "L=2", "M=3", "N=4", "O=5", "P=6", "Q=7", "R=8", "S=9", "T=10",
			"U=1", "V=2", "W=3", "X=4", "Y=5", "Z=6", "AA=7", "AB=8", "AC=9", "AD=10",
			"AE=%d", 31, "AF=32", "AG=33", "MESSAGE=%s", big, NULL);
	ck_assert_uint_eq(cap.count, 2);
	struct evf_event ev;
	evf_decode_captured(&cap, 1, &ev);
	ck_assert_uint_eq(evf_num(&ev, "parts"), 2);
	ck_assert_uint_eq(ev.n, 4 + 2 + 33);
	evf_str_eq(&ev, "AE", "31");
	evf_str_eq(&ev, "AG", "33");
}
END_TEST

START_TEST(perror_forms)
{
	struct evf_event ev;
	errno = EBADF;
	sd_journal_perror("opening");
	sd_journal_perror("");
	sd_journal_perror_with_location("CODE_FILE=e.c", "CODE_LINE=3", "efunc", "closing");
	ck_assert_int_eq(errno, EBADF);
	ck_assert_uint_eq(cap.count, 3);
	evf_decode_captured(&cap, 0, &ev);
	evf_str_eq(&ev, "message", "opening: Bad file descriptor");
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_ERR);
	ck_assert_uint_eq(evf_num(&ev, "errno"), EBADF);
	ck_assert_str_eq(extras(&ev), "");
	evf_decode_captured(&cap, 1, &ev);
	evf_str_eq(&ev, "message", "Bad file descriptor");
	evf_decode_captured(&cap, 2, &ev);
	evf_str_eq(&ev, "message", "closing: Bad file descriptor");
	evf_str_eq(&ev, "file", "e.c");
	ck_assert_uint_eq(evf_num(&ev, "line"), 3);
	ck_assert_str_eq(extras(&ev), "CODE_FUNC");
}
END_TEST

/* Replace mode: the event, and libsystemd's answer without a journald. */
START_TEST(replace_mode_returns)
{
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	ck_assert_int_eq(sd_journal_print(LOG_INFO, "a"), 0);
	ck_assert_int_eq(sd_journal_print(9, "a"), -EINVAL);
	ck_assert_int_eq(sd_journal_send("MESSAGE=b", NULL), 0);
	ck_assert_int_eq(sd_journal_send("NOEQUALS", NULL), -EINVAL);
	ck_assert_int_eq(sd_journal_perror("c"), 0);
	ck_assert_uint_eq(cap.count, 3);
}
END_TEST

/* Replace mode where no event can be written (the registrations fail,
 * as without user_events): each call goes on to libsystemd, missing
 * here (-ENOSYS), instead of being dropped; libsystemd's refusals are
 * still answered here. */
START_TEST(replace_mode_passes_without_a_writer)
{
	ue_double_fail(true);
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	static const struct iovec msg = IOV("MESSAGE=d");
	ck_assert_int_eq(sd_journal_print(LOG_INFO, "a"), -ENOSYS);
	ck_assert_int_eq(sd_journal_print(9, "a"), -EINVAL);
	ck_assert_int_eq(sd_journal_send("MESSAGE=b", NULL), -ENOSYS);
	ck_assert_int_eq(sd_journal_send("NOEQUALS", NULL), -EINVAL);
	ck_assert_int_eq(sd_journal_sendv(&msg, 1), -ENOSYS);
	ck_assert_int_eq(sd_journal_perror("c"), -ENOSYS);
	ck_assert_uint_eq(cap.count, 0);
	ue_double_fail(false);
}
END_TEST

#ifndef __SANITIZE_ADDRESS__
/* (The ASan runtime makes system calls of its own.) */
static void journal_many(void *arg)
{
	static const struct iovec iov[] = { IOV("MESSAGE=m"), IOV("PRIORITY=6") };
	(void)arg;
	for (int i = 0; i < 100; i++) {
		sd_journal_print(LOG_INFO, "p %d", i);
		call_printv(LOG_ERR, "v %d", i);
		sd_journal_print_with_location(LOG_INFO, "CODE_FILE=f.c", "CODE_LINE=1", "fn",
					       "l %d", i);
		sd_journal_send("MESSAGE=s %d", i, "PRIORITY=6", NULL);
		sd_journal_sendv(iov, 2);
		sd_journal_perror("e");
	}
}

/* Replace mode, nobody tracing: no system call, errno kept. */
START_TEST(replace_mode_untraced_no_syscall)
{
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	ue_double_trace(NULL, NULL);
	/* The first calls read the configuration and try to register. */
	journal_many(NULL);
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_REPLACE);
	if (ehs_tracepoint(LOG_INFO, 1)->state || ehs_tracepoint(LOG_ERR, 1)->state)
		ck_abort_msg("traced: cannot test the untraced path");
	errno = EILSEQ;
	journal_many(NULL);
	ck_assert_int_eq(errno, EILSEQ);
	ck_assert_int_eq(syscalls_made(journal_many, NULL), 0);
}
END_TEST
#endif

int main(void)
{
	Suite *s = suite_create("journal calls");
	TCase *tc = tcase_create("journal");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, sendv_every_rule);
	tcase_add_loop_test(tc, sendv_refused, 0, 5);
	tcase_add_test(tc, sendv_defaults);
	tcase_add_test(tc, sendv_binary_message);
	tcase_add_test(tc, sendv_huge_values);
	tcase_add_test(tc, sendv_many_fields);
	tcase_add_test(tc, print_forms);
	tcase_add_test(tc, send_forms);
	tcase_add_test(tc, send_long_list);
	tcase_add_test(tc, perror_forms);
	tcase_add_test(tc, replace_mode_returns);
	tcase_add_test(tc, replace_mode_passes_without_a_writer);
#ifndef __SANITIZE_ADDRESS__
	tcase_add_test(tc, replace_mode_untraced_no_syscall);
#endif
	suite_add_tcase(s, tc);
	return check_run(s);
}
