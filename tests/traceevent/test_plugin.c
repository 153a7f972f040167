/* SPDX-License-Identifier: MIT */
/*
 * plugin_ehsyslog.so loaded by libtraceevent as trace-cmd loads it, then
 * events printed through tep_print_event: an EventHeader user_event is
 * the decoder's exact text line, whether the plugin came before or after
 * the formats; each cut of the event prints the decoder's error for it,
 * never its bytes; other events print as without the plugin; after the
 * unload nothing points into the plugin any more.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <check.h>

#include "../check_run.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "eventheader/eventheader.h"

/* The common fields and EventHeader's declared ones, as a 6.12 kernel
 * writes the format of an EventHeader user_event. */
#define EH_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n" \
	"\tfield:u8 eventheader_flags;\toffset:8;\tsize:1;\tsigned:0;\n" \
	"\tfield:u8 version;\toffset:9;\tsize:1;\tsigned:0;\n" \
	"\tfield:u16 id;\toffset:10;\tsize:2;\tsigned:0;\n" \
	"\tfield:u16 tag;\toffset:12;\tsize:2;\tsigned:0;\n" \
	"\tfield:u8 opcode;\toffset:14;\tsize:1;\tsigned:0;\n" \
	"\tfield:u8 level;\toffset:15;\tsize:1;\tsigned:0;\n\n" \
	"print fmt: \"eventheader_flags=%u version=%u id=%u tag=%u opcode=%u level=%u\", " \
	"REC->eventheader_flags, REC->version, REC->id, REC->tag, REC->opcode, REC->level\n"

enum { ID_SYSLOG = 413, ID_PLAIN, ID_OTHER_SYSTEM, ID_BAD_NAME };

static const char syslog_format[] = "name: Syslog_L4K2\nID: 413\nformat:\n" EH_FIELDS;
/* Another system's event with the same fields: not ours. */
static const char other_format[] = "name: Syslog_L4K2\nID: 415\nformat:\n" EH_FIELDS;
/* EventHeader's fields, a name without _L<level>K<keyword>. */
static const char bad_name_format[] = "name: NoLevel\nID: 416\nformat:\n" EH_FIELDS;
/* A user_event of some other producer. */
static const char plain_format[] = "name: plain\nID: 414\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:u32 count;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"count=%u\", REC->count\n";

/* The event ehsyslog's bridge writes (tests/eventheader/test_decode.c). */
static const uint8_t syslog_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 4,
	26, 0, 0x01, 0x00,
	'a', 'p', 'p', 0,
	'm', 'e', 's', 's', 'a', 'g', 'e', 0, 0x0a,
	's', 'e', 'v', 0, 0x02,
	'e', 'r', 'r', 'n', 'o', 0, 0x84, 0x04,
	5, 0, 'h', 'e', 'l', 'l', 'o',
	6,
	2, 0, 0, 0,
};
static const char syslog_line[] =
	"Syslog:app message=\"hello\" sev=6 errno=ENOENT(2) [cpu=1 pid=77 tid=77 level=4 keyword=0x2]";
static const char raw_line[] =
	"eventheader_flags=7 version=0 id=0 tag=0 opcode=0 level=4";

#define COMMON_SIZE 8

/* The record: common fields (type id, pid 77) then payload; the buffer
 * is larger than size so the default printer may read every field. */
static uint8_t record_bytes[COMMON_SIZE + sizeof syslog_event + 64];

static struct tep_record make_record(int id, const void *payload, size_t len)
{
	struct tep_record r;
	uint16_t type = (uint16_t)id;
	int32_t pid = 77;

	memset(record_bytes, 0, sizeof record_bytes);
	memcpy(record_bytes, &type, 2);
	memcpy(record_bytes + 4, &pid, 4);
	memcpy(record_bytes + COMMON_SIZE, payload, len);
	memset(&r, 0, sizeof r);
	r.data = record_bytes;
	r.size = (int)(COMMON_SIZE + len);
	r.cpu = 1;
	return r;
}

static void parse(struct tep_handle *tep, const char *format, const char *sys)
{
	ck_assert_int_eq(tep_parse_event(tep, format, strlen(format), sys), 0);
}

static void parse_all(struct tep_handle *tep)
{
	parse(tep, syslog_format, "user_events");
	parse(tep, plain_format, "user_events");
	parse(tep, other_format, "other");
	parse(tep, bad_name_format, "user_events");
}

/* The plugin from the build tree only: no system plugins, no ~/.local. */
static struct tep_plugin_list *load_plugin(struct tep_handle *tep)
{
	const char *top = getenv("top_builddir");
	char dir[4096];
	struct tep_plugin_list *list;
	struct trace_seq s;

	snprintf(dir, sizeof dir, "%s/src/traceevent/.libs", top ? top : ".");
	setenv("TRACEEVENT_PLUGIN_DIR", dir, 1);
	setenv("HOME", "/nonexistent", 1);
	tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
	list = tep_load_plugins(tep);
	trace_seq_init(&s);
	tep_print_plugins(&s, "", "\n", list);
	trace_seq_terminate(&s);
	ck_assert_msg(strstr(s.buffer, "/plugin_ehsyslog.so\n") != NULL,
		      "plugin not loaded from %s: [%s]", dir, s.buffer);
	trace_seq_destroy(&s);
	return list;
}

/* What tep_print_event prints for the record as trace-cmd report's info. */
static char *print(struct tep_handle *tep, struct tep_record *r)
{
	struct trace_seq s;
	char *text;

	trace_seq_init(&s);
	tep_print_event(tep, &s, r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	text = strdup(s.buffer);
	trace_seq_destroy(&s);
	ck_assert_ptr_nonnull(text);
	return text;
}

static void expect_print(struct tep_handle *tep, int id, const void *payload, size_t len,
			 const char *want)
{
	struct tep_record r = make_record(id, payload, len);
	char *got = print(tep, &r);

	ck_assert_str_eq(got, want);
	free(got);
}

/* The syslog event's line with the plugin loaded before the formats (the
 * order of trace-cmd and perf) or after them (a program that parses
 * first): the same line either way. */
static void check_load_order(bool plugin_first)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_plugin_list *list = NULL;

	ck_assert_ptr_nonnull(tep);
	if (plugin_first)
		list = load_plugin(tep);
	parse_all(tep);
	if (!plugin_first)
		list = load_plugin(tep);
	expect_print(tep, ID_SYSLOG, syslog_event, sizeof syslog_event, syslog_line);
	tep_unload_plugins(list, tep);
	tep_free(tep);
}

START_TEST(test_loaded_before_formats)
{
	check_load_order(true);
}
END_TEST

START_TEST(test_loaded_after_formats)
{
	check_load_order(false);
}
END_TEST

/* The fixture of the cases below: plugin loaded, formats parsed. */
static struct tep_handle *loaded;
static struct tep_plugin_list *loaded_plugins;

static void load_and_parse(void)
{
	loaded = tep_alloc();
	ck_assert_ptr_nonnull(loaded);
	loaded_plugins = load_plugin(loaded);
	parse_all(loaded);
}

static void unload_and_free(void)
{
	tep_unload_plugins(loaded_plugins, loaded);
	tep_free(loaded);
}

/* Events that are not EventHeader user_events print as without it. */
START_TEST(test_other_events_untouched)
{
	uint32_t count = 5;

	expect_print(loaded, ID_PLAIN, &count, sizeof count, "count=5");
	expect_print(loaded, ID_OTHER_SYSTEM, syslog_event, sizeof syslog_event, raw_line);
}
END_TEST

/* Every cut of the event, and a name the decoder refuses: the decoder's
 * own error, never the event's bytes. */
START_TEST(test_malformed_prints_decoder_error)
{
	struct eh_record_info info = { 0 };
	char want[256], line[1024];

	for (size_t len = 0; len < sizeof syslog_event; len++) {
		long n = eh_decode_text("Syslog_L4K2", syslog_event, len, &info,
					EH_DECODE_DEFAULT, line, sizeof line);

		ck_assert_int_lt(n, 0);
		snprintf(want, sizeof want, "EventHeader decode error: %s", eh_strerror((int)n));
		expect_print(loaded, ID_SYSLOG, syslog_event, len, want);
	}
	expect_print(loaded, ID_BAD_NAME, syslog_event, sizeof syslog_event,
		     "EventHeader decode error: no _L<level>K<keyword> in tracepoint name");
}
END_TEST

/* After the unload the events print as before the load (a handler left
 * behind would call into the unmapped plugin). */
START_TEST(test_unload_removes_handlers)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_plugin_list *list = load_plugin(tep);

	parse_all(tep);
	expect_print(tep, ID_SYSLOG, syslog_event, sizeof syslog_event, syslog_line);
	tep_unload_plugins(list, tep);
	expect_print(tep, ID_SYSLOG, syslog_event, sizeof syslog_event, raw_line);
	tep_free(tep);
}
END_TEST

static Suite *plugin_suite(void)
{
	Suite *s = suite_create("plugin");
	TCase *tc = tcase_create("plugin");

	tcase_add_test(tc, test_loaded_before_formats);
	tcase_add_test(tc, test_loaded_after_formats);
	tcase_add_test(tc, test_unload_removes_handlers);
	suite_add_tcase(s, tc);

	tc = tcase_create("loaded");
	tcase_add_checked_fixture(tc, load_and_parse, unload_and_free);
	tcase_add_test(tc, test_other_events_untouched);
	tcase_add_test(tc, test_malformed_prints_decoder_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(plugin_suite());
}
