/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/random.h>

#include "cli/util.h"
#include "cli/export/backoff.h"
#include "cli/export/batch.h"
#include "cli/export/otlp/request.h"
#include "cli/export/otlp/response.h"
#include "cli/export/sender.h"

#define MS 1000000LL

void sender_init(struct sender *s, const struct sender_config *cfg, struct queue *q,
		 struct http *http, const struct record_context *rctx)
{
	*s = (struct sender){ .cfg = *cfg, .q = q, .http = http, .rctx = rctx };
	/* The jitter needs only to differ between exporters: without
	 * getrandom, the time and pid do that. */
	if (getrandom(&s->random, sizeof s->random, GRND_NONBLOCK) != sizeof s->random)
		s->random = (uint64_t)cli_wall_ns() ^ (uint64_t)getpid() << 32;
}

unsigned long long sender_dropped(const struct sender *s)
{
	return s->q->dropped + s->rejected + s->refused + s->given_up;
}

bool sender_push(struct sender *s, const struct record_bytes *b, int64_t now_ns)
{
	return queue_push(s->q, b->resource, b->resource_len, b->record, b->record_len, now_ns);
}

/* After a success: tell the collector what was lost since last told. */
static void notice_losses(struct sender *s, int64_t now_ns)
{
	unsigned long long dropped = sender_dropped(s) - s->told_dropped;
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
	if (r.message[0] != '\0' && !s->told_partial) {
		fprintf(stderr, "ehsyslog export: the collector rejected %llu of %zu record%s: %s\n",
			r.rejected, n, n == 1 ? "" : "s", r.message);
		s->told_partial = true;
	}
}

static void taken(struct sender *s, const struct http_answer *a, size_t n, int64_t now_ns)
{
	queue_pop(s->q, n);
	s->sent += n;
	partial_success(s, a, n);
	s->attempt = 0;
	if (s->failing || s->dropping)
		fprintf(stderr, "ehsyslog export: the collector takes records again\n");
	s->failing = s->dropping = false;
	s->told[0] = '\0';
	notice_losses(s, now_ns);
}

/* What the answer a says, into the sender's last_error and message:
 * the collector's message from an error answer's body, if any. */
static void note_failure(struct sender *s, const struct http_answer *a)
{
	struct response r;

	s->message[0] = '\0';
	if (a->status == 0) {
		snprintf(s->last_error, sizeof s->last_error, "%s", a->error);
		return;
	}
	if (a->status >= 200 && a->status < 300) {	/* cut: BACKOFF_DROP */
		snprintf(s->last_error, sizeof s->last_error,
			 "the collector's answer (%ld) is over %d KiB, the most read", a->status,
			 HTTP_BODY_MAX / 1024);
		return;
	}
	if (response_error(a->body, a->body_len, a->content_type, s->cfg.encoding, &r) == 0)
		snprintf(s->message, sizeof s->message, "%s", r.message);
	snprintf(s->last_error, sizeof s->last_error, "the collector answered %ld%s%s", a->status,
		 s->message[0] != '\0' ? ": " : "", s->message);
}

/* Says line on stderr unless it tells the same failure as the last. */
static void tell(struct sender *s, const char *what, const char *line)
{
	if (strcmp(s->told, what) == 0)
		return;
	snprintf(s->told, sizeof s->told, "%s", what);
	fprintf(stderr, "ehsyslog export: %s\n", line);
}

/* The batch's n records are dropped, counted in *count, for why. */
static void drop(struct sender *s, size_t n, unsigned long long *count, const char *why)
{
	char line[sizeof s->last_drop];

	snprintf(s->last_drop, sizeof s->last_drop, "%zu record%s: %s", n, n == 1 ? "" : "s", why);
	s->last_drop_ns = cli_wall_ns();
	snprintf(line, sizeof line, "%s: dropped %zu record%s", why, n, n == 1 ? "" : "s");
	tell(s, why, line);
	queue_pop(s->q, n);
	*count += n;
	s->dropping = true;
	s->failing = false;
	s->attempt = 0;
}

/* A retryable failure at now_ns of the batch of n records: the wait
 * until its next try, or 0 when it is given up. */
static int64_t retry(struct sender *s, const struct http_answer *a, size_t n, int64_t now_ns)
{
	long backoff = backoff_delay_ms(s->attempt, s->cfg.backoff_initial_ms,
					s->cfg.backoff_max_ms, backoff_random(&s->random));
	long wait = backoff_retry_wait_ms(a->retry_after_ms, backoff, s->cfg.backoff_max_ms);
	char line[sizeof s->last_error + 16];

	if (s->attempt == 0)
		s->batch_failed_ns = now_ns;
	if (s->cfg.max_elapsed_ms > 0 &&
	    now_ns + wait * MS - s->batch_failed_ns > s->cfg.max_elapsed_ms * MS) {
		char why[sizeof s->last_error + 64];

		snprintf(why, sizeof why, "given up after %.1f s of retries (%s)",
			 (double)(now_ns - s->batch_failed_ns) / 1e9, s->last_error);
		drop(s, n, &s->given_up, why);
		return 0;
	}
	snprintf(line, sizeof line, "%s; retrying", s->last_error);
	tell(s, s->last_error, line);
	s->failing = true;
	s->attempt++;
	s->retry_ns = now_ns + wait * MS;
	return wait * MS;
}

/* The answer a to the request of the queue's n oldest records, at
 * now_ns: taken, retried or dropped.  The wait until something is due. */
static int64_t answered(struct sender *s, const struct http_answer *a, size_t n, int64_t now_ns)
{
	s->last_status = a->status;
	s->last_answer_ns = cli_wall_ns();
	switch (backoff_classify(a->status, a->body_cut)) {
	case BACKOFF_TAKEN:
		taken(s, a, n, now_ns);
		return 0;
	case BACKOFF_RETRY:
		note_failure(s, a);
		return retry(s, a, n, now_ns);
	case BACKOFF_DROP:
		break;
	}
	/* 400, 401, 413, a redirect, an answer too long: resending would
	 * fare the same. */
	note_failure(s, a);
	drop(s, n, &s->refused, s->last_error);
	return 0;
}

/* The request in flight moved on: its answer handled once it came, else
 * the wait until it must have ended. */
static int64_t awaited(struct sender *s, int64_t now_ns)
{
	size_t n = s->in_flight;

	if (!http_run(s->http))
		return s->in_flight_end_ns - now_ns > MS ? s->in_flight_end_ns - now_ns : MS;
	s->in_flight = 0;
	/* From the answer: building and sending the request took a while. */
	return answered(s, &s->answer, n, cli_mono_ns());
}

int64_t sender_step(struct sender *s, int64_t now_ns, bool flush, int64_t deadline_ns)
{
	const struct batch_format f = { s->cfg.encoding, s->cfg.gzip, s->cfg.batch_bytes };
	uint8_t *body;
	size_t n, len;
	long timeout_ms;
	int64_t due;
	int rc;

	if (s->in_flight > 0)
		return awaited(s, now_ns);
	if (s->q->len == 0)
		return INT64_MAX;
	if (now_ns < s->retry_ns)
		return s->retry_ns - now_ns;
	/* From when the oldest record came, not from the last answer: a
	 * record waits delay_ms at most, however many batches left before
	 * it. */
	due = queue_at(s->q, 0)->came_ns + s->cfg.delay_ms * MS;
	if (!flush && s->q->len < s->cfg.batch_max && now_ns < due)
		return due - now_ns;
	n = s->q->len < s->cfg.batch_max ? s->q->len : s->cfg.batch_max;
	rc = batch_encode(s->q, n, &f, &body, &len, &n);
	if (rc == BATCH_TOO_BIG) {
		char why[96];

		snprintf(why, sizeof why, "a record alone makes a request over --batch-bytes (%zu)",
			 s->cfg.batch_bytes);
		drop(s, 1, &s->refused, why);
		return 0;
	}
	if (rc < 0) {
		fprintf(stderr, "ehsyslog export: cannot build a request of %zu records: out of memory\n", n);
		return 100 * MS;
	}
	timeout_ms = s->cfg.timeout_ms;
	if (deadline_ns != INT64_MAX && (deadline_ns - now_ns) / MS < timeout_ms)
		timeout_ms = (deadline_ns - now_ns) / MS;
	/* The records stay queued, oldest first, until the answer: the next
	 * batch is built only then, so order is kept. */
	if (http_start(s->http, body, len, timeout_ms, &s->answer) < 0)
		return answered(s, &s->answer, n, now_ns);
	s->in_flight = n;
	s->in_flight_end_ns = now_ns + timeout_ms * MS;
	return awaited(s, now_ns);
}

bool sender_wait(struct sender *s, int64_t wait_ns)
{
	return s->in_flight > 0 && http_wait(s->http, (wait_ns + MS - 1) / MS) == 0;
}
