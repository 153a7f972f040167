/* SPDX-License-Identifier: MIT */
/*
 * Live reading for `ehsyslog tail`: registers the chosen EventHeader
 * tracepoints (they must exist to be enabled), or defines the library's
 * uprobe events (the uprobe transport), enables them in a private
 * tracefs instance "ehsyslog-tail-PID-START-NS" (the top-level instance is
 * never touched; cli/stale.h says how one left behind is found), and reads
 * its buffers.
 */
#ifndef EHSYSLOG_CLI_LIVE_H
#define EHSYSLOG_CLI_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/output/output.h"

struct live_config {
	const char *provider;
	unsigned levels;	/* bit per EventHeader level 1..5 */
	const uint64_t *keywords;	/* the keywords to follow (facility_set_keywords) */
	size_t keyword_count;	/* at most SYSLOG_KEYWORD_COUNT */
	unsigned long buffer_kib;	/* per CPU buffer size; 0: the kernel's default */
	/* The uprobe transport (uprobe/ehs_uprobes.h) instead of
	 * user_events: the library's events L<level>, defined if missing
	 * (and removed at close when this defined them), enabled in the
	 * instance.  uprobes_lib: the library copy, NULL the installed. */
	bool uprobes;
	const char *uprobes_lib;
};

struct live;

/* The tracepoints that can hold what filter f takes: the levels its
 * severities map to, the keywords of its facilities.  keywords has
 * SYSLOG_KEYWORD_COUNT places. */
void live_config_for(struct live_config *cfg, const struct filter *f, uint64_t *keywords);

/* NULL on failure, with a message in err and the exit code (commands.h)
 * in *exit_code. */
struct live *live_open(const struct live_config *cfg, char *err, size_t errlen, int *exit_code);

typedef int (*live_cb)(const struct read_event *ev, void *ctx);

/* Reads the records the buffers hold now (consuming them), in time order,
 * times mapped to the wall clock.  Records written while it reads wait
 * for the next call (hold.h).  Returns 0, cb's non-zero value, or -1. */
int live_read(struct live *l, live_cb cb, void *ctx);

/* After the last live_read: the records it held back.  Returns as it. */
int live_finish(struct live *l, live_cb cb, void *ctx);

/*
 * From now on, live_read calls lost where a CPU's buffer lost records,
 * before the first record read after them, with ctx; live_lost calls it
 * for what is still unreported.  Each count is the page's own count of
 * missed events where the kernel stored one, else (no room left in the
 * page) all that CPU's statistics (live_lost's) hold unreported, and
 * never more than that: so the counts add up to live_lost's total.
 */
void live_follow_lost(struct live *l, read_lost_cb lost, void *ctx);

/* Asks a live_read in progress to return; async-signal-safe. */
void live_stop(struct live *l);

/*
 * SIGINT, SIGTERM and SIGHUP end a reader cleanly: the first only
 * counts (live_signals()), letting the read in progress finish, since
 * stopping it would drop the rest of the pages it already took from the
 * kernel, events that no lost count would show; a second one stops the
 * read of the live l given to live_signals_target.  Install before the
 * instance exists, so that no signal can leave it behind.  Also ignores
 * SIGPIPE: a closed pipe is a write error, cleaned up.
 */
void live_catch_signals(void);
void live_signals_target(struct live *l);	/* NULL: none */
int live_signals(void);	/* signals caught so far */

/* Events the kernel could not keep for us so far: the sum over CPUs of
 * "overrun" (overwritten before we read them) and "dropped events" in the
 * instance's per_cpu/cpuN/stats.  With live_follow_lost, also reports
 * each CPU's part that live_read has not (until the callback fails).
 * 0, or -1 with errno set. */
int live_lost(struct live *l, unsigned long long *lost);

/* Disables the events, removes the instance, unregisters (uprobes:
 * removes the events it defined, unless a tracer still has them
 * enabled), frees. */
void live_close(struct live *l);

#endif
