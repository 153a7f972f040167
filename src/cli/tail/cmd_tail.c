/* SPDX-License-Identifier: MIT */
/* ehsyslog tail: stream syslog events live, decoded. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/util.h"
#include "cli/tail/live.h"
#include "cli/output/output.h"
#include "cli/provider.h"
#include "cli/stale.h"
#include "cli/tail/thread_process.h"
#include "cli/transport.h"

/* How long the buffers fill between two reads: the latency of a line. */
#define POLL_NS (100 * 1000 * 1000L)

static const char usage[] =
	"Usage: ehsyslog tail [OPTIONS]\n"
	"Print syslog events as programs log them, until interrupted.\n"
	"Registers and enables the chosen tracepoints in a private tracefs instance\n"
	"(ehsyslog-tail-PID-START-NS), removed again on exit; other tracers are not\n"
	"disturbed.  The instance is given to tail's user and group with mode 0700\n"
	"before anything is enabled in it, so that no one else reads it; where\n"
	"tracefs refuses or ignores that, tail removes it and exits (4 or 1).\n"
	"Instances of tails that are gone (killed by SIGKILL, say) are\n"
	"removed first, each reported on stderr.\n"
	"A new instance holds no past events, so tail always follows (--follow is\n"
	"accepted and changes nothing); --count and --timeout end it.\n"
	"\n"
	"  -j, --json             one JSON object per line, as perf-decode prints them\n"
	"  -P, --provider NAME    the provider to follow (default Syslog):\n"
	"                         " CLI_PROVIDER_RULE "\n"
	"  -s, --min-severity S   only events at least this severe\n"
	"                         (emerg alert crit err warning notice info debug, or 0..7)\n"
	"  -f, --facility F[,F]   only these facilities (kern user ... local7, or 0..127);\n"
	"                         may be repeated; default all\n"
	"  -p, --program NAME     only events of this program (event name)\n"
	"      --follow           keep printing new events (the default); -F, its\n"
	"                         old short form, is kept for scripts\n"
	"  -n, --count N          exit after printing N events\n"
	"  -t, --timeout SECONDS  exit after this many seconds\n"
	"  -b, --buffer-size KIB  the instance's trace buffer in KiB per CPU, as\n"
	"                         trace-cmd's -b (default: the kernel's trace_buf_size)\n"
	"  -u, --uprobes[=LIB]    read the library's USDT probes through uprobe events,\n"
	"                         the transport where the kernel has no user_events\n"
	"                         (then the default); LIB: that copy of the library\n"
	"                         (default: the installed one)\n"
	"  -h, --help             show this help\n"
	"\n"
	"Text lines: `TIME HOST PROGRAM[PID]: FACILITY.SEVERITY MESSAGE`.\n"
	"FACILITY is the name, or the number where there is none (30.info).\n"
	"TIME is local wall\n"
	"time in RFC 3339 with microseconds.  The instance records on the mono\n"
	"trace clock (CLOCK_MONOTONIC); each batch of records is mapped to the wall\n"
	"clock by adding CLOCK_REALTIME - CLOCK_MONOTONIC read just before it.\n"
	"PID is the thread id the kernel recorded.  A message split over several\n"
	"events is printed once, whole.  The event's other fields (file and line,\n"
	"the journal's and GLib's fields) follow the message as ` [NAME=\"text\" NAME=123 NAME=hex]`.\n"
	"Lines appear within about 0.1 s.\n"
	"SIGINT and SIGTERM end tail cleanly (exit status 0), after printing what\n"
	"was logged before them.\n"
	"Events lost because the trace buffer filled up before tail read them are\n"
	"marked where they were: a line `-- CPU C: N events lost --` (JSON:\n"
	"{\"lost\":N,\"cpu\":C}, which has no \"n\") before the first event that CPU's\n"
	"buffer kept after them, and at exit for those no event followed.  At exit\n"
	"their total is also counted on stderr.  A larger --buffer-size loses fewer.\n"
	"Through uprobes, tail defines the library's events ehsyslog:critical,\n"
	"ehsyslog:error, ehsyslog:warning, ehsyslog:info and ehsyslog:verbose\n"
	"(ehsyslog_HASH for another LIB) where missing, enables them in its\n"
	"instance only, and at exit removes those it defined unless another\n"
	"tracer still has them enabled (then the next tail or 'ehsyslog cleanup'\n"
	"does).  When a file replaces the library at its path (an upgrade), its\n"
	"probes are added to the same events within a read pass (0.1 s); the\n"
	"old file's stay for the programs that still map it.  Without LIB, tail also\n"
	"adds the probes of every other copy a running process maps (once a second).\n"
	"The lines are the same as through user_events.\n"
	"Exit status: 0 ok, 1 runtime error, 2 usage error, 3 kernel with neither\n"
	"user_events nor uprobe events, 4 permission denied.\n";

struct tail {
	struct out out;
	unsigned long count;	/* 0: unlimited */
};

static int emit(const struct read_event *ev, void *ctx)
{
	struct tail *t = ctx;
	struct read_event e = *ev;
	/* The trace's pid is the thread's (tep_event.c): its process is
	 * looked up, as export does; where nothing is left of it, the
	 * thread's id stands. */
	const struct thread_process *proc = e.info.has_pid ? thread_process(e.info.tid, cli_mono_ns()) : NULL;

	if (proc)
		e.info.pid = proc->pid;
	if (out_event(&t->out, &e) < 0)
		return -1;
	if (t->count != 0 && t->out.printed >= t->count)
		return 1;
	return 0;
}

static int mark_lost(const struct read_lost *lost, void *ctx)
{
	struct tail *t = ctx;

	return out_lost(&t->out, lost) < 0 ? -1 : 0;
}

static int follow(struct live *l, struct tail *t, unsigned long timeout)
{
	int64_t deadline = timeout ? cli_mono_ns() + (int64_t)timeout * 1000000000 : INT64_MAX;
	int rc = 0;

	/* After a signal, the read in progress and one more print what was
	 * logged before it (a second signal cuts that short). */
	for (bool last = false; rc == 0; ) {
		struct timespec nap = { 0, POLL_NS };

		last = last || live_signals() || cli_mono_ns() >= deadline;
		rc = live_read(l, emit, t);
		if (rc == 0 && last)
			rc = live_finish(l, emit, t);
		if (rc < 0) {
			fprintf(stderr, "ehsyslog tail: reading the trace buffers: %s\n", strerror(errno));
			return -1;
		}
		if (fflush(t->out.fp) != 0)
			return -1;
		if (last)
			break;
		if (rc == 0 && !live_signals())
			nanosleep(&nap, NULL);	/* EINTR: a signal, seen above */
	}
	return 0;
}

/* Events the buffers could not hold are lost: never silently.  The
 * markers of losses no event followed go out first (live.h). */
static void report_lost(struct live *l, FILE *out)
{
	unsigned long long lost;
	int rc = live_lost(l, &lost);

	fflush(out);
	if (rc < 0)
		fprintf(stderr, "ehsyslog tail: cannot read the buffer statistics: %s\n", strerror(errno));
	else if (lost > 0)
		fprintf(stderr, "ehsyslog tail: %llu event%s lost: the trace buffer overflowed "
			"before they were read\n", lost, lost == 1 ? "" : "s");
}

int cmd_tail(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "follow", no_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "uprobes", optional_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		FILTER_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct filter filter = { .provider = "Syslog", .min_severity = -1 };
	struct live_config cfg;
	uint64_t keywords[SYSLOG_KEYWORD_COUNT];
	struct tail t = { 0 };
	unsigned long timeout = 0, buffer_kib = 0;
	char err[1024], host[256], tracing[PATH_MAX];
	bool uprobes = false;
	const char *lib = NULL;
	struct live *l;
	bool json = false;
	struct cli_options opts = CLI_OPTIONS("tail", ":jFn:t:b:uh" FILTER_SHORT_OPTIONS,
					       longopts, usage);
	int opt, rc, code;

	setlocale(LC_CTYPE, "");
	/* -F: --follow's old short form, kept for scripts; in decode it is
	 * --fields, which is what ehsyslog(1) documents it as. */
	while ((opt = cli_option(&opts, argc, argv)) >= 0) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'F':
			break;
		case 'n':
			if (!cli_parse_ulong(optarg, ULONG_MAX, &t.count) || t.count == 0) {
				return cli_usage_error("tail", "bad count '%s'", optarg);
			}
			break;
		case 't':
			if (!cli_parse_ulong(optarg, 1000000000, &timeout) || timeout == 0) {
				return cli_usage_error("tail", "bad timeout '%s'", optarg);
			}
			break;
		case 'b':
			/* The kernel takes bytes in an unsigned long. */
			if (!cli_parse_ulong(optarg, ULONG_MAX >> 10, &buffer_kib) || buffer_kib == 0) {
				return cli_usage_error("tail", "bad buffer size '%s' (KiB per CPU, 1 or more)",
						       optarg);
			}
			break;
		case 'u':
			uprobes = true;
			lib = optarg;
			break;
		default:
			if (!filter_argument(&filter, opt, optarg, "tail"))
				return CLI_EXIT_USAGE;
		}
	}
	if (opt == CLI_OPTIONS_EXIT)
		return opts.exit;
	if (optind != argc)
		return cli_usage_error("tail", "unexpected argument '%s'", argv[optind]);
	live_config_for(&cfg, &filter, keywords);
	cfg.buffer_kib = buffer_kib;
	cfg.uprobes = uprobes || cli_transport(tracing, sizeof tracing) == CLI_TRANSPORT_UPROBES;
	cfg.uprobes_lib = lib;

	if (gethostname(host, sizeof host) < 0)
		snprintf(host, sizeof host, "-");
	host[sizeof host - 1] = '\0';
	if (out_init(&t.out, stdout, "tail", &filter, json, host) < 0) {
		fprintf(stderr, "ehsyslog tail: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	live_catch_signals();

	stale_remove_reporting("tail");
	l = live_open(&cfg, err, sizeof err, &code);
	if (l == NULL) {
		fprintf(stderr, "ehsyslog tail: %s\n", err);
		out_free(&t.out);
		return code;
	}
	live_signals_target(l);
	/* live_open's instance records each thread's process there. */
	thread_process_kernel(tracefs_tracing_dir());
	live_follow_lost(l, mark_lost, &t);
	rc = follow(l, &t, timeout);
	if (rc == 0 && out_flush(&t.out) < 0)
		rc = -1;
	live_signals_target(NULL);
	report_lost(l, stdout);
	if (ferror(stdout)) {
		fprintf(stderr, "ehsyslog tail: write error\n");
		rc = -1;
	}
	live_close(l);
	out_free(&t.out);
	return rc < 0 ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}
