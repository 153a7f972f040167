/* SPDX-License-Identifier: MIT */
/*
 * The pure parts of ehsyslog export: the syslog severity as the OTLP
 * SeverityNumber of the logs data model's Appendix B, the backoff and
 * Retry-After arithmetic, which statuses are retried, the bounded queue,
 * the UTF-8 check that chooses string or bytes, and the request packing
 * that keeps the records' order (read back with protobuf-c).
 */
#include <check.h>

#include "../check_run.h"
#include <stdlib.h>
#include <string.h>

#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include "cli/export/backoff.h"
#include "cli/export/queue.h"
#include "cli/export/record.h"
#include "cli/export/request.h"
#include "cli/export/severity.h"

START_TEST(severity_table)
{
	static const int number[8] = { 21, 19, 18, 17, 13, 10, 9, 5 };
	static const char *const text[8] = {
		"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
	};

	for (unsigned s = 0; s < 8; s++) {
		ck_assert_int_eq(otlp_severity_number(s), number[s]);
		ck_assert_str_eq(otlp_severity_text(s), text[s]);
	}
	ck_assert_int_eq(otlp_severity_number(8), 0);
	ck_assert_ptr_null(otlp_severity_text(8));
}
END_TEST

START_TEST(backoff_doubles_to_the_cap)
{
	ck_assert_int_eq(backoff_delay_ms(0, 500, 30000), 500);
	ck_assert_int_eq(backoff_delay_ms(1, 500, 30000), 1000);
	ck_assert_int_eq(backoff_delay_ms(5, 500, 30000), 16000);
	ck_assert_int_eq(backoff_delay_ms(6, 500, 30000), 30000);
	ck_assert_int_eq(backoff_delay_ms(1000, 500, 30000), 30000);
	ck_assert_int_eq(backoff_delay_ms(0, 40000, 30000), 30000);
}
END_TEST

START_TEST(retryable_statuses)
{
	static const long yes[] = { 429, 502, 503, 504 };
	static const long no[] = { 200, 400, 401, 403, 404, 413, 500, 501, 505 };

	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		ck_assert(backoff_status_retryable(yes[i]));
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		ck_assert(!backoff_status_retryable(no[i]));
}
END_TEST

START_TEST(retry_after_values)
{
	/* 784111777 is Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example). */
	time_t t = 784111777;

	ck_assert_int_eq(retry_after_ms("120", t), 120000);
	ck_assert_int_eq(retry_after_ms(" 0 ", t), 0);
	ck_assert_int_eq(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", t - 7), 7000);
	ck_assert_int_eq(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", t + 5), 0);
	ck_assert_int_eq(retry_after_ms("-1", t), -1);
	ck_assert_int_eq(retry_after_ms("12s", t), -1);
	ck_assert_int_eq(retry_after_ms("", t), -1);
	ck_assert_int_eq(retry_after_ms("Sunday, 06-Nov-94 08:49:37 GMT", t), -1);
	ck_assert_int_eq(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT x", t), -1);
}
END_TEST

START_TEST(queue_bounds_count_and_bytes)
{
	struct queue q;
	const uint8_t res[3] = { 1, 2, 3 }, rec[5] = { 9, 8, 7, 6, 5 };

	ck_assert_int_eq(queue_init(&q, 3, 20), 0);
	ck_assert(queue_push(&q, res, 3, rec, 5));
	ck_assert(queue_push(&q, res, 3, rec, 4));
	ck_assert_uint_eq(q.bytes, 15);
	/* 8 more bytes would make 23 > 20: dropped and counted. */
	ck_assert(!queue_push(&q, res, 3, rec, 5));
	ck_assert_uint_eq(q.dropped, 1);
	ck_assert(queue_push(&q, res, 2, rec, 3));
	ck_assert_uint_eq(q.len, 3);
	/* Full by count, though 0 bytes would fit. */
	ck_assert(!queue_push(&q, res, 0, rec, 0));
	ck_assert_uint_eq(q.dropped, 2);
	ck_assert_uint_eq(queue_at(&q, 0)->record_len, 5);
	ck_assert_mem_eq(queue_at(&q, 0)->record, rec, 5);
	ck_assert_mem_eq(queue_at(&q, 0)->resource, res, 3);
	queue_pop(&q, 2);
	ck_assert_uint_eq(q.len, 1);
	ck_assert_uint_eq(q.bytes, 5);
	/* The ring wraps: the survivor stays first. */
	ck_assert(queue_push(&q, res, 1, rec, 1));
	ck_assert(queue_push(&q, res, 1, rec, 2));
	ck_assert_uint_eq(queue_at(&q, 0)->record_len, 3);
	ck_assert_uint_eq(queue_at(&q, 2)->record_len, 2);
	queue_free(&q);
}
END_TEST

START_TEST(utf8_or_bytes)
{
	ck_assert(record_utf8((const uint8_t *)"plain", 5));
	ck_assert(record_utf8((const uint8_t *)"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14));
	ck_assert(!record_utf8((const uint8_t *)"a\0b", 3));	/* NUL */
	ck_assert(!record_utf8((const uint8_t *)"\xc3", 1));	/* cut */
	ck_assert(!record_utf8((const uint8_t *)"\xc0\xaf", 2));	/* overlong */
	ck_assert(!record_utf8((const uint8_t *)"\xed\xa0\x80", 3));	/* surrogate */
	ck_assert(!record_utf8((const uint8_t *)"\xf4\x90\x80\x80", 4));	/* > U+10FFFF */
	ck_assert(!record_utf8((const uint8_t *)"\xff", 1));
}
END_TEST

/* Records of two resources, A A B A: three ResourceLogs, in order. */
START_TEST(request_keeps_order)
{
	struct record_pair extra = { "k", "v" };
	struct record_context a = { "hostA", NULL, 0 }, b = { "hostB", &extra, 1 };
	const char *msg[4] = { "one", "two", "three", "four" };
	const struct record_context *ctx[4] = { &a, &a, &b, &a };
	Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceRequest *req;
	struct record_bytes rb = { 0 };
	struct queue q;
	uint8_t *body;
	size_t len;

	ck_assert_int_eq(queue_init(&q, 8, 1 << 20), 0);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(record_pack_own(ctx[i], 4, msg[i], 1000 + i, &rb), 0);
		ck_assert(queue_push(&q, rb.resource, rb.resource_len, rb.record, rb.record_len));
	}
	ck_assert_int_eq(request_pack(&q, 4, &body, &len), 0);
	req = opentelemetry__proto__collector__logs__v1__export_logs_service_request__unpack(NULL, len, body);
	ck_assert_ptr_nonnull(req);
	ck_assert_uint_eq(req->n_resource_logs, 3);
	{
		static const size_t counts[3] = { 2, 1, 1 };
		static const char *const hosts[3] = { "hostA", "hostB", "hostA" };
		int k = 0;

		for (size_t r = 0; r < 3; r++) {
			Opentelemetry__Proto__Logs__V1__ResourceLogs *rl = req->resource_logs[r];
			Opentelemetry__Proto__Logs__V1__ScopeLogs *sl;

			ck_assert_uint_eq(rl->n_scope_logs, 1);
			sl = rl->scope_logs[0];
			ck_assert_str_eq(sl->scope->name, "ehsyslog");
			ck_assert_str_eq(rl->resource->attributes[0]->key, "host.name");
			ck_assert_str_eq(rl->resource->attributes[0]->value->string_value, hosts[r]);
			ck_assert_str_eq(rl->resource->attributes[1]->key, "service.name");
			ck_assert_str_eq(rl->resource->attributes[1]->value->string_value, "ehsyslog-export");
			ck_assert_uint_eq(rl->resource->n_attributes, r == 1 ? 5 : 4);
			ck_assert_uint_eq(sl->n_log_records, counts[r]);
			for (size_t i = 0; i < sl->n_log_records; i++, k++) {
				Opentelemetry__Proto__Logs__V1__LogRecord *lr = sl->log_records[i];

				ck_assert_str_eq(lr->body->string_value, msg[k]);
				ck_assert_uint_eq(lr->time_unix_nano, 1000 + k);
				ck_assert_int_eq(lr->severity_number, 13);
				ck_assert_str_eq(lr->severity_text, "warning");
			}
		}
		ck_assert_int_eq(k, 4);
	}
	opentelemetry__proto__collector__logs__v1__export_logs_service_request__free_unpacked(req, NULL);
	free(body);
	record_bytes_free(&rb);
	queue_free(&q);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("pure");

	tcase_add_test(tc, severity_table);
	tcase_add_test(tc, backoff_doubles_to_the_cap);
	tcase_add_test(tc, retryable_statuses);
	tcase_add_test(tc, retry_after_values);
	tcase_add_test(tc, queue_bounds_count_and_bytes);
	tcase_add_test(tc, utf8_or_bytes);
	tcase_add_test(tc, request_keeps_order);
	suite_add_tcase(s, tc);
	return check_run(s);
}
