/* SPDX-License-Identifier: MIT */
/*
 * OTLP/HTTP through libcurl: one POST of an encoded body to the
 * collector's logs URL, and what came back.  libcurl does HTTP/1.1, TLS,
 * proxies from the environment (http_proxy, https_proxy, no_proxy), and
 * keeps the connection between requests.
 */
#ifndef EHSYSLOG_CLI_EXPORT_HTTP_H
#define EHSYSLOG_CLI_EXPORT_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct http_config {
	const char *url;	/* ENDPOINT/v1/logs, or --logs-endpoint */
	const char *header_file;	/* "Name: value" lines, or NULL */
	const char *ca_file, *cert_file, *key_file;	/* TLS, or NULL */
	long connect_timeout_ms;
	const char *content_type;	/* of the body, never NULL */
	const char *content_encoding;	/* "gzip", or NULL */
};

/* The most of an answer's body kept: an ExportLogsServiceResponse. */
#define HTTP_BODY_MAX 65536

struct http_answer {
	long status;	/* HTTP status; 0 when no answer came */
	long retry_after_ms;	/* -1: no (valid) Retry-After */
	char error[256];	/* why, when status is 0 */
	const uint8_t *body;	/* the answer's body, valid until the next post */
	size_t body_len;	/* HTTP_BODY_MAX at most: the rest is not kept */
	bool body_cut;	/* more than HTTP_BODY_MAX came */
	char content_type[64];	/* the answer's media type, lower case, no
				 * parameters; empty when none came */
};

struct http;

/* NULL with a message in err (a header file that cannot be read, say). */
struct http *http_new(const struct http_config *cfg, char *err, size_t errlen);

/* POSTs body; waits at most timeout_ms for the whole exchange.  Fills
 * a; returns 0 for a 2xx answer, else -1. */
int http_post(struct http *h, const void *body, size_t len, long timeout_ms,
	      struct http_answer *a);

void http_free(struct http *h);

#endif
