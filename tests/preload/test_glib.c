/* SPDX-License-Identifier: MIT */
/*
 * GLib's logging calls on the host: this program links the interposer's
 * wrappers (preload/glib.c) and the bridge over the writer's test
 * double, but not GLib, so its g_log* calls make their events into a
 * capturing sink and go no further.  Checks the level mapping (flags, several level bits, user
 * levels), the event name, and each structured field's place: file and
 * line, string and binary extras, the fields left out.
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <eventheader/eventheader.h>

#include "bridge/bridge.h"
#include "../bridge/capture.h"
#include "event_fields.h"
#include "preload/glib.h"

static struct capture cap;


/* The names of ev's fields, space-separated. */
static const char *names(const struct evf_event *ev)
{
	static char out[512];
	size_t n = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < ev->n; i++)
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", i ? " " : "", ev->f[i].name);
	return out;
}

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	memset(&cap, 0, sizeof cap);
	ue_double_trace(capture_sink, &cap);
}

START_TEST(level_mapping)
{
	static const struct { int glib, severity; unsigned level; } map[] = {
		{ EHS_G_LOG_LEVEL_ERROR, LOG_CRIT, 1 },
		{ EHS_G_LOG_LEVEL_CRITICAL, LOG_ERR, 2 },
		{ EHS_G_LOG_LEVEL_WARNING, LOG_WARNING, 3 },
		{ EHS_G_LOG_LEVEL_MESSAGE, LOG_NOTICE, 4 },
		{ EHS_G_LOG_LEVEL_INFO, LOG_INFO, 4 },
		{ EHS_G_LOG_LEVEL_DEBUG, LOG_DEBUG, 5 },
		{ 1 << 8, LOG_NOTICE, 4 },	/* user-defined levels */
		{ 1 << 30, LOG_NOTICE, 4 },
		/* The flags change nothing. */
		{ EHS_G_LOG_LEVEL_WARNING | EHS_G_LOG_FLAG_FATAL, LOG_WARNING, 3 },
		{ EHS_G_LOG_LEVEL_DEBUG | EHS_G_LOG_FLAG_RECURSION, LOG_DEBUG, 5 },
	};
	struct evf_event ev;
	for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++) {
		g_log(NULL, map[i].glib, "level %u", i);
		evf_decode_captured(&cap, i, &ev);
		ck_assert_uint_eq(evf_num(&ev, "severity"), (unsigned)map[i].severity);
		ck_assert_uint_eq(ev.level, map[i].level);
		ck_assert_uint_eq(evf_num(&ev, "facility"), 1);
		ck_assert_str_eq(names(&ev), "message severity facility errno");
	}
	ck_assert_uint_eq(cap.count, sizeof map / sizeof map[0]);
	/* Flags alone: GLib writes nothing, so no event. */
	g_log(NULL, EHS_G_LOG_FLAG_FATAL | EHS_G_LOG_FLAG_RECURSION, "nothing");
	g_log(NULL, 0, "nothing");
	ck_assert_uint_eq(cap.count, sizeof map / sizeof map[0]);
}
END_TEST

START_TEST(several_level_bits)
{
	struct evf_event ev;
	/* GLib writes once per level bit, the highest first. */
	g_log("d", EHS_G_LOG_LEVEL_CRITICAL | EHS_G_LOG_LEVEL_DEBUG | (1 << 9), "three %d", 3);
	ck_assert_uint_eq(cap.count, 3);
	static const int order[] = { LOG_NOTICE, LOG_DEBUG, LOG_ERR };
	for (unsigned i = 0; i < 3; i++) {
		evf_decode_captured(&cap, i, &ev);
		ck_assert_uint_eq(evf_num(&ev, "severity"), (unsigned)order[i]);
		evf_str_eq(&ev, "message", "three 3");
	}
}
END_TEST

static void call_logv(const char *domain, int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_logv(domain, level, fmt, ap);
	va_end(ap);
}

START_TEST(domain_names_the_event)
{
	struct evf_event ev;
	errno = EACCES;
	g_log("my-domain", EHS_G_LOG_LEVEL_MESSAGE, "hi %s %m", "there");
	ck_assert_int_eq(errno, EACCES);
	evf_decode_captured(&cap, 0, &ev);
	ck_assert_str_eq(ev.name, "my-domain");
	evf_str_eq(&ev, "message", "hi there Permission denied");
	evf_str_eq(&ev, "GLIB_DOMAIN", "my-domain");
	ck_assert_uint_eq(evf_num(&ev, "errno"), EACCES);
	ck_assert_str_eq(names(&ev), "message severity facility errno GLIB_DOMAIN");

	/* No domain: the ident's rule (openlog's ident, else the program). */
	call_logv(NULL, EHS_G_LOG_LEVEL_INFO, "plain %d\n", 1);
	evf_decode_captured(&cap, 1, &ev);
	ck_assert_str_eq(ev.name, program_invocation_short_name);
	evf_str_eq(&ev, "message", "plain 1");
	ck_assert_str_eq(names(&ev), "message severity facility errno");
	openlog("app;x", 0, LOG_LOCAL3);
	g_log(NULL, EHS_G_LOG_LEVEL_INFO, "after openlog");
	g_log("", EHS_G_LOG_LEVEL_INFO, "empty domain");
	closelog();
	evf_decode_captured(&cap, 2, &ev);
	ck_assert_str_eq(ev.name, "app_x");
	ck_assert_uint_eq(evf_num(&ev, "facility"), 19);
	evf_decode_captured(&cap, 3, &ev);
	ck_assert_str_eq(ev.name, "app_x");
	evf_str_eq(&ev, "GLIB_DOMAIN", "");
	ck_assert_uint_eq(cap.count, 4);
}
END_TEST

START_TEST(structured_fields)
{
	struct evf_event ev;
	errno = ENOENT;
	g_log_structured("dom", EHS_G_LOG_LEVEL_WARNING, "CODE_FILE", "src/a.c",
			 "CODE_LINE", "123", "CODE_FUNC", "fn", "OTHER", "value",
			 "MESSAGE", "n=%d s=%s %m", 5, "str");
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(cap.count, 1);
	evf_decode_captured(&cap, 0, &ev);
	ck_assert_str_eq(ev.name, "dom");
	evf_str_eq(&ev, "message", "n=5 s=str No such file or directory");
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_WARNING);
	evf_str_eq(&ev, "file", "src/a.c");
	ck_assert_uint_eq(evf_num(&ev, "line"), 123);
	ck_assert_str_eq(names(&ev),
			 "message severity facility errno file line GLIB_DOMAIN CODE_FUNC OTHER");
	evf_str_eq(&ev, "CODE_FUNC", "fn");
	evf_str_eq(&ev, "OTHER", "value");

	g_log_structured_standard(NULL, EHS_G_LOG_LEVEL_DEBUG, "f.c", "9", "func",
				  "std %s", "msg");
	evf_decode_captured(&cap, 1, &ev);
	ck_assert_str_eq(ev.name, program_invocation_short_name);
	evf_str_eq(&ev, "message", "std msg");
	evf_str_eq(&ev, "file", "f.c");
	ck_assert_uint_eq(evf_num(&ev, "line"), 9);
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_DEBUG);
	ck_assert_str_eq(names(&ev), "message severity facility errno file line CODE_FUNC");
}
END_TEST

START_TEST(array_values)
{
	static const char blob[] = { 'a', 0, 'b' };
	static const char latin1[] = { 'c', (char)0xe9 };
	struct ehs_glog_field f[] = {
		{ "PRIORITY", "4", -1 },
		{ "MESSAGE", "counted message and more", 15 },
		{ "GLIB_DOMAIN", "arr", 3 },
		{ "BLOB", blob, sizeof blob },
		{ "LATIN1", latin1, sizeof latin1 },
		{ "UTF8", "\xc3\xa9t\xc3\xa9", 5 },
		{ "NOVALUE", NULL, -1 },
		{ "message", "shadows the schema", -1 },
		{ "CODE_LINE", "12x", -1 },	/* not a number: a string field */
	};
	g_log_structured_array(EHS_G_LOG_LEVEL_CRITICAL, f, sizeof f / sizeof f[0]);
	struct evf_event ev;
	evf_decode_captured(&cap, 0, &ev);
	ck_assert_str_eq(ev.name, "arr");
	evf_str_eq(&ev, "message", "counted message");
	ck_assert_uint_eq(evf_num(&ev, "severity"), LOG_ERR);
	ck_assert_str_eq(names(&ev),
			 "message severity facility errno GLIB_DOMAIN BLOB LATIN1 UTF8 CODE_LINE");
	evf_bytes_eq(&ev, "BLOB", EH_ENC_BINARY_LENGTH16_CHAR8, blob, sizeof blob);
	evf_bytes_eq(&ev, "LATIN1", EH_ENC_BINARY_LENGTH16_CHAR8, latin1, sizeof latin1);
	evf_str_eq(&ev, "UTF8", "\xc3\xa9t\xc3\xa9");
	evf_str_eq(&ev, "CODE_LINE", "12x");

	/* A line without a file stays a string; no fields, no event. */
	struct ehs_glog_field g[] = { { "MESSAGE", "m", -1 }, { "CODE_LINE", "7", -1 } };
	g_log_structured_array(EHS_G_LOG_LEVEL_INFO, g, 2);
	g_log_structured_array(EHS_G_LOG_LEVEL_INFO, g, 0);
	ck_assert_uint_eq(cap.count, 2);
	evf_decode_captured(&cap, 1, &ev);
	ck_assert_str_eq(names(&ev), "message severity facility errno CODE_LINE");
	evf_str_eq(&ev, "CODE_LINE", "7");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("glib calls");
	TCase *tc = tcase_create("glib");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, level_mapping);
	tcase_add_test(tc, several_level_bits);
	tcase_add_test(tc, domain_names_the_event);
	tcase_add_test(tc, structured_fields);
	tcase_add_test(tc, array_values);
	suite_add_tcase(s, tc);
	return check_run(s);
}
