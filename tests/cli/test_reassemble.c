/* SPDX-License-Identifier: MIT */
/*
 * Split messages put back together by the output stage decode and tail
 * share: the parts' message text joined before anything is printed, in
 * JSON (one line, the first part's fields, no part or parts; a character
 * cut between two parts whole again) and in text; one whose later parts
 * never came printed at the end as far as it goes, in JSON with its
 * part and parts; a part out of sequence ending what was collected.
 */
#include <check.h>

#include "../check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ehsyslog/schema.h>

#include "cli/output/output.h"

#define TRACEPOINT "Syslog_L4K2"
#define META "\"meta\":{\"pid\":42,\"tid\":42,\"level\":4,\"keyword\":\"0x2\"}}"

/* One syslog event of the library's schema (severity info, facility
 * user, errno ENOENT), part of parts when parts is not 0. */
struct event {
	uint8_t bytes[512];
	size_t len;
};

static void build(struct event *ev, const char *text, unsigned part, unsigned parts)
{
	uint8_t meta_buf[256], payload_buf[256];
	struct eventheader h = { .level = 4 };
	struct eh_prefix prefix;
	struct iovec iov[EH_EVENT_IOV];
	struct eh_meta m;
	struct eh_buf p;
	long n;

	ck_assert_int_eq(eh_meta_init(&m, meta_buf, sizeof meta_buf, "app"), 0);
	eh_buf_init(&p, payload_buf, sizeof payload_buf);
	for (int k = 0; k < EHS_FIELD_COUNT; k++) {
		if (ehs_schema[k].when == EHS_FIELD_WITH_FILE ||
		    ehs_schema[k].when == EHS_FIELD_IN_UNIT ||
		    (ehs_schema[k].when == EHS_FIELD_SPLIT && parts == 0))
			continue;
		ck_assert_int_eq(eh_meta_field(&m, ehs_schema[k].name, ehs_schema[k].encoding,
					       ehs_schema[k].format, 0, 0), 0);
	}
	ck_assert_int_eq(eh_meta_finish(&m), 0);
	eh_payload_str8(&p, text, strlen(text));
	eh_payload_u8(&p, 6);
	eh_payload_u8(&p, 1);
	eh_payload_u32(&p, 2);
	if (parts) {
		eh_payload_u16(&p, (uint16_t)part);
		eh_payload_u16(&p, (uint16_t)parts);
	}
	ck_assert_int_eq(p.err, 0);
	n = eh_event_iov(&prefix, &h, NULL, NULL, &m, p.data, p.len, iov);
	ck_assert_int_gt(n, 0);
	ck_assert_uint_le((size_t)n, sizeof ev->bytes);
	ev->len = 0;
	for (int i = 0; i < EH_EVENT_IOV; i++) {
		memcpy(ev->bytes + ev->len, iov[i].iov_base, iov[i].iov_len);
		ev->len += iov[i].iov_len;
	}
}

struct run {
	struct filter filter;
	struct out out;
	char *text;
	size_t text_len;
	FILE *fp;
	int printed;
};

static void start(struct run *r, bool json)
{
	memset(r, 0, sizeof *r);
	r->filter.min_severity = -1;
	r->fp = open_memstream(&r->text, &r->text_len);
	ck_assert_ptr_nonnull(r->fp);
	ck_assert_int_eq(out_init(&r->out, r->fp, "test", &r->filter, json, "host"), 0);
}

static void feed(struct run *r, const char *text, unsigned part, unsigned parts)
{
	struct event ev;
	struct read_event rev = {
		.tracepoint = TRACEPOINT,
		.info = { .has_pid = true, .pid = 42, .tid = 42, .time_ns = 1500000000 },
	};
	int rc;

	build(&ev, text, part, parts);
	rev.data = ev.bytes;
	rev.len = ev.len;
	rc = out_event(&r->out, &rev);
	ck_assert_int_ge(rc, 0);
	r->printed += rc;
}

/* Ends the run (flushing what is held) and compares all it printed. */
static void finish(struct run *r, int lines, const char *expected)
{
	int rc = out_flush(&r->out);

	ck_assert_int_ge(rc, 0);
	r->printed += rc;
	out_free(&r->out);
	ck_assert_int_eq(fclose(r->fp), 0);
	ck_assert_str_eq(r->text, expected);
	ck_assert_int_eq(r->printed, lines);
	free(r->text);
}

START_TEST(test_json_joined)
{
	struct run r;

	start(&r, true);
	/* U+00F6 cut after its first byte; a quote and a newline to escape. */
	feed(&r, "Hel", 1, 3);
	ck_assert_int_eq(r.printed, 0);
	feed(&r, "lo \"w\xc3", 2, 3);
	ck_assert_int_eq(r.printed, 0);
	feed(&r, "\xb6rld\"\n", 3, 3);
	finish(&r, 1,
	       "{\"n\":\"Syslog:app\",\"message\":\"Hello \\\"w\xc3\xb6rld\\\"\\n\","
	       "\"severity\":6,\"facility\":1,\"errno\":\"ENOENT(2)\"," META "\n");
}
END_TEST

START_TEST(test_json_cut_short)
{
	struct run r;

	start(&r, true);
	feed(&r, "one ", 1, 3);
	feed(&r, "two ", 2, 3);
	finish(&r, 1,
	       "{\"n\":\"Syslog:app\",\"message\":\"one two \",\"severity\":6,\"facility\":1,"
	       "\"errno\":\"ENOENT(2)\",\"part\":1,\"parts\":3," META "\n");
}
END_TEST

/* Part 1 again: the first message ends where it got to, the second is
 * whole.  A lone later part is printed as it is. */
START_TEST(test_json_out_of_sequence)
{
	struct run r;

	start(&r, true);
	feed(&r, "a", 1, 2);
	feed(&r, "b", 1, 2);
	feed(&r, "c", 2, 2);
	feed(&r, "d", 2, 2);
	finish(&r, 3,
	       "{\"n\":\"Syslog:app\",\"message\":\"a\",\"severity\":6,\"facility\":1,"
	       "\"errno\":\"ENOENT(2)\",\"part\":1,\"parts\":2," META "\n"
	       "{\"n\":\"Syslog:app\",\"message\":\"bc\",\"severity\":6,\"facility\":1,"
	       "\"errno\":\"ENOENT(2)\"," META "\n"
	       "{\"n\":\"Syslog:app\",\"message\":\"d\",\"severity\":6,\"facility\":1,"
	       "\"errno\":\"ENOENT(2)\",\"part\":2,\"parts\":2," META "\n");
}
END_TEST

START_TEST(test_text_joined)
{
	struct run r;

	start(&r, false);
	feed(&r, "Hello, ", 1, 2);
	feed(&r, "world\t", 2, 2);
	feed(&r, "whole", 0, 0);
	finish(&r, 2,
	       "1.500000 host app[42]: user.info Hello, world\\t\n"
	       "1.500000 host app[42]: user.info whole\n");
}
END_TEST

static Suite *reassemble_suite(void)
{
	Suite *s = suite_create("reassemble");
	TCase *tc = tcase_create("parts");

	tcase_add_test(tc, test_json_joined);
	tcase_add_test(tc, test_json_cut_short);
	tcase_add_test(tc, test_json_out_of_sequence);
	tcase_add_test(tc, test_text_joined);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(reassemble_suite());
}
