/* SPDX-License-Identifier: MIT */
/*
 * The whole path on the host: this program links the interposer's
 * wrappers and the bridge over the writer's test double, so its own
 * syslog/warn/error calls go through them into a capturing sink.  Checks each call's
 * event fields, that each call makes exactly one event, errno, %m, the
 * mask, glibc's invalid-priority rule, openlog, and the configuration.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <err.h>
#include <errno.h>
#include <error.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "bridge/schema.h"
#include "../bridge/capture.h"

void warnc(int code, const char *fmt, ...);
void vwarnc(int code, const char *fmt, va_list ap);

static struct capture cap;

struct fields {
	char name[300];
	char msg[CAPTURE_EVENT_MAX];
	size_t msg_len;
	unsigned level, severity, facility;
	int err;
	char file[300];
	unsigned line;
	unsigned part, parts;
};

static unsigned le16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Takes event i apart by the fixed schema. */
static void decode(unsigned i, struct fields *f)
{
	const uint8_t *e = cap.data[i];
	memset(f, 0, sizeof *f);
	ck_assert_uint_lt(i, cap.count);
	ck_assert_uint_eq(e[0], 0x07);
	f->level = e[7];
	unsigned meta_len = le16(e + 8);
	ck_assert_uint_eq(le16(e + 10), 1);
	const char *meta = (const char *)e + 12;
	snprintf(f->name, sizeof f->name, "%s", meta);
	bool has_file = memmem(meta, meta_len, "file\0", 5) != NULL;
	bool split = memmem(meta, meta_len, "parts\0", 6) != NULL;
	const uint8_t *p = e + 12 + meta_len;
	f->msg_len = le16(p);
	memcpy(f->msg, p + 2, f->msg_len);
	p += 2 + f->msg_len;
	f->severity = p[0];
	f->facility = p[1];
	f->err = (int)le32(p + 2);
	p += 6;
	if (has_file) {
		unsigned n = le16(p);
		snprintf(f->file, sizeof f->file, "%.*s", (int)n, p + 2);
		p += 2 + n;
		f->line = le32(p);
		p += 4;
	}
	if (split) {
		f->part = le16(p);
		f->parts = le16(p + 2);
		p += 4;
	}
	ck_assert_uint_eq((size_t)(p - e), cap.len[i]);
}

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	memset(&cap, 0, sizeof cap);
	ue_double_trace(capture_sink, &cap);
}

START_TEST(syslog_fields)
{
	struct fields f;
	errno = ENOENT;
	syslog(LOG_DAEMON | LOG_NOTICE, "hello %d %m\n", 42);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(cap.count, 1);
	decode(0, &f);
	ck_assert_str_eq(f.name, program_invocation_short_name);
	ck_assert_str_eq(f.msg, "hello 42 No such file or directory");
	ck_assert_uint_eq(f.level, 4);
	ck_assert_uint_eq(f.severity, LOG_NOTICE);
	ck_assert_uint_eq(f.facility, 3);
	ck_assert_int_eq(f.err, ENOENT);
}
END_TEST

static void call_vsyslog(int pri, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsyslog(pri, fmt, ap);
	va_end(ap);
}

void __syslog_chk(int pri, int flag, const char *fmt, ...);

START_TEST(every_syslog_form_once)
{
	struct fields f;
	errno = EPERM;
	call_vsyslog(LOG_LOCAL7 | LOG_DEBUG, "v%s", "sys");
	__syslog_chk(LOG_EMERG, 1, "chk %d", 1);
	ck_assert_uint_eq(cap.count, 2);
	decode(0, &f);
	ck_assert_str_eq(f.msg, "vsys");
	ck_assert_uint_eq(f.level, 5);
	ck_assert_uint_eq(f.facility, 23);
	decode(1, &f);
	ck_assert_str_eq(f.msg, "chk 1");
	ck_assert_uint_eq(f.level, 1);
	ck_assert_uint_eq(f.severity, LOG_EMERG);
	ck_assert_uint_eq(f.facility, 1);	/* none given: LOG_USER */
	ck_assert_int_eq(errno, EPERM);
}
END_TEST

START_TEST(openlog_ident_facility_mask)
{
	struct fields f;
	openlog("my;app", LOG_PID, LOG_LOCAL0);
	int old = setlogmask(LOG_UPTO(LOG_WARNING));
	ck_assert_int_eq(old, 0xff);
	syslog(LOG_INFO, "filtered");
	syslog(LOG_WARNING, "kept");
	syslog(LOG_AUTH | LOG_ERR, "auth");
	ck_assert_uint_eq(cap.count, 2);
	decode(0, &f);
	ck_assert_str_eq(f.name, "my_app");
	ck_assert_str_eq(f.msg, "kept");
	ck_assert_uint_eq(f.facility, 16);
	ck_assert_uint_eq(f.level, 3);
	decode(1, &f);
	ck_assert_uint_eq(f.facility, 4);
	closelog();
	syslog(LOG_ERR, "after close");
	decode(2, &f);
	ck_assert_str_eq(f.name, program_invocation_short_name);
	ck_assert_uint_eq(f.facility, 16);	/* closelog keeps the facility */
}
END_TEST

/* A priority logged before openlog changes the facility follows it: what
 * its first calls found (its tracepoint and facility) is not kept. */
START_TEST(openlog_moves_a_used_priority)
{
	struct fields f;
	syslog(LOG_ERR, "before");
	syslog(LOG_ERR, "before again");
	openlog("moved", 0, LOG_LOCAL3);
	syslog(LOG_ERR, "after");
	syslog(LOG_ERR, "after again");
	ck_assert_uint_eq(cap.count, 4);
	const unsigned want[4] = { 1, 1, 19, 19 };
	for (unsigned i = 0; i < 4; i++) {
		decode(i, &f);
		ck_assert_uint_eq(f.facility, want[i]);
		ck_assert_uint_eq(f.severity, LOG_ERR);
	}
}
END_TEST

START_TEST(invalid_priority_bits)
{
	struct fields f;
	openlog("bad", 0, LOG_DAEMON);
	syslog(0x12340 | LOG_INFO, "odd");
	ck_assert_uint_eq(cap.count, 2);
	decode(0, &f);	/* glibc's complaint, at LOG_ERR|LOG_CONS|LOG_PERROR|LOG_PID */
	ck_assert_str_eq(f.msg, "syslog: unknown facility/priority: 12346");
	ck_assert_uint_eq(f.severity, LOG_ERR);
	ck_assert_uint_eq(f.facility, 4);
	decode(1, &f);	/* then the call with the bits masked off */
	ck_assert_str_eq(f.msg, "odd");
	ck_assert_uint_eq(f.severity, LOG_INFO);
	ck_assert_uint_eq(f.facility, 0x340 >> 3);
}
END_TEST

static void call_vwarn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

static void call_vwarnc(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarnc(code, fmt, ap);
	va_end(ap);
}

START_TEST(warn_error_family_once)
{
	struct fields f;
	errno = ENOENT;
	warn("w %d", 1);
	warnx("wx");
	call_vwarn(NULL);
	error(0, EACCES, "e %s", "x");
	error(0, 0, "plain");
	error_at_line(0, EPERM, "src.c", 77, "line");
	warnc(EINVAL, "c");
	call_vwarnc(EIO, NULL);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(cap.count, 8);
	static const char *want[] = {
		"w 1: No such file or directory", "wx", "No such file or directory",
		"e x: Permission denied", "plain", "line: Operation not permitted",
		"c: Invalid argument", "Input/output error",
	};
	for (unsigned i = 0; i < 8; i++) {
		decode(i, &f);
		ck_assert_str_eq(f.msg, want[i]);
		ck_assert_uint_eq(f.severity, LOG_WARNING);
		ck_assert_uint_eq(f.level, 3);
		ck_assert_uint_eq(f.facility, 1);
		ck_assert_int_eq(f.err, ENOENT);
	}
	decode(5, &f);
	ck_assert_str_eq(f.file, "src.c");
	ck_assert_uint_eq(f.line, 77);
}
END_TEST

START_TEST(one_per_line)
{
	error_one_per_line = 1;
	error_at_line(0, 0, "f.c", 1, "once");
	error_at_line(0, 0, "f.c", 1, "twice");
	error_at_line(0, 0, "f.c", 2, "other line");
	ck_assert_uint_eq(cap.count, 2);
}
END_TEST

START_TEST(long_message_split)
{
	static char big[9001];
	for (unsigned i = 0; i < 9000; i++)
		big[i] = (char)('A' + i % 26);
	syslog(LOG_INFO, "%s", big);
	ck_assert_uint_eq(cap.count, 3);
	static char joined[9001];
	size_t at = 0;
	struct fields f;
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_uint_le(cap.len[i], EHS_EVENT_MAX);
		decode(i, &f);
		ck_assert_uint_eq(f.part, i + 1);
		ck_assert_uint_eq(f.parts, 3);
		memcpy(joined + at, f.msg, f.msg_len);
		at += f.msg_len;
	}
	ck_assert_uint_eq(at, 9000);
	ck_assert_mem_eq(joined, big, 9000);
}
END_TEST

START_TEST(disabled_by_env)
{
	setenv("EHSYSLOG_DISABLE", "1", 1);
	syslog(LOG_ERR, "nothing");
	warnx("nothing");
	ck_assert_uint_eq(cap.count, 0);
	ck_assert(ehs_passthrough());
}
END_TEST

START_TEST(replace_mode_and_provider)
{
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	setenv("EHSYSLOG_PROVIDER", "Env_Prov", 1);
	syslog(LOG_ERR, "x");
	ck_assert_uint_eq(cap.count, 1);
	ck_assert(!ehs_passthrough());
	ck_assert_str_eq(ehs_tracepoint(LOG_ERR, 1)->name, "Env_Prov_L2K2");
}
END_TEST

START_TEST(config_file_program_section)
{
	char path[] = "/tmp/ehs-conf-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	dprintf(fd, "provider = Global\n[program %s]\nprovider = Mine\npassthrough = no\n",
		program_invocation_short_name);
	close(fd);
	setenv("EHSYSLOG_CONFIG", path, 1);
	syslog(LOG_ERR, "x");
	unlink(path);
	ck_assert_uint_eq(cap.count, 1);
	ck_assert(!ehs_passthrough());
	ck_assert_str_eq(ehs_tracepoint(LOG_ERR, 1)->name, "Mine_L2K2");
}
END_TEST

START_TEST(config_file_off_and_malformed)
{
	char path[] = "/tmp/ehs-conf-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	if (_i == 0)
		dprintf(fd, "[program %s]\ndisable = yes\n", program_invocation_short_name);
	else
		dprintf(fd, "provider = Bad\ndisable = perhaps\n");
	close(fd);
	setenv("EHSYSLOG_CONFIG", path, 1);
	syslog(LOG_ERR, "x");
	unlink(path);
	if (_i == 0) {
		ck_assert_uint_eq(cap.count, 0);
	} else {	/* ignored entirely: defaults */
		ck_assert_uint_eq(cap.count, 1);
		ck_assert_str_eq(ehs_tracepoint(LOG_ERR, 1)->name, "Syslog_L2K2");
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge calls");
	TCase *tc = tcase_create("calls");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, syslog_fields);
	tcase_add_test(tc, every_syslog_form_once);
	tcase_add_test(tc, openlog_ident_facility_mask);
	tcase_add_test(tc, openlog_moves_a_used_priority);
	tcase_add_test(tc, invalid_priority_bits);
	tcase_add_test(tc, warn_error_family_once);
	tcase_add_test(tc, one_per_line);
	tcase_add_test(tc, long_message_split);
	tcase_add_test(tc, disabled_by_env);
	tcase_add_test(tc, replace_mode_and_provider);
	tcase_add_test(tc, config_file_program_section);
	tcase_add_loop_test(tc, config_file_off_and_malformed, 0, 2);
	suite_add_tcase(s, tc);
	return check_run(s);
}
