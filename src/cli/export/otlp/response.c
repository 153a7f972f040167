/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <eventheader/eventheader.h>

#include "google/rpc/status.pb-c.h"
#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include "cli/export/otlp/response.h"

typedef Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceResponse Response;

/* The collector's message, fit for a terminal. */
static void keep_message(struct response *r, const char *s, size_t n)
{
	if (n > sizeof r->message - 1)
		n = sizeof r->message - 1;
	for (size_t i = 0; i < n; i++)
		r->message[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	r->message[n] = '\0';
}

static int from_protobuf(const uint8_t *body, size_t len, struct response *r)
{
	Response *m = opentelemetry__proto__collector__logs__v1__export_logs_service_response__unpack(
		NULL, len, body);

	if (m == NULL)
		return -1;
	if (m->partial_success != NULL) {
		int64_t n = m->partial_success->rejected_log_records;

		r->rejected = n > 0 ? (unsigned long long)n : 0;
		if (m->partial_success->error_message != NULL)
			keep_message(r, m->partial_success->error_message,
				     strlen(m->partial_success->error_message));
	}
	opentelemetry__proto__collector__logs__v1__export_logs_service_response__free_unpacked(m, NULL);
	return 0;
}

static int status_from_protobuf(const uint8_t *body, size_t len, struct response *r)
{
	Google__Rpc__Status *m = google__rpc__status__unpack(NULL, len, body);

	if (m == NULL)
		return -1;
	if (m->message != NULL)
		keep_message(r, m->message, strlen(m->message));
	google__rpc__status__free_unpacked(m, NULL);
	return 0;
}

/*
 * Just enough JSON (RFC 8259) to find partialSuccess's two fields: the
 * rest is read and passed over, as OTLP/JSON receivers pass over what
 * they do not know.  Keys are taken in lowerCamelCase and in the proto's
 * own names, as proto3's JSON mapping has parsers do.
 */
struct reader {
	const uint8_t *p, *end;
};

#define DEPTH_MAX 64

static void ws(struct reader *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool eat(struct reader *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

static int hex4(const uint8_t *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		int c = s[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
				 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* Appends cp as UTF-8 to out[*n..cap), while it fits. */
static void put_utf8(char *out, size_t cap, size_t *n, uint32_t cp)
{
	char b[4];
	size_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;

	if (len == 1)
		b[0] = (char)cp;
	else if (len == 2)
		b[0] = (char)(0xc0 | cp >> 6);
	else if (len == 3)
		b[0] = (char)(0xe0 | cp >> 12);
	else
		b[0] = (char)(0xf0 | cp >> 18);
	for (size_t k = 1; k < len; k++)
		b[k] = (char)(0x80 | (cp >> 6 * (len - 1 - k) & 0x3f));
	if (out != NULL && *n + len <= cap) {
		memcpy(out + *n, b, len);
		*n += len;
	}
}

/* A string, its UTF-8 in out[0..*n) (cut at cap); out may be NULL. */
static bool string(struct reader *j, char *out, size_t cap, size_t *n)
{
	static const char plain[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";

	*n = 0;
	if (!eat(j, '"'))
		return false;
	while (j->p < j->end && *j->p != '"') {
		uint32_t cp;
		const char *e;
		int hi, lo;

		if (*j->p < 0x20)
			return false;
		if (*j->p != '\\') {
			size_t len = eh_utf8_decode(j->p, (size_t)(j->end - j->p), &cp);

			j->p += len ? len : 1;
			put_utf8(out, cap, n, len ? cp : 0xfffd);
			continue;
		}
		if (j->end - j->p < 2)
			return false;
		if (j->p[1] != 'u') {
			if ((e = strchr(plain, j->p[1])) == NULL || j->p[1] == '\0')
				return false;
			put_utf8(out, cap, n, (unsigned char)meant[e - plain]);
			j->p += 2;
			continue;
		}
		if (j->end - j->p < 6 || (hi = hex4(j->p + 2)) < 0)
			return false;
		j->p += 6;
		cp = (uint32_t)hi;
		if (hi >= 0xd800 && hi <= 0xdbff && j->end - j->p >= 6 && j->p[0] == '\\' &&
		    j->p[1] == 'u' && (lo = hex4(j->p + 2)) >= 0xdc00 && lo <= 0xdfff) {
			cp = 0x10000 + ((uint32_t)(hi - 0xd800) << 10) + (uint32_t)(lo - 0xdc00);
			j->p += 6;
		} else if (hi >= 0xd800 && hi <= 0xdfff) {
			cp = 0xfffd;	/* a surrogate alone */
		}
		put_utf8(out, cap, n, cp);
	}
	return j->p++ < j->end;
}

static bool number(struct reader *j, char *out, size_t cap)
{
	size_t n = 0;

	ws(j);
	while (j->p < j->end && strchr("+-.0123456789eE", *j->p) != NULL && *j->p != '\0') {
		if (n + 1 < cap)
			out[n++] = (char)*j->p;
		j->p++;
	}
	out[n] = '\0';
	return n > 0;
}

static bool skip(struct reader *j, int depth);

/* An object: each member's value read by member(), or passed over when
 * member returns 0 without reading it. */
static bool object(struct reader *j, int depth,
		   int (*member)(struct reader *, const char *, void *), void *arg)
{
	char key[64];
	size_t n;

	if (depth > DEPTH_MAX || !eat(j, '{'))
		return false;
	if (eat(j, '}'))
		return true;
	do {
		int rc;

		if (!string(j, key, sizeof key - 1, &n) || !eat(j, ':'))
			return false;
		key[n] = '\0';
		rc = member != NULL ? member(j, key, arg) : 0;
		if (rc < 0 || (rc == 0 && !skip(j, depth + 1)))
			return false;
	} while (eat(j, ','));
	return eat(j, '}');
}

static bool skip(struct reader *j, int depth)
{
	char num[64];
	size_t n;

	ws(j);
	if (j->p == j->end || depth > DEPTH_MAX)
		return false;
	switch (*j->p) {
	case '{':
		return object(j, depth, NULL, NULL);
	case '[':
		j->p++;
		if (eat(j, ']'))
			return true;
		do {
			if (!skip(j, depth + 1))
				return false;
		} while (eat(j, ','));
		return eat(j, ']');
	case '"':
		return string(j, NULL, 0, &n);
	default:
		break;
	}
	for (const char *const *w = (const char *const[]){ "true", "false", "null", NULL }; *w; w++)
		if ((size_t)(j->end - j->p) >= strlen(*w) && memcmp(j->p, *w, strlen(*w)) == 0) {
			j->p += strlen(*w);
			return true;
		}
	return number(j, num, sizeof num);
}

/* An int64, as proto3's JSON mapping writes it (a decimal string) or as
 * parsers also accept it (a number). */
static bool int64_value(struct reader *j, long long *v)
{
	char text[64], *end;
	size_t n;

	ws(j);
	if (j->p < j->end && *j->p == '"') {
		if (!string(j, text, sizeof text - 1, &n))
			return false;
		text[n] = '\0';
	} else if (!number(j, text, sizeof text)) {
		return false;
	}
	*v = strtoll(text, &end, 10);
	return end != text && *end == '\0';
}

static int partial_member(struct reader *j, const char *key, void *arg)
{
	struct response *r = arg;
	char msg[sizeof r->message];
	long long v;
	size_t n;

	if (strcmp(key, "rejectedLogRecords") == 0 || strcmp(key, "rejected_log_records") == 0) {
		if (!int64_value(j, &v))
			return -1;
		r->rejected = v > 0 ? (unsigned long long)v : 0;
		return 1;
	}
	if (strcmp(key, "errorMessage") == 0 || strcmp(key, "error_message") == 0) {
		if (!string(j, msg, sizeof msg - 1, &n))
			return -1;
		keep_message(r, msg, n);
		return 1;
	}
	return 0;
}

static int response_member(struct reader *j, const char *key, void *arg)
{
	if (strcmp(key, "partialSuccess") != 0 && strcmp(key, "partial_success") != 0)
		return 0;
	ws(j);
	if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0)
		return 0;
	return object(j, 1, partial_member, arg) ? 1 : -1;
}

/* google.rpc.Status's message; its code and details are passed over. */
static int status_member(struct reader *j, const char *key, void *arg)
{
	struct response *r = arg;
	char msg[sizeof r->message];
	size_t n;

	if (strcmp(key, "message") != 0)
		return 0;
	if (!string(j, msg, sizeof msg - 1, &n))
		return -1;
	keep_message(r, msg, n);
	return 1;
}

/* body as one JSON object, each member given to member. */
static int from_json(const uint8_t *body, size_t len,
		     int (*member)(struct reader *, const char *, void *), struct response *r)
{
	struct reader j = { body, body + len };

	if (!object(&j, 0, member, r))
		return -1;
	ws(&j);
	return j.p == j.end ? 0 : -1;
}

/* A text answer's first line, as a proxy in the way may send one. */
static int from_text(const uint8_t *body, size_t len, struct response *r)
{
	const uint8_t *nl = memchr(body, '\n', len);

	len = nl != NULL ? (size_t)(nl - body) : len;
	if (len > 0 && body[len - 1] == '\r')
		len--;
	keep_message(r, (const char *)body, len);
	return 0;
}

int response_parse(const uint8_t *body, size_t len, enum request_encoding e, struct response *r)
{
	int rc;

	memset(r, 0, sizeof *r);
	if (len == 0)
		return 0;
	rc = e == REQUEST_JSON ? from_json(body, len, response_member, r)
			       : from_protobuf(body, len, r);
	if (rc < 0)
		memset(r, 0, sizeof *r);
	return rc;
}

int response_error(const uint8_t *body, size_t len, const char *content_type,
		   enum request_encoding e, struct response *r)
{
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (len == 0)
		return -1;
	if (content_type[0] == '\0')
		content_type = request_content_type(e);
	if (strcmp(content_type, request_content_type(REQUEST_JSON)) == 0)
		rc = from_json(body, len, status_member, r);
	else if (strcmp(content_type, request_content_type(REQUEST_PROTOBUF)) == 0)
		rc = status_from_protobuf(body, len, r);
	else if (strcmp(content_type, "text/plain") == 0)
		rc = from_text(body, len, r);
	if (rc < 0)
		memset(r, 0, sizeof *r);
	return rc;
}
