/* SPDX-License-Identifier: MIT */
/* ehsyslog export: the events, as they are logged, to an OTLP collector. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/util.h"
#include "cli/tail/live.h"
#include "cli/output/output.h"
#include "cli/stale.h"
#include "cli/transport.h"
#include "cli/export/options.h"
#include "cli/export/queue/queue.h"
#include "cli/export/otlp/record.h"
#include "cli/export/sender.h"
#include "cli/export/queue/spool.h"
#include "cli/tail/thread_process.h"
#include "cli/export/state.h"

/* How long the buffers fill between two reads, as in tail. */
#define POLL_NS (100 * 1000 * 1000LL)
#define SECOND_NS 1000000000LL

/* Waits ns at most: on the request in flight, whose answer is then
 * handled as soon as it comes, or asleep.  A signal ends either, to be
 * seen by the caller. */
static void pause_for(struct sender *s, int64_t ns)
{
	struct timespec t = { ns / SECOND_NS, ns % SECOND_NS };

	if (!sender_wait(s, ns))
		nanosleep(&t, NULL);
}

struct exporter {
	struct out out;
	struct sender sender;
	struct record_context rctx;
	struct record_bytes bytes;
	struct export_state state;	/* what status is told */
	struct export_state_file state_file;
};

/* The output stage's sink: one whole event becomes one queued record. */
static int to_record(void *ctx, const struct read_event *ev, const struct syslog_fields *f,
		     const void *msg, size_t msg_len)
{
	struct exporter *x = ctx;
	int64_t now = cli_mono_ns();
	/* The trace's pid is the thread's (tep_event.c): its process is
	 * looked up. */
	const struct thread_process *proc = ev->info.has_pid ? thread_process(ev->info.tid, now) : NULL;

	if (record_pack(&x->rctx, ev, f, msg, msg_len, proc, cli_wall_ns(), &x->bytes) < 0) {
		x->sender.q->dropped++;	/* out of memory: counted as a drop */
		return 0;
	}
	return sender_push(&x->sender, &x->bytes, now) ? 1 : 0;
}

static int emit(const struct read_event *ev, void *ctx)
{
	struct exporter *x = ctx;

	return out_event(&x->out, ev) < 0 ? -1 : 0;
}

static void note_lost(struct live *l, struct sender *s)
{
	unsigned long long lost;

	if (live_lost(l, &lost) == 0)
		s->lost_kernel = lost;
}

/* The counters, for ehsyslog status. */
static void publish(struct exporter *x)
{
	const struct sender *s = &x->sender;

	struct export_state *st = &x->state;

	st->sent = s->sent;
	st->dropped = sender_dropped(s);
	st->queue_full = s->q->dropped;
	st->refused = s->refused;
	st->rejected = s->rejected;
	st->given_up = s->given_up;
	st->unsent = s->q->len;
	st->lost = s->lost_kernel;
	snprintf(st->collector, sizeof st->collector, "%s",
		 s->failing ? "failing" : s->dropping ? "dropping"
		 : s->sent > 0 || s->rejected > 0 ? "ok" : "idle");
	snprintf(st->error, sizeof st->error, "%.*s", EXPORT_STATE_TEXT - 1, s->last_error);
	snprintf(st->message, sizeof st->message, "%.*s", EXPORT_STATE_TEXT - 1, s->message);
	snprintf(st->drop, sizeof st->drop, "%.*s", EXPORT_STATE_TEXT - 1, s->last_drop);
	st->answer = (unsigned long long)s->last_status;
	st->answer_time = (unsigned long long)(s->last_answer_ns / SECOND_NS);
	st->drop_time = (unsigned long long)(s->last_drop_ns / SECOND_NS);
	export_state_publish(&x->state_file, st);
}

/* Reads and sends until a signal or the timeout.  The buffers are read
 * every POLL_NS, as tail reads them, not at each answer: a pass costs
 * its own system calls (each CPU's buffer opened, spliced, closed) and
 * the spool's write, so a pass of a hundred milliseconds' events costs
 * less per event than one per request, and the buffer holds as much as
 * it does for tail.  Between reads, answers move the sender on. */
static int follow(struct live *l, struct exporter *x, unsigned long seconds)
{
	int64_t deadline = seconds ? cli_mono_ns() + (int64_t)seconds * SECOND_NS : INT64_MAX;
	int64_t next_lost = 0, next_read = 0;

	for (bool last = false;;) {
		int64_t now, wait;

		last = last || live_signals() || cli_mono_ns() >= deadline;
		now = cli_mono_ns();
		if (last || now >= next_read) {
			int rc = live_read(l, emit, x);

			if (rc == 0 && last)
				rc = live_finish(l, emit, x);

			/* What this pass read, written to the spool in one go. */
			queue_commit(x->sender.q);
			if (rc < 0) {
				fprintf(stderr, "ehsyslog export: reading the trace buffers: %s\n",
					strerror(errno));
				return -1;
			}
			if (last)
				return 0;
			next_read = now + POLL_NS;
			now = cli_mono_ns();
		}
		if (now >= next_lost) {
			note_lost(l, &x->sender);
			publish(x);
			if (x->sender.q->spool != NULL)
				spool_sync(x->sender.q->spool);	/* each second: spool.h */
			next_lost = now + SECOND_NS;
		}
		/* Starts or moves on a request and returns: the buffers are
		 * read again while the collector takes its time. */
		wait = sender_step(&x->sender, now, false, INT64_MAX);
		if (wait > next_read - now)
			wait = next_read - now;
		if (!live_signals() && wait > 0)
			pause_for(&x->sender, wait);
	}
}

/* What is queued, sent within flush_ms at most: the request in flight's
 * answer waited for first. */
static void flush(struct exporter *x, long flush_ms)
{
	int64_t end = cli_mono_ns() + (int64_t)flush_ms * 1000000;

	for (;;) {
		int64_t now, wait;

		/* Staged records (out_flush's, the sender's own) queued. */
		queue_commit(x->sender.q);
		if (x->sender.q->len == 0 || (now = cli_mono_ns()) >= end)
			return;
		wait = sender_step(&x->sender, now, true, end);
		if (wait > 0)
			pause_for(&x->sender, wait < end - now ? wait : end - now);
	}
}

static void report(const struct exporter *x)
{
	const struct sender *s = &x->sender;

	fprintf(stderr, "ehsyslog export: %llu record%s sent, %llu dropped (queue full or refused), "
		"%zu unsent at exit, %llu event%s lost by the trace buffer\n",
		s->sent, s->sent == 1 ? "" : "s", sender_dropped(s), s->q->len,
		s->lost_kernel, s->lost_kernel == 1 ? "" : "s");
	if (s->q->spool != NULL && s->q->len > 0)
		fprintf(stderr, "ehsyslog export: %zu unsent record%s kept in %s for the next run\n",
			s->q->len, s->q->len == 1 ? "" : "s", s->q->spool->path);
}

/* The queue's copy on disk, and what an earlier run left there queued.
 * 0, or -1 after saying why. */
static int open_spool(struct spool *sp, struct queue *q, const char *dir, size_t max_bytes)
{
	if (spool_open(sp, dir, max_bytes, queue_restore, q) < 0)
		return -1;
	q->spool = sp;
	if (q->len > 0)
		fprintf(stderr, "ehsyslog export: %zu record%s an earlier run left in %s, to send\n",
			q->len, q->len == 1 ? "" : "s", dir);
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct export_options o;
	struct exporter x = { 0 };
	uint64_t keywords[SYSLOG_KEYWORD_COUNT];
	struct live_config cfg;
	struct http *http;
	struct queue q;
	struct spool sp = { .dir = -1, .fd = -1 };
	char err[1024], host[256], tracing[PATH_MAX];
	struct live *l;
	int rc, code;

	setlocale(LC_CTYPE, "");
	rc = export_options_parse(&o, argc, argv, cli_config_path());
	if (rc >= 0)
		return rc;
	live_config_for(&cfg, &o.filter, keywords);
	cfg.uprobes = o.uprobes || cli_transport(tracing, sizeof tracing) == CLI_TRANSPORT_UPROBES;
	cfg.uprobes_lib = o.uprobes_lib;
	if (gethostname(host, sizeof host) < 0)
		snprintf(host, sizeof host, "-");
	host[sizeof host - 1] = '\0';
	x.rctx = (struct record_context){ host, o.resource, o.resource_count };

	http = http_new(&o.http, err, sizeof err);
	if (http == NULL) {
		fprintf(stderr, "ehsyslog export: %s\n", err);
		export_options_free(&o);
		return CLI_EXIT_RUNTIME;
	}
	if (queue_init(&q, o.queue_max, o.queue_bytes) < 0 ||
	    out_init(&x.out, NULL, "export", &o.filter, false, host) < 0) {
		fprintf(stderr, "ehsyslog export: out of memory\n");
		queue_free(&q);
		http_free(http);
		export_options_free(&o);
		return CLI_EXIT_RUNTIME;
	}
	x.out.sink = to_record;
	x.out.sink_ctx = &x;
	if (o.queue_dir != NULL && open_spool(&sp, &q, o.queue_dir, o.queue_bytes) < 0) {
		rc = CLI_EXIT_RUNTIME;
		goto out;
	}
	sender_init(&x.sender, &o.send, &q, http, &x.rctx);

	live_catch_signals();

	stale_remove_reporting("export");
	l = live_open(&cfg, err, sizeof err, &code);
	if (l == NULL) {
		fprintf(stderr, "ehsyslog export: %s\n", err);
		rc = code;
		goto out;
	}
	live_signals_target(l);
	/* live_open's instance records each thread's process there. */
	thread_process_kernel(tracefs_tracing_dir());
	export_state_endpoint(&x.state, o.url);
	export_state_open(&x.state_file, cli_runtime_dir(), &x.state);
	rc = follow(l, &x, o.run_seconds);
	out_flush(&x.out);	/* split messages whose end never came */
	note_lost(l, &x.sender);
	live_signals_target(NULL);
	live_close(l);
	flush(&x, o.flush_ms);
	export_state_close(&x.state_file);
	report(&x);
	rc = rc < 0 ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
out:
	out_free(&x.out);
	record_bytes_free(&x.bytes);
	queue_free(&q);
	spool_close(&sp);
	http_free(http);
	export_options_free(&o);
	return rc;
}
