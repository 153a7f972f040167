/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>

#include "cli/util.h"
#include "cli/export/backoff.h"
#include "cli/export/gzip.h"
#include "cli/export/request.h"
#include "cli/export/response.h"
#include "cli/export/sender.h"

#define MS 1000000LL

void sender_init(struct sender *s, const struct sender_config *cfg, struct queue *q,
		 struct http *http, const struct record_context *rctx)
{
	*s = (struct sender){ .cfg = *cfg, .q = q, .http = http, .rctx = rctx };
}

bool sender_push(struct sender *s, const struct record_bytes *b, int64_t now_ns)
{
	if (s->q->len == 0)
		s->first_ns = now_ns;
	return queue_push(s->q, b->resource, b->resource_len, b->record, b->record_len);
}

/* After a success: tell the collector what was lost since last told. */
static void notice_losses(struct sender *s, int64_t now_ns)
{
	unsigned long long dropped = s->q->dropped - s->told_dropped;
	unsigned long long lost = s->lost_kernel - s->told_lost;
	struct record_bytes b = { 0 };
	char msg[256];

	if (dropped == 0 && lost == 0)
		return;
	snprintf(msg, sizeof msg, "ehsyslog export: %llu record%s dropped (queue full or "
		 "refused), %llu event%s lost by the trace buffer", dropped,
		 dropped == 1 ? "" : "s", lost, lost == 1 ? "" : "s");
	if (record_pack_own(s->rctx, LOG_WARNING, msg, cli_wall_ns(), &b) == 0 &&
	    sender_push(s, &b, now_ns)) {
		s->told_dropped += dropped;
		s->told_lost += lost;
	}
	record_bytes_free(&b);
}

/* The body of n queued records, encoded and compressed as configured. */
static int encode(const struct sender *s, size_t n, uint8_t **body, size_t *len)
{
	uint8_t *plain;
	size_t plain_len;
	int rc;

	if (request_pack(s->q, n, s->cfg.encoding, &plain, &plain_len) < 0)
		return -1;
	if (!s->cfg.gzip) {
		*body = plain;
		*len = plain_len;
		return 0;
	}
	rc = gzip_compress(plain, plain_len, body, len);
	free(plain);
	return rc;
}

/* A 200 may still reject some of the n records (partial_success): those
 * are counted as dropped; the first reason given goes to stderr. */
static void partial_success(struct sender *s, const struct http_answer *a, size_t n)
{
	struct response r;

	if (response_parse(a->body, a->body_len, s->cfg.encoding, &r) < 0)
		return;	/* not ours to judge: the 200 says the records were taken */
	if (r.rejected > n)
		r.rejected = n;
	s->sent -= r.rejected;
	s->rejected += r.rejected;
	s->q->dropped += r.rejected;
	if (r.message[0] != '\0' && !s->told_partial) {
		fprintf(stderr, "ehsyslog export: the collector rejected %llu of %zu record%s: %s\n",
			r.rejected, n, n == 1 ? "" : "s", r.message);
		s->told_partial = true;
	}
}

int64_t sender_step(struct sender *s, int64_t now_ns, bool flush, int64_t deadline_ns)
{
	struct http_answer a;
	uint8_t *body;
	size_t n, len;
	long timeout_ms;
	int64_t due;

	if (s->q->len == 0)
		return INT64_MAX;
	if (now_ns < s->retry_ns)
		return s->retry_ns - now_ns;
	due = s->first_ns + s->cfg.delay_ms * MS;
	if (!flush && s->q->len < s->cfg.batch_max && now_ns < due)
		return due - now_ns;
	n = s->q->len < s->cfg.batch_max ? s->q->len : s->cfg.batch_max;
	if (encode(s, n, &body, &len) < 0) {
		fprintf(stderr, "ehsyslog export: cannot build a request of %zu records: out of memory\n", n);
		return 100 * MS;
	}
	timeout_ms = s->cfg.timeout_ms;
	if (deadline_ns != INT64_MAX && (deadline_ns - now_ns) / MS < timeout_ms)
		timeout_ms = (deadline_ns - now_ns) / MS;
	if (http_post(s->http, body, len, timeout_ms, &a) == 0) {
		free(body);
		queue_pop(s->q, n);
		s->sent += n;
		partial_success(s, &a, n);
		s->attempt = 0;
		if (s->failing)
			fprintf(stderr, "ehsyslog export: the collector takes records again\n");
		s->failing = false;
		s->first_ns = now_ns;	/* what is left waits as a new batch */
		notice_losses(s, now_ns);
		return 0;
	}
	free(body);
	if (a.status == 0 || backoff_status_retryable(a.status)) {
		long wait = a.retry_after_ms >= 0 ? a.retry_after_ms
			  : backoff_delay_ms(s->attempt, s->cfg.backoff_initial_ms,
					     s->cfg.backoff_max_ms);

		if (a.status == 0)
			snprintf(s->last_error, sizeof s->last_error, "%s", a.error);
		else
			snprintf(s->last_error, sizeof s->last_error, "the collector answered %ld",
				 a.status);
		if (!s->failing) {
			if (a.status == 0)
				fprintf(stderr, "ehsyslog export: %s; retrying\n", a.error);
			else
				fprintf(stderr, "ehsyslog export: the collector answered %ld; retrying\n",
					a.status);
		}
		s->failing = true;
		s->attempt++;
		/* From the answer: the request itself may have taken a while. */
		s->retry_ns = cli_mono_ns() + wait * MS;
		return s->retry_ns - now_ns;
	}
	/* 400 and the like: resending would be refused again. */
	fprintf(stderr, "ehsyslog export: the collector refused %zu record%s (HTTP %ld): dropped\n",
		n, n == 1 ? "" : "s", a.status);
	snprintf(s->last_error, sizeof s->last_error, "the collector refused %zu record%s (HTTP %ld)",
		 n, n == 1 ? "" : "s", a.status);
	queue_pop(s->q, n);
	s->rejected += n;
	s->q->dropped += n;
	s->failing = false;
	s->attempt = 0;
	return 0;
}
