/* SPDX-License-Identifier: MIT */
/*
 * OTLP/HTTP through libcurl: one POST of an encoded body to the
 * collector's logs URL, and what came back.  libcurl does HTTP/1.1, TLS,
 * proxies from the environment (http_proxy, https_proxy, no_proxy), and
 * keeps the connection between requests.  Its multi interface runs the
 * request while the caller goes on: export reads events while a request
 * waits for its answer.
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
	const uint8_t *body;	/* the answer's body, valid until the next start */
	size_t body_len;	/* HTTP_BODY_MAX at most: the rest is not kept */
	bool body_cut;	/* more than HTTP_BODY_MAX came */
	char content_type[64];	/* the answer's media type, lower case, no
				 * parameters; empty when none came */
};

struct http;

/* NULL with a message in err (a header file that cannot be read, say). */
struct http *http_new(const struct http_config *cfg, char *err, size_t errlen);

/*
 * Starts POSTing body, a malloc'd block that is http's from now on
 * (freed once the request ended), and returns: http_run moves the
 * request on, taking at most timeout_ms for the whole exchange, and
 * fills a when it ended.  One request at a time.  0, or -1 with a
 * filled (status 0, error said) when it cannot start.
 */
int http_start(struct http *h, uint8_t *body, size_t len, long timeout_ms,
	       struct http_answer *a);

/* Moves the request in flight on, without waiting.  True when it has
 * ended (its answer filled in, or status 0 and why), or none is. */
bool http_run(struct http *h);

/* Waits at most wait_ms for the request in flight's connection (an
 * answer coming, room to send more) or its timeouts; a signal ends the
 * wait too.  0, or -1 when it could not wait. */
int http_wait(struct http *h, long wait_ms);

void http_free(struct http *h);

#endif
