/* SPDX-License-Identifier: MIT */
/*
 * The pure parts of ehsyslog export: the syslog severity as the OTLP
 * SeverityNumber of the logs data model's Appendix B, the backoff and
 * Retry-After arithmetic, which statuses are retried, the bounded queue,
 * the UTF-8 check that chooses string or bytes, the request packing
 * that keeps the records' order (read back with protobuf-c), the JSON
 * encoding byte for byte, gzip (inflated back with zlib), the
 * partial_success of an answer in both encodings, the records' names
 * and unique keys, the process of a thread from /proc's texts, and the
 * header file's owner and mode rule.
 */
#include <check.h>
#include <limits.h>
#include <math.h>

#include "../check_run.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "google/rpc/status.pb-c.h"
#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include "cli/export/backoff.h"
#include "cli/export/batch.h"
#include "cli/export/gzip.h"
#include "cli/export/otlp/json.h"
#include "cli/export/queue/queue.h"
#include "cli/export/otlp/record.h"
#include "cli/export/otlp/request.h"
#include "cli/export/otlp/response.h"
#include "cli/export/secret_file.h"
#include "cli/export/otlp/severity.h"
#include "cli/tail/thread_process.h"

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

/* The ceiling doubles up to the cap; the wait is drawn from its upper
 * half: random 0 gives the half, the largest just under the ceiling. */
START_TEST(backoff_doubles_to_the_cap)
{
	ck_assert_int_eq(backoff_delay_ms(0, 500, 30000, 0), 250);
	ck_assert_int_eq(backoff_delay_ms(0, 500, 30000, UINT32_MAX), 499);
	ck_assert_int_eq(backoff_delay_ms(0, 500, 30000, 1u << 31), 375);
	ck_assert_int_eq(backoff_delay_ms(1, 500, 30000, 0), 500);
	ck_assert_int_eq(backoff_delay_ms(5, 500, 30000, UINT32_MAX), 15999);
	ck_assert_int_eq(backoff_delay_ms(6, 500, 30000, 0), 15000);
	ck_assert_int_eq(backoff_delay_ms(6, 500, 30000, UINT32_MAX), 29999);
	ck_assert_int_eq(backoff_delay_ms(1000, 500, 30000, UINT32_MAX), 29999);
	ck_assert_int_eq(backoff_delay_ms(0, 40000, 30000, 0), 15000);
	/* No overflow at the largest. */
	ck_assert_int_eq(backoff_delay_ms(70, 1, LONG_MAX, UINT32_MAX),
			 LONG_MAX / 2 + (long)((uint64_t)(LONG_MAX - LONG_MAX / 2) * UINT32_MAX >> 32));
}
END_TEST

/* Jitter: every draw within [ceiling / 2, ceiling), and the draws spread
 * over that range (no two exporters in step). */
START_TEST(backoff_jitter_spreads)
{
	uint64_t state = 42;
	long lo = LONG_MAX, hi = 0;

	for (int i = 0; i < 10000; i++) {
		long d = backoff_delay_ms(3, 500, 30000, backoff_random(&state));

		ck_assert_int_ge(d, 2000);
		ck_assert_int_lt(d, 4000);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	ck_assert_int_lt(lo, 2010);
	ck_assert_int_gt(hi, 3990);
}
END_TEST

/* Retry-After within [backoff, max]: 0 is no flood, 10^10 s no stall. */
START_TEST(retry_after_bounds)
{
	ck_assert_int_eq(backoff_retry_wait_ms(-1, 700, 30000), 700);
	ck_assert_int_eq(backoff_retry_wait_ms(0, 700, 30000), 700);
	ck_assert_int_eq(backoff_retry_wait_ms(2000, 700, 30000), 2000);
	ck_assert_int_eq(backoff_retry_wait_ms(30000, 700, 30000), 30000);
	ck_assert_int_eq(backoff_retry_wait_ms(retry_after_ms("10000000000", 0), 700, 30000), 30000);
	ck_assert_int_eq(backoff_retry_wait_ms(LONG_MAX, 700, 30000), 30000);
}
END_TEST

START_TEST(retryable_statuses)
{
	static const long retry[] = { 0, 429, 502, 503, 504 };
	static const long drop[] = { 100, 301, 302, 307, 308, 400, 401, 403, 404, 413, 500, 501, 505 };

	ck_assert_int_eq(backoff_classify(200, false), BACKOFF_TAKEN);
	ck_assert_int_eq(backoff_classify(204, false), BACKOFF_TAKEN);
	/* An answer over the limit is an error, not a success. */
	ck_assert_int_eq(backoff_classify(200, true), BACKOFF_DROP);
	for (size_t i = 0; i < sizeof retry / sizeof *retry; i++) {
		ck_assert_int_eq(backoff_classify(retry[i], false), BACKOFF_RETRY);
		ck_assert_int_eq(backoff_classify(retry[i], true), BACKOFF_RETRY);
	}
	for (size_t i = 0; i < sizeof drop / sizeof *drop; i++)
		ck_assert_int_eq(backoff_classify(drop[i], false), BACKOFF_DROP);
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
	/* Huge: saturated, never wrapped. */
	ck_assert_int_eq(retry_after_ms("10000000000", t), 10000000000L * 1000);
	ck_assert_int_eq(retry_after_ms("99999999999999999999999999", t), LONG_MAX / 1000 * 1000);
	ck_assert_int_eq(retry_after_ms("9223372036854775", t), LONG_MAX / 1000 * 1000);
	ck_assert_int_eq(retry_after_ms("9223372036854774", t), 9223372036854774000L);
	ck_assert_int_eq(retry_after_ms("Fri, 31 Dec 9999 23:59:59 GMT", t),
			 (253402300799L - t) * 1000);
}
END_TEST

START_TEST(queue_bounds_count_and_bytes)
{
	struct queue q;
	const uint8_t res[3] = { 1, 2, 3 }, rec[5] = { 9, 8, 7, 6, 5 };

	ck_assert_int_eq(queue_init(&q, 3, 20), 0);
	ck_assert(queue_push(&q, res, 3, rec, 5, 0));
	ck_assert(queue_push(&q, res, 3, rec, 4, 0));
	ck_assert_uint_eq(q.bytes, 15);
	/* 8 more bytes would make 23 > 20: dropped and counted. */
	ck_assert(!queue_push(&q, res, 3, rec, 5, 0));
	ck_assert_uint_eq(q.dropped, 1);
	ck_assert(queue_push(&q, res, 2, rec, 3, 0));
	ck_assert_uint_eq(q.len, 3);
	/* Full by count, though 0 bytes would fit. */
	ck_assert(!queue_push(&q, res, 0, rec, 0, 0));
	ck_assert_uint_eq(q.dropped, 2);
	ck_assert_uint_eq(queue_at(&q, 0)->record_len, 5);
	ck_assert_mem_eq(queue_at(&q, 0)->record, rec, 5);
	ck_assert_mem_eq(queue_at(&q, 0)->resource, res, 3);
	queue_pop(&q, 2);
	ck_assert_uint_eq(q.len, 1);
	ck_assert_uint_eq(q.bytes, 5);
	/* The ring wraps: the survivor stays first. */
	ck_assert(queue_push(&q, res, 1, rec, 1, 7));
	ck_assert(queue_push(&q, res, 1, rec, 2, 8));
	ck_assert_uint_eq(queue_at(&q, 0)->record_len, 3);
	ck_assert_uint_eq(queue_at(&q, 2)->record_len, 2);
	/* Each keeps when it came: the batch's delay counts from its oldest. */
	ck_assert_int_eq(queue_at(&q, 1)->came_ns, 7);
	ck_assert_int_eq(queue_at(&q, 2)->came_ns, 8);
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
		ck_assert(queue_push(&q, rb.resource, rb.resource_len, rb.record, rb.record_len, 0));
	}
	ck_assert_int_eq(request_pack(&q, 4, REQUEST_PROTOBUF, &body, &len), 0);
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

typedef Opentelemetry__Proto__Common__V1__AnyValue AnyValue;
typedef Opentelemetry__Proto__Common__V1__KeyValue KeyValue;

#define ANY_CASE(x) OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_##x

/* m as JSON, NUL-terminated for comparing; free it. */
static char *json_of(const ProtobufCMessage *m)
{
	uint8_t *out;
	size_t len;
	char *s;

	ck_assert_int_eq(json_encode(m, &out, &len), 0);
	s = malloc(len + 1);
	ck_assert_ptr_nonnull(s);
	memcpy(s, out, len);
	s[len] = '\0';
	ck_assert_uint_eq(strlen(s), len);	/* no NUL inside */
	free(out);
	return s;
}

static void any_init(AnyValue *v, int value_case)
{
	static const AnyValue init = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__INIT;

	*v = init;
	v->value_case = value_case;
}

/* A LogRecord with a field of every kind the logs messages have: fixed64
 * at its largest, enum, string, every AnyValue (a oneof member at its
 * default too), uint32 and fixed32, trace and span ids. */
START_TEST(json_every_field_kind)
{
	static uint8_t trace[16] = { 0x5b, 0x8e, 0xff, 0xf7, 0x98, 0x03, 0x81, 0x03,
				     0xd2, 0x69, 0xb6, 0x33, 0x81, 0x3f, 0xc6, 0x0c };
	static uint8_t span[8] = { 0xee, 0xe1, 0x9b, 0x7e, 0xc3, 0xc1, 0xb1, 0x74 };
	static uint8_t raw[3] = { 0x00, 0xff, 0x10 };
	static const char *const keys[12] = {
		"i", "zero", "empty", "b", "d", "raw", "raw1", "raw2", "arr", "kv", "unset", "t",
	};
	Opentelemetry__Proto__Logs__V1__LogRecord rec = OPENTELEMETRY__PROTO__LOGS__V1__LOG_RECORD__INIT;
	Opentelemetry__Proto__Common__V1__ArrayValue arr =
		OPENTELEMETRY__PROTO__COMMON__V1__ARRAY_VALUE__INIT;
	Opentelemetry__Proto__Common__V1__KeyValueList kvl =
		OPENTELEMETRY__PROTO__COMMON__V1__KEY_VALUE_LIST__INIT;
	AnyValue body, v[12], elems[2], inner;
	AnyValue *elemp[2] = { &elems[0], &elems[1] };
	KeyValue kv[13], *kvp[12], *innerp[1] = { &kv[12] };
	char *s;

	for (int i = 0; i < 13; i++) {
		static const KeyValue init = OPENTELEMETRY__PROTO__COMMON__V1__KEY_VALUE__INIT;

		kv[i] = init;
		if (i < 12) {
			kv[i].key = (char *)keys[i];
			kv[i].value = &v[i];
			kvp[i] = &kv[i];
		}
	}
	any_init(&v[0], ANY_CASE(INT_VALUE));
	v[0].int_value = INT64_MIN;
	any_init(&v[1], ANY_CASE(INT_VALUE));
	any_init(&v[2], ANY_CASE(STRING_VALUE));
	v[2].string_value = (char *)"";
	any_init(&v[3], ANY_CASE(BOOL_VALUE));
	any_init(&v[4], ANY_CASE(DOUBLE_VALUE));
	v[4].double_value = -2.5;
	any_init(&v[5], ANY_CASE(BYTES_VALUE));
	v[5].bytes_value = (ProtobufCBinaryData){ 3, raw };
	any_init(&v[6], ANY_CASE(BYTES_VALUE));
	v[6].bytes_value = (ProtobufCBinaryData){ 1, (uint8_t *)"f" };
	any_init(&v[7], ANY_CASE(BYTES_VALUE));
	v[7].bytes_value = (ProtobufCBinaryData){ 2, (uint8_t *)"fo" };
	any_init(&elems[0], ANY_CASE(INT_VALUE));
	elems[0].int_value = 1;
	any_init(&elems[1], ANY_CASE(STRING_VALUE));
	elems[1].string_value = (char *)"x";
	arr.n_values = 2;
	arr.values = elemp;
	any_init(&v[8], ANY_CASE(ARRAY_VALUE));
	v[8].array_value = &arr;
	any_init(&inner, ANY_CASE(BOOL_VALUE));
	inner.bool_value = 1;
	kv[12].key = (char *)"k";
	kv[12].value = &inner;
	kvl.n_values = 1;
	kvl.values = innerp;
	any_init(&v[9], ANY_CASE(KVLIST_VALUE));
	v[9].kvlist_value = &kvl;
	any_init(&v[10], ANY_CASE(_NOT_SET));
	any_init(&v[11], ANY_CASE(DOUBLE_VALUE));
	v[11].double_value = 0.1;	/* 17 digits: read back, the same double */
	any_init(&body, ANY_CASE(STRING_VALUE));
	body.string_value = (char *)"a \"quoted\" back\\slash";

	rec.time_unix_nano = UINT64_MAX;
	rec.severity_number = OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_ERROR;
	rec.severity_text = (char *)"err";
	rec.body = &body;
	rec.n_attributes = 12;
	rec.attributes = kvp;
	rec.dropped_attributes_count = UINT32_MAX;
	rec.flags = 1;
	rec.trace_id = (ProtobufCBinaryData){ 16, trace };
	rec.span_id = (ProtobufCBinaryData){ 8, span };
	rec.observed_time_unix_nano = 1700000000000000001ull;
	rec.event_name = (char *)"device.app.lifecycle";
	s = json_of(&rec.base);
	ck_assert_str_eq(s,
		"{\"timeUnixNano\":\"18446744073709551615\",\"severityNumber\":17,"
		"\"severityText\":\"err\",\"body\":{\"stringValue\":\"a \\\"quoted\\\" back\\\\slash\"},"
		"\"attributes\":["
		"{\"key\":\"i\",\"value\":{\"intValue\":\"-9223372036854775808\"}},"
		"{\"key\":\"zero\",\"value\":{\"intValue\":\"0\"}},"
		"{\"key\":\"empty\",\"value\":{\"stringValue\":\"\"}},"
		"{\"key\":\"b\",\"value\":{\"boolValue\":false}},"
		"{\"key\":\"d\",\"value\":{\"doubleValue\":-2.5}},"
		"{\"key\":\"raw\",\"value\":{\"bytesValue\":\"AP8Q\"}},"
		"{\"key\":\"raw1\",\"value\":{\"bytesValue\":\"Zg==\"}},"
		"{\"key\":\"raw2\",\"value\":{\"bytesValue\":\"Zm8=\"}},"
		"{\"key\":\"arr\",\"value\":{\"arrayValue\":{\"values\":[{\"intValue\":\"1\"},{\"stringValue\":\"x\"}]}}},"
		"{\"key\":\"kv\",\"value\":{\"kvlistValue\":{\"values\":[{\"key\":\"k\",\"value\":{\"boolValue\":true}}]}}},"
		"{\"key\":\"unset\",\"value\":{}},"
		"{\"key\":\"t\",\"value\":{\"doubleValue\":0.10000000000000001}}],"
		"\"droppedAttributesCount\":4294967295,\"flags\":1,"
		"\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"eee19b7ec3c1b174\","
		"\"observedTimeUnixNano\":\"1700000000000000001\",\"eventName\":\"device.app.lifecycle\"}");
	free(s);
}
END_TEST

/* Fields at their defaults are left out; special doubles are strings. */
START_TEST(json_defaults_and_special_doubles)
{
	Opentelemetry__Proto__Logs__V1__LogRecord rec = OPENTELEMETRY__PROTO__LOGS__V1__LOG_RECORD__INIT;
	AnyValue v;
	char *s;

	rec.severity_text = (char *)"";
	s = json_of(&rec.base);
	ck_assert_str_eq(s, "{}");
	free(s);
	any_init(&v, ANY_CASE(DOUBLE_VALUE));
	v.double_value = -HUGE_VAL;
	s = json_of(&v.base);
	ck_assert_str_eq(s, "{\"doubleValue\":\"-Infinity\"}");
	free(s);
	v.double_value = NAN;
	s = json_of(&v.base);
	ck_assert_str_eq(s, "{\"doubleValue\":\"NaN\"}");
	free(s);
}
END_TEST

/* Every control character escaped, U+2028/9 too; a byte that is not
 * UTF-8 (of a cut E2 82, an overlong C0 AF, a surrogate ED A0 80, F4 90
 * 80 80 past U+10FFFF) is its Latin-1 character, escaped too when that
 * is a control; the rest passes as it is. */
START_TEST(json_escaping)
{
	static const char in[] =
		"\x01\x1f\x7f|\xc2\x85|\xe2\x80\xa8\xe2\x80\xa9|/|\xc3\xa9\xf0\x9f\x98\x80|"
		"\xff|\xe2\x82|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\b\f\n\r\t";
	static const char want[] =
		"{\"stringValue\":\"\\u0001\\u001f\\u007f|\\u0085|\\u2028\\u2029|/|\xc3\xa9\xf0\x9f\x98\x80|"
		"\xc3\xbf|\xc3\xa2\\u0082|\xc3\x80\xc2\xaf|"
		"\xc3\xad\xc2\xa0\\u0080|\xc3\xb4\\u0090\\u0080\\u0080|"
		"\\b\\f\\n\\r\\t\"}";
	AnyValue v;
	char *s;

	any_init(&v, ANY_CASE(STRING_VALUE));
	v.string_value = (char *)in;
	s = json_of(&v.base);
	ck_assert_str_eq(s, want);
	free(s);
}
END_TEST

/* The JSON request holds what the protobuf one does, in order. */
START_TEST(request_json)
{
	struct record_context a = { "h\"1", NULL, 0 };
	Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceRequest *req;
	struct record_bytes rb = { 0 };
	struct queue q;
	uint8_t *pb, *js;
	size_t pb_len, js_len;
	char *want, *got;

	ck_assert_int_eq(queue_init(&q, 8, 1 << 20), 0);
	ck_assert_int_eq(record_pack_own(&a, 3, "one\n", 1700000000123456789ull, &rb), 0);
	ck_assert(queue_push(&q, rb.resource, rb.resource_len, rb.record, rb.record_len, 0));
	ck_assert_int_eq(record_pack_own(&a, 6, "two", 5, &rb), 0);
	ck_assert(queue_push(&q, rb.resource, rb.resource_len, rb.record, rb.record_len, 0));
	ck_assert_int_eq(request_pack(&q, 2, REQUEST_PROTOBUF, &pb, &pb_len), 0);
	ck_assert_int_eq(request_pack(&q, 2, REQUEST_JSON, &js, &js_len), 0);
	req = opentelemetry__proto__collector__logs__v1__export_logs_service_request__unpack(NULL, pb_len, pb);
	ck_assert_ptr_nonnull(req);
	want = json_of(&req->base);
	got = strndup((const char *)js, js_len);
	ck_assert_str_eq(got, want);
	ck_assert_ptr_nonnull(strstr(got, "\"timeUnixNano\":\"1700000000123456789\",\"severityNumber\":17,"
					  "\"severityText\":\"err\",\"body\":{\"stringValue\":\"one\\n\"}"));
	ck_assert_ptr_nonnull(strstr(got, "{\"key\":\"host.name\",\"value\":{\"stringValue\":\"h\\\"1\"}}"));
	ck_assert_ptr_nonnull(strstr(got, "\"scope\":{\"name\":\"ehsyslog\",\"version\":\""));
	ck_assert_str_eq(request_content_type(REQUEST_JSON), "application/json");
	ck_assert_str_eq(request_content_type(REQUEST_PROTOBUF), "application/x-protobuf");
	opentelemetry__proto__collector__logs__v1__export_logs_service_request__free_unpacked(req, NULL);
	free(got);
	free(want);
	free(js);
	free(pb);
	record_bytes_free(&rb);
	queue_free(&q);
}
END_TEST

/* A message's key-value pairs as "key=value ..." in their order: strings
 * quoted, integers in decimal; for comparing whole lists at once. */
static void pairs_text(KeyValue **kv, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const AnyValue *v = kv[i]->value;

		if (v->value_case == ANY_CASE(STRING_VALUE))
			o += (size_t)snprintf(out + o, cap - o, "%s%s=\"%s\"", i ? " " : "", kv[i]->key,
					      v->string_value);
		else if (v->value_case == ANY_CASE(INT_VALUE))
			o += (size_t)snprintf(out + o, cap - o, "%s%s=%lld", i ? " " : "", kv[i]->key,
					      (long long)v->int_value);
		else
			o += (size_t)snprintf(out + o, cap - o, "%s%s=?", i ? " " : "", kv[i]->key);
		ck_assert_uint_lt(o, cap);
	}
}

static void resource_text(const struct record_bytes *rb, char *out, size_t cap)
{
	Opentelemetry__Proto__Resource__V1__Resource *r =
		opentelemetry__proto__resource__v1__resource__unpack(NULL, rb->resource_len, rb->resource);

	ck_assert_ptr_nonnull(r);
	pairs_text(r->attributes, r->n_attributes, out, cap);
	opentelemetry__proto__resource__v1__resource__free_unpacked(r, NULL);
}

/* --resource replaces the built-in pair of its key, and of one key given
 * twice the last wins (the command line's come after the file's): each
 * key once. */
START_TEST(resource_keys_unique)
{
	struct record_pair extra[] = {
		{ "service.name", "from-file" }, { "k", "1" }, { "host.name", "h2" },
		{ "service.name", "from-command-line" }, { "k", "2" },
	};
	struct record_context ctx = { "h1", extra, 5 };
	struct record_bytes rb = { 0 };
	char want[256], got[256];

	ck_assert_int_eq(record_pack_own(&ctx, 4, "m", 1, &rb), 0);
	resource_text(&rb, got, sizeof got);
	snprintf(want, sizeof want, "host.name=\"h2\" service.name=\"from-command-line\" "
		 "process.pid=%d process.executable.name=\"ehsyslog\" k=\"2\"", (int)getpid());
	ck_assert_str_eq(got, want);
	ctx.extra_count = 0;
	ck_assert_int_eq(record_pack_own(&ctx, 4, "m", 1, &rb), 0);
	resource_text(&rb, got, sizeof got);
	snprintf(want, sizeof want, "host.name=\"h1\" service.name=\"ehsyslog-export\" "
		 "process.pid=%d process.executable.name=\"ehsyslog\"", (int)getpid());
	ck_assert_str_eq(got, want);
	record_bytes_free(&rb);
}
END_TEST

/* An event whose fields take export's names, collide with a built-in
 * attribute (thread.id) and repeat a name (X). */
static const uint8_t named_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 4,	/* flags LE64+ext, version, id, tag, opcode, level 4 */
	42, 0, 0x01, 0x00,		/* metadata block, 42 bytes, last */
	'a', 'p', 'p', 0,		/* event name */
	'f', 'a', 'c', 'i', 'l', 'i', 't', 'y', 0, 0x02,	/* u8 */
	't', 'h', 'r', 'e', 'a', 'd', '.', 'i', 'd', 0, 0x0a,	/* counted string */
	'C', 'O', 'D', 'E', '_', 'F', 'U', 'N', 'C', 0, 0x0a,
	'X', 0, 0x02,
	'X', 0, 0x02,
	3,				/* facility daemon */
	4, 0, 'f', 'a', 'k', 'e',	/* thread.id */
	4, 0, 'm', 'a', 'i', 'n',	/* CODE_FUNC */
	1, 2,				/* X, X */
};

/* The process the record's resource names, and the attributes' names
 * and order: export's own first, then the fields; of a key given twice
 * the first wins. */
START_TEST(record_names_and_unique_keys)
{
	struct record_context ctx = { "h", NULL, 0 };
	struct thread_process proc = { 1234, "daemon" };
	struct read_event ev = { .tracepoint = "Syslog_L4K2", .data = named_event,
				 .len = sizeof named_event,
				 .info = { .pid = 77, .tid = 77, .has_pid = true } };
	Opentelemetry__Proto__Logs__V1__LogRecord *lr;
	struct record_bytes rb = { 0 };
	char got[512];

	ck_assert_int_eq(record_pack(&ctx, &ev, NULL, "m", 1, &proc, 5, &rb), 0);
	lr = opentelemetry__proto__logs__v1__log_record__unpack(NULL, rb.record_len, rb.record);
	ck_assert_ptr_nonnull(lr);
	pairs_text(lr->attributes, lr->n_attributes, got, sizeof got);
	ck_assert_str_eq(got, "thread.id=77 eventheader.provider=\"Syslog\" eventheader.event_name=\"app\" "
			 "syslog.facility=3 code.function.name=\"main\" X=1");
	opentelemetry__proto__logs__v1__log_record__free_unpacked(lr, NULL);
	resource_text(&rb, got, sizeof got);
	ck_assert_str_eq(got, "host.name=\"h\" service.name=\"app\" process.pid=1234 "
			 "process.executable.name=\"daemon\"");
	/* The thread gone: no process pairs. */
	ck_assert_int_eq(record_pack(&ctx, &ev, NULL, "m", 1, NULL, 5, &rb), 0);
	resource_text(&rb, got, sizeof got);
	ck_assert_str_eq(got, "host.name=\"h\" service.name=\"app\"");
	record_bytes_free(&rb);
}
END_TEST

/* An event of a process in a service: its unit field. */
static const uint8_t unit_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 4,
	20, 0, 0x01, 0x00,		/* metadata block, 20 bytes, last */
	'a', 'p', 'p', 0,		/* event name */
	'f', 'a', 'c', 'i', 'l', 'i', 't', 'y', 0, 0x02,	/* u8 */
	'u', 'n', 'i', 't', 0, 0x0a,	/* counted string */
	3,				/* facility daemon */
	12, 0, 'd', 'e', 'm', 'o', '.', 's', 'e', 'r', 'v', 'i', 'c', 'e',
};

/* The unit goes to the resource, not the attributes, under
 * systemd.unit.name, which --resource may replace; a record of another
 * unit (or none) has a resource of its own. */
START_TEST(record_unit_in_resource)
{
	struct record_pair pair = { "systemd.unit.name", "given.service" };
	struct record_context ctx = { "h", NULL, 0 };
	struct thread_process proc = { 1234, "daemon" };
	struct read_event ev = { .tracepoint = "Syslog_L4K8", .data = unit_event,
				 .len = sizeof unit_event,
				 .info = { .pid = 77, .tid = 77, .has_pid = true } };
	struct read_event plain = ev;
	Opentelemetry__Proto__Logs__V1__LogRecord *lr;
	struct record_bytes rb = { 0 };
	char got[512];

	plain.data = named_event;
	plain.len = sizeof named_event;
	ck_assert_int_eq(record_pack(&ctx, &ev, NULL, "m", 1, &proc, 5, &rb), 0);
	lr = opentelemetry__proto__logs__v1__log_record__unpack(NULL, rb.record_len, rb.record);
	ck_assert_ptr_nonnull(lr);
	pairs_text(lr->attributes, lr->n_attributes, got, sizeof got);
	ck_assert_str_eq(got, "thread.id=77 eventheader.provider=\"Syslog\" eventheader.event_name=\"app\" "
			 "syslog.facility=3");
	opentelemetry__proto__logs__v1__log_record__free_unpacked(lr, NULL);
	resource_text(&rb, got, sizeof got);
	ck_assert_str_eq(got, "host.name=\"h\" service.name=\"app\" process.pid=1234 "
			 "process.executable.name=\"daemon\" systemd.unit.name=\"demo.service\"");
	ck_assert_int_eq(record_pack(&ctx, &plain, NULL, "m", 1, &proc, 5, &rb), 0);
	resource_text(&rb, got, sizeof got);
	ck_assert_str_eq(got, "host.name=\"h\" service.name=\"app\" process.pid=1234 "
			 "process.executable.name=\"daemon\"");
	ctx.extra = &pair;
	ctx.extra_count = 1;
	ck_assert_int_eq(record_pack(&ctx, &ev, NULL, "m", 1, &proc, 5, &rb), 0);
	resource_text(&rb, got, sizeof got);
	ck_assert_str_eq(got, "host.name=\"h\" service.name=\"app\" process.pid=1234 "
			 "process.executable.name=\"daemon\" systemd.unit.name=\"given.service\"");
	record_bytes_free(&rb);
}
END_TEST

/* An event with a negative int (a ten-byte varint) and binary bytes. */
static const uint8_t typed_event[] = {
	0x07, 0, 0, 0, 0, 0, 0, 4,
	9, 0, 0x01, 0x00,		/* metadata block, 9 bytes, last */
	'e', 0,				/* event name */
	'n', 0, 0x84, 0x02,		/* i32, signed */
	'b', 0, 0x0d,			/* binary */
	0xfb, 0xff, 0xff, 0xff,		/* -5 */
	3, 0, 0xff, 0x00, 0x80,
};

/* Bytes as protobuf-c writes them for the message they unpack to. */
#define ASSERT_CANONICAL(type, bytes, len)                                                     \
	do {                                                                                   \
		type *m_ = type##_unpack_fn(NULL, (len), (bytes));                             \
		uint8_t *again_;                                                               \
		ck_assert_ptr_nonnull(m_);                                                     \
		ck_assert_uint_eq(protobuf_c_message_get_packed_size(&m_->base), (len));      \
		again_ = malloc((len) ? (len) : 1);                                            \
		ck_assert_ptr_nonnull(again_);                                                 \
		ck_assert_uint_eq(protobuf_c_message_pack(&m_->base, again_), (len));         \
		ck_assert_mem_eq(again_, (bytes), (len));                                      \
		free(again_);                                                                  \
		protobuf_c_message_free_unpacked(&m_->base, NULL);                             \
	} while (0)

typedef Opentelemetry__Proto__Logs__V1__LogRecord LogRecordMsg;
typedef Opentelemetry__Proto__Resource__V1__Resource ResourceMsg;
typedef Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceRequest RequestMsg;
#define LogRecordMsg_unpack_fn(a, n, b) opentelemetry__proto__logs__v1__log_record__unpack(a, n, b)
#define ResourceMsg_unpack_fn(a, n, b) opentelemetry__proto__resource__v1__resource__unpack(a, n, b)
#define RequestMsg_unpack_fn(a, n, b) \
	opentelemetry__proto__collector__logs__v1__export_logs_service_request__unpack(a, n, b)

/* record.c and request.c write the wire format themselves: their bytes
 * are the ones protobuf-c writes for the same messages (fields in
 * number order, shortest varints, proto3 defaults left out, oneof
 * members written when set), for every kind of value: strings and
 * bytes, empty and long (two- and three-byte lengths), negative ints,
 * severity or none, several resources in one request. */
START_TEST(protobuf_bytes_canonical)
{
	struct record_pair extra[2] = { { "k", "v" }, { "odd", "\xff" } };
	struct record_context a = { "h", NULL, 0 }, b = { "h2", extra, 2 };
	struct thread_process proc = { 1234, "daemon" };
	struct read_event named = { .tracepoint = "Syslog_L4K2", .data = named_event,
				    .len = sizeof named_event,
				    .info = { .pid = 77, .tid = 77, .has_pid = true },
				    .has_wall = true, .wall_ns = 1700000000123456789ull };
	struct read_event typed = { .tracepoint = "Syslog_L4K2", .data = typed_event,
				    .len = sizeof typed_event };
	struct syslog_fields f = { .has_message = true, .has_severity = true,
				   .has_facility = true, .severity = 3, .facility = 1 };
	static char big[20001];	/* 20000 bytes and a NUL */
	struct record_bytes rb = { 0 };
	struct queue q;
	uint8_t *body;
	size_t len;

	memset(big, 'x', sizeof big - 1);
	ck_assert_int_eq(queue_init(&q, 16, 1 << 24), 0);
	for (int i = 0; i < 8; i++) {
		const char *msg = i == 1 ? "" : i == 2 ? "\xc3" : i == 3 ? big : "hello";
		size_t n = strlen(msg);

		if (i == 6)
			ck_assert_int_eq(record_pack_own(&b, 4, "own", 5, &rb), 0);
		else if (i == 7)
			ck_assert_int_eq(record_pack_own(&a, 0, big + sizeof big - 201, 0, &rb), 0);
		else
			ck_assert_int_eq(record_pack(i % 2 ? &b : &a, i == 4 ? &typed : &named,
						     i == 5 ? NULL : &f, msg, n,
						     i == 4 ? NULL : &proc, i == 0 ? 0 : 99, &rb), 0);
		ASSERT_CANONICAL(LogRecordMsg, rb.record, rb.record_len);
		ASSERT_CANONICAL(ResourceMsg, rb.resource, rb.resource_len);
		ck_assert(queue_push(&q, rb.resource, rb.resource_len, rb.record, rb.record_len, 0));
	}
	for (size_t n = 0; n <= 8; n++) {
		ck_assert_int_eq(request_pack(&q, n, REQUEST_PROTOBUF, &body, &len), 0);
		ck_assert_ptr_nonnull(body);
		ASSERT_CANONICAL(RequestMsg, body, len);
		free(body);
	}
	record_bytes_free(&rb);
	queue_free(&q);
}
END_TEST

/* /proc/TID/status's Tgid, and /proc/PID/exe's base name. */
START_TEST(thread_process_parsing)
{
	static const char status[] = "Name:\tworker-3\nUmask:\t0022\nState:\tS (sleeping)\n"
				     "Tgid:\t4321\nNgid:\t0\nPid:\t4325\n";
	char name[16];
	uint32_t tgid = 0;

	ck_assert(thread_process_tgid(status, sizeof status - 1, &tgid));
	ck_assert_uint_eq(tgid, 4321);
	ck_assert(!thread_process_tgid("Name:\tx\nPid:\t5\n", 15, &tgid));
	ck_assert(!thread_process_tgid("Name:\tTgid:\t7\n", 14, &tgid));	/* not at a line's start */
	ck_assert(!thread_process_tgid("Tgid:\t99999999999\n", 18, &tgid));
	ck_assert(!thread_process_tgid("Tgid:\t12x\n", 10, &tgid));
	ck_assert(thread_process_tgid("Tgid:\t12", 8, &tgid));	/* cut after the number */
	ck_assert_uint_eq(tgid, 12);
	ck_assert(thread_process_exe_name("/usr/sbin/sshd", name, sizeof name));
	ck_assert_str_eq(name, "sshd");
	ck_assert(thread_process_exe_name("/usr/bin/foo (deleted)", name, sizeof name));
	ck_assert_str_eq(name, "foo");
	ck_assert(!thread_process_exe_name("/usr/bin/", name, sizeof name));
	ck_assert(!thread_process_exe_name("/a/very-long-name-indeed", name, sizeof name));
}
END_TEST

/* Writes text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* A thread gone from /proc (ids past any pid_max): its process and name
 * from the kernel's saved_tgids and saved_cmdlines lines, none where
 * they do not say. */
START_TEST(thread_process_gone)
{
	char dir[] = "/tmp/ehs-test-tracefs-XXXXXX";
	const struct thread_process *p;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_file(dir, "saved_tgids", "1 1\n4194400 4194399\n4194401 4194398\n4194402 x\n");
	write_file(dir, "saved_cmdlines", "4194398 <...>\n4194399 my daemon\n");
	thread_process_kernel(dir);
	ck_assert_ptr_nonnull(p = thread_process(4194400, 1));
	ck_assert_uint_eq(p->pid, 4194399);
	ck_assert_str_eq(p->executable, "my daemon");
	ck_assert_ptr_nonnull(p = thread_process(4194401, 1));
	ck_assert_uint_eq(p->pid, 4194398);
	ck_assert_str_eq(p->executable, "");	/* the kernel lost the name */
	ck_assert_ptr_null(thread_process(4194402, 1));	/* not a number */
	ck_assert_ptr_null(thread_process(4194403, 1));	/* not kept */
	thread_process_kernel(NULL);
	ck_assert_ptr_null(thread_process(4194400, 10 * 1000000000LL));	/* /proc only */
	for (const char *f = "saved_tgids"; f; f = f[6] == 't' ? "saved_cmdlines" : NULL) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", dir, f);
		ck_assert_int_eq(unlink(path), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The header file's owner and mode, as ssh checks its files. */
START_TEST(secret_file_rule)
{
	struct stat st = { .st_mode = S_IFREG | 0600, .st_uid = 1000 };

	ck_assert_ptr_null(secret_file_refusal(&st, 1000));
	st.st_mode = S_IFREG | 0640;
	ck_assert_ptr_null(secret_file_refusal(&st, 1000));
	st.st_uid = 0;
	ck_assert_ptr_null(secret_file_refusal(&st, 1000));
	st.st_uid = 1001;
	ck_assert_str_eq(secret_file_refusal(&st, 1000),
			 "owned by another user than root or the one export runs as");
	st.st_uid = 1000;
	st.st_mode = S_IFREG | 0660;
	ck_assert_str_eq(secret_file_refusal(&st, 1000), "writable by group");
	st.st_mode = S_IFREG | 0602;
	ck_assert_str_eq(secret_file_refusal(&st, 1000), "writable by others");
	st.st_mode = S_IFREG | 0644;
	ck_assert_str_eq(secret_file_refusal(&st, 1000), "readable by others");
	st.st_mode = S_IFREG | 0601;
	ck_assert_str_eq(secret_file_refusal(&st, 1000), "readable by others");
	st.st_mode = S_IFIFO | 0600;
	ck_assert_str_eq(secret_file_refusal(&st, 1000), "not a regular file");
}
END_TEST

/* Compressed and inflated back: the same bytes, in a gzip wrapper. */
START_TEST(gzip_round_trip)
{
	size_t n = 300000, out_len;
	uint8_t *in = malloc(n), *out, *back = malloc(n + 1);
	z_stream z = { 0 };

	ck_assert(in != NULL && back != NULL);
	for (size_t i = 0; i < n; i++)	/* some repeats, some noise */
		in[i] = (uint8_t)(i % 251 < 200 ? i % 7 : (i * 2654435761u) >> 24);
	ck_assert_int_eq(gzip_compress(in, n, &out, &out_len), 0);
	ck_assert_uint_lt(out_len, n / 2);
	ck_assert_uint_eq(out[0], 0x1f);	/* RFC 1952: ID1 ID2 CM=deflate */
	ck_assert_uint_eq(out[1], 0x8b);
	ck_assert_uint_eq(out[2], 8);
	ck_assert_int_eq(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = out;
	z.avail_in = (uInt)out_len;
	z.next_out = back;
	z.avail_out = (uInt)n + 1;
	ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
	ck_assert_uint_eq(z.total_out, n);
	ck_assert_uint_eq(z.avail_in, 0);
	ck_assert_mem_eq(back, in, n);
	inflateEnd(&z);
	free(out);
	ck_assert_int_eq(gzip_compress(in, 0, &out, &out_len), 0);	/* empty: still a stream */
	ck_assert_uint_eq(out_len, 20);
	free(out);
	free(back);
	free(in);
}
END_TEST

START_TEST(partial_success_protobuf)
{
	Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceResponse m =
		OPENTELEMETRY__PROTO__COLLECTOR__LOGS__V1__EXPORT_LOGS_SERVICE_RESPONSE__INIT;
	Opentelemetry__Proto__Collector__Logs__V1__ExportLogsPartialSuccess ps =
		OPENTELEMETRY__PROTO__COLLECTOR__LOGS__V1__EXPORT_LOGS_PARTIAL_SUCCESS__INIT;
	struct response r;
	uint8_t buf[256];
	size_t len;

	ps.rejected_log_records = 3;
	ps.error_message = (char *)"too old\n\x1b[2J";
	m.partial_success = &ps;
	len = opentelemetry__proto__collector__logs__v1__export_logs_service_response__pack(&m, buf);
	ck_assert_int_eq(response_parse(buf, len, REQUEST_PROTOBUF, &r), 0);
	ck_assert_uint_eq(r.rejected, 3);
	ck_assert_str_eq(r.message, "too old??[2J");	/* control bytes kept off the terminal */
	ck_assert_int_eq(response_parse(NULL, 0, REQUEST_PROTOBUF, &r), 0);	/* 200, no body */
	ck_assert_uint_eq(r.rejected, 0);
	ck_assert_str_eq(r.message, "");
	ps.rejected_log_records = -5;
	ps.error_message = (char *)"";
	len = opentelemetry__proto__collector__logs__v1__export_logs_service_response__pack(&m, buf);
	ck_assert_int_eq(response_parse(buf, len, REQUEST_PROTOBUF, &r), 0);
	ck_assert_uint_eq(r.rejected, 0);
	ck_assert_int_eq(response_parse((const uint8_t *)"\xff\xff", 2, REQUEST_PROTOBUF, &r), -1);
}
END_TEST

/* An error answer's google.rpc.Status, in either encoding or as text. */
START_TEST(error_status_message)
{
	Google__Rpc__Status m = GOOGLE__RPC__STATUS__INIT;
	Google__Protobuf__Any detail = GOOGLE__PROTOBUF__ANY__INIT, *details[1] = { &detail };
	static const char json[] = "{\"code\": 16, \"message\": \"bad \\\"token\\\"\\n\", "
				   "\"details\": [{\"@type\": \"t/x\", \"v\": [1]}]}";
	static const char text[] = "413 Request Entity Too Large\r\n<html>";
	struct response r;
	uint8_t buf[256];
	size_t len;

	m.code = 16;
	m.message = (char *)"invalid token\x1b";
	detail.type_url = (char *)"type.googleapis.com/x";
	m.n_details = 1;
	m.details = details;
	len = google__rpc__status__pack(&m, buf);
	ck_assert_int_eq(response_error(buf, len, "application/x-protobuf", REQUEST_JSON, &r), 0);
	ck_assert_str_eq(r.message, "invalid token?");
	ck_assert_uint_eq(r.rejected, 0);
	/* No Content-Type: the request's encoding, as the server must answer. */
	ck_assert_int_eq(response_error(buf, len, "", REQUEST_PROTOBUF, &r), 0);
	ck_assert_str_eq(r.message, "invalid token?");
	ck_assert_int_eq(response_error(buf, len, "", REQUEST_JSON, &r), -1);
	ck_assert_str_eq(r.message, "");
	ck_assert_int_eq(response_error((const uint8_t *)json, strlen(json), "application/json",
					REQUEST_PROTOBUF, &r), 0);
	ck_assert_str_eq(r.message, "bad \"token\"?");
	ck_assert_int_eq(response_error((const uint8_t *)text, strlen(text), "text/plain",
					REQUEST_PROTOBUF, &r), 0);
	ck_assert_str_eq(r.message, "413 Request Entity Too Large");
	ck_assert_int_eq(response_error((const uint8_t *)text, strlen(text), "text/html",
					REQUEST_PROTOBUF, &r), -1);
	ck_assert_int_eq(response_error((const uint8_t *)"\xff\xff", 2, "application/x-protobuf",
					REQUEST_PROTOBUF, &r), -1);
	ck_assert_int_eq(response_error(NULL, 0, "application/json", REQUEST_JSON, &r), -1);
	ck_assert_int_eq(response_error((const uint8_t *)"{\"code\":3}", 10, "application/json",
					REQUEST_JSON, &r), 0);
	ck_assert_str_eq(r.message, "");
}
END_TEST

/* Ten records split by a byte limit: every body within it, every record
 * once, in order; one record over the limit alone is refused. */
START_TEST(batch_split_by_bytes)
{
	struct record_context ctx = { "host", NULL, 0 };
	struct batch_format f = { REQUEST_PROTOBUF, false, 0 };
	Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceRequest *req;
	struct record_bytes rb = { 0 };
	char msg[64];
	size_t len, taken, whole, next = 0, requests = 0;
	uint8_t *body;
	struct queue q;

	ck_assert_int_eq(queue_init(&q, 16, 1 << 20), 0);
	for (int i = 0; i < 10; i++) {
		snprintf(msg, sizeof msg, "record %d %.*s", i, 40, "padding padding padding padding padding ");
		ck_assert_int_eq(record_pack_own(&ctx, 6, msg, 1000 + i, &rb), 0);
		ck_assert(queue_push(&q, rb.resource, rb.resource_len, rb.record, rb.record_len, 0));
	}
	record_bytes_free(&rb);
	ck_assert_int_eq(batch_encode(&q, 10, &f, &body, &whole, &taken), 0);
	ck_assert_uint_eq(taken, 10);
	free(body);
	f.max_bytes = whole / 3;
	while (q.len > 0) {
		ck_assert_int_eq(batch_encode(&q, q.len, &f, &body, &len, &taken), 0);
		ck_assert_uint_le(len, f.max_bytes);
		ck_assert_uint_ge(taken, 2);
		req = opentelemetry__proto__collector__logs__v1__export_logs_service_request__unpack(
			NULL, len, body);
		ck_assert_ptr_nonnull(req);
		for (size_t i = 0; i < req->resource_logs[0]->scope_logs[0]->n_log_records; i++, next++)
			ck_assert_uint_eq(req->resource_logs[0]->scope_logs[0]->log_records[i]->time_unix_nano,
					  1000 + next);
		opentelemetry__proto__collector__logs__v1__export_logs_service_request__free_unpacked(req, NULL);
		free(body);
		queue_pop(&q, taken);
		requests++;
	}
	ck_assert_uint_eq(next, 10);
	ck_assert_uint_ge(requests, 3);
	ck_assert_uint_le(requests, 5);
	/* gzip: the limit is on the compressed body, as sent. */
	ck_assert_int_eq(record_pack_own(&ctx, 6, "alone", 1, &rb), 0);
	ck_assert(queue_push(&q, rb.resource, rb.resource_len, rb.record, rb.record_len, 0));
	record_bytes_free(&rb);
	f.gzip = true;
	f.max_bytes = 10;
	body = (uint8_t *)"untouched";
	ck_assert_int_eq(batch_encode(&q, 1, &f, &body, &len, &taken), BATCH_TOO_BIG);
	ck_assert_uint_eq(taken, 1);
	ck_assert_ptr_null(body);
	queue_free(&q);
}
END_TEST

static int parse_json(const char *body, struct response *r)
{
	return response_parse((const uint8_t *)body, strlen(body), REQUEST_JSON, r);
}

START_TEST(partial_success_json)
{
	struct response r;

	ck_assert_int_eq(parse_json("{\"partialSuccess\":{\"rejectedLogRecords\":\"7\","
				    "\"errorMessage\":\"caf\\u00e9 \\ud83d\\ude00 \\\"x\\\"\\n\"}}", &r), 0);
	ck_assert_uint_eq(r.rejected, 7);
	ck_assert_str_eq(r.message, "caf\xc3\xa9 \xf0\x9f\x98\x80 \"x\"?");
	/* A number too, proto names too, unknown fields passed over. */
	ck_assert_int_eq(parse_json(" { \"other\" : [1, {\"a\": null}, \"s\", true, -1.5e3],"
				    " \"partial_success\" : { \"rejected_log_records\" : 12 ,"
				    " \"x\": {\"y\": [[]]} } } ", &r), 0);
	ck_assert_uint_eq(r.rejected, 12);
	ck_assert_str_eq(r.message, "");
	ck_assert_int_eq(parse_json("{}", &r), 0);
	ck_assert_uint_eq(r.rejected, 0);
	ck_assert_int_eq(parse_json("{\"partialSuccess\":{}}", &r), 0);
	ck_assert_uint_eq(r.rejected, 0);
	ck_assert_int_eq(parse_json("{\"partialSuccess\":null}", &r), 0);
	ck_assert_int_eq(parse_json("{\"partialSuccess\":{\"errorMessage\":\"lone \\ud800\"}}", &r), 0);
	ck_assert_str_eq(r.message, "lone \xef\xbf\xbd");
	ck_assert_int_eq(parse_json("{\"partialSuccess\":{\"rejectedLogRecords\":\"7x\"}}", &r), -1);
	ck_assert_uint_eq(r.rejected, 0);
	ck_assert_int_eq(parse_json("{\"partialSuccess\":{\"rejectedLogRecords\":2}", &r), -1);
	ck_assert_int_eq(parse_json("{} x", &r), -1);
	ck_assert_int_eq(parse_json("[]", &r), -1);
	ck_assert_int_eq(parse_json("{\"a\":\"\\q\"}", &r), -1);
	ck_assert_int_eq(parse_json("{\"a\":\"raw\ncontrol\"}", &r), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("pure");

	tcase_add_test(tc, severity_table);
	tcase_add_test(tc, backoff_doubles_to_the_cap);
	tcase_add_test(tc, backoff_jitter_spreads);
	tcase_add_test(tc, retry_after_bounds);
	tcase_add_test(tc, retryable_statuses);
	tcase_add_test(tc, retry_after_values);
	tcase_add_test(tc, queue_bounds_count_and_bytes);
	tcase_add_test(tc, utf8_or_bytes);
	tcase_add_test(tc, request_keeps_order);
	tcase_add_test(tc, json_every_field_kind);
	tcase_add_test(tc, json_defaults_and_special_doubles);
	tcase_add_test(tc, json_escaping);
	tcase_add_test(tc, request_json);
	tcase_add_test(tc, resource_keys_unique);
	tcase_add_test(tc, record_names_and_unique_keys);
	tcase_add_test(tc, record_unit_in_resource);
	tcase_add_test(tc, protobuf_bytes_canonical);
	tcase_add_test(tc, thread_process_parsing);
	tcase_add_test(tc, thread_process_gone);
	tcase_add_test(tc, secret_file_rule);
	tcase_add_test(tc, gzip_round_trip);
	tcase_add_test(tc, partial_success_protobuf);
	tcase_add_test(tc, partial_success_json);
	tcase_add_test(tc, error_status_message);
	tcase_add_test(tc, batch_split_by_bytes);
	suite_add_tcase(s, tc);
	return check_run(s);
}
