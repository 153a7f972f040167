/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "cli/commands.h"
#include "cli/util.h"
#include "cli/tail/follow.h"
#include "cli/tail/hold.h"
#include "cli/tail/live.h"
#include "cli/stale.h"
#include "cli/reader_alive.h"
#include "cli/output/tep_event.h"
#include "cli/user_events_access.h"
#include "cli/paths.h"
#include "cli/transport.h"
#include "cli/uprobe/ehs_uprobes.h"
#include "cli/uprobe/owned.h"
#include "cli/uprobe/uprobe_events.h"

#include <ehsyslog/user_events.h>

#define SYSTEM "user_events"

struct live {
	struct tracefs_instance *inst;
	int inst_fd;	/* its directory, locked while this runs (reader_alive.h) */
	struct tep_handle *tep;
	char system[EHS_UPROBE_GROUP_MAX];	/* SYSTEM, or the uprobe group */
	size_t n;	/* events to enable: names[0..n) */
	size_t registered;	/* user_events: of them registered (tps) */
	size_t enabled;	/* of them enabled in inst */
	char (*names)[EH_NAME_MAX];
	struct ue_tracepoint *tps;
	/* uprobes: where the definitions are, and which this defined */
	char tracing[PATH_MAX];
	struct owned owned;
	unsigned created;
	/* uprobes: the library's file through upgrades, and its copies */
	struct follow follow;
	bool following;
	struct uprobe_scratch scratch;	/* uprobe events' decoded bytes */
	/* callback state of one live_read */
	live_cb cb;
	void *ctx;
	int rc;
	int64_t wall_offset;	/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	unsigned long long cut;	/* records after it are held (hold.h) */
	struct hold held;
	/* live_follow_lost */
	read_lost_cb lost;
	void *lost_ctx;
	long cpus;	/* per_cpu/cpuN directories there may be */
	unsigned long long *reported;	/* per CPU: lost records reported */
};

static int exit_code_of(int err)
{
	if (err == EACCES || err == EPERM)
		return CLI_EXIT_PERMISSION;
	if (err == ENOENT || err == ENODEV || err == ENOTSUP)
		return CLI_EXIT_NO_USER_EVENTS;
	return CLI_EXIT_RUNTIME;
}

static int tp_register(struct live *l, size_t i)
{
	l->tps[i] = (struct ue_tracepoint)UE_TRACEPOINT_INIT(l->names[i]);
	return -ue_tracepoint_register(&l->tps[i], 0);
}

static void tp_unregister(struct live *l, size_t i)
{
	ue_tracepoint_unregister(&l->tps[i]);
}

/* Writes the instance's events/SYSTEM/NAME/enable directly:
 * tracefs_event_enable() lists every event directory of the system for
 * each call, which for 125 tracepoints takes minutes on a slow machine. */
static int tp_set_enable(struct live *l, size_t i, const char *on)
{
	char path[sizeof "events/" + EHS_UPROBE_GROUP_MAX + EH_NAME_MAX + sizeof "/enable"];

	snprintf(path, sizeof path, "events/%s/%s/enable", l->system, l->names[i]);
	return tracefs_instance_file_write(l->inst, path, on) < 0 ? -1 : 0;
}

/* First the lock that tells other readers, in any namespace, that this
 * one runs; it stays in l->inst_fd.  Then: the instance buffers every
 * preloaded program's messages: only the tail's user may enter it.
 * tracefs makes it 0750 with the owner and group of the tracefs root, so
 * a group given to that root (chgrp, a gid= mount) could read it.  0, or
 * an errno with the message in err. */
static int make_private(struct live *l, const char *name, char *err, size_t errlen)
{
	struct stat st;
	char *dir;
	int fd = -1, e = 0;

	errno = 0;	/* libtracefs may fail without setting it */
	dir = tracefs_instance_get_dir(l->inst);
	if (dir == NULL)
		e = errno ? errno : ENOMEM;
	else if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		e = errno;
	else if ((e = -reader_hold(fd)) == 0 &&
		 (fchown(fd, geteuid(), getegid()) < 0 || fchmod(fd, 0700) < 0 ||
		  fstat(fd, &st) < 0))
		e = errno;
	if (e != 0) {
		snprintf(err, errlen, "cannot make tracefs instance %s private (owner uid %u, mode 0700): %s",
			 name, (unsigned)geteuid(), strerror(e));
	} else if ((st.st_mode & 07777) != 0700 || st.st_uid != geteuid()) {
		/* A tracefs that ignores the change: never trace into it. */
		e = EPERM;
		snprintf(err, errlen, "tracefs instance %s is still owned by uid %u with mode %04o after making it private (uid %u, 0700)",
			 name, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777), (unsigned)geteuid());
	}
	l->inst_fd = fd;
	tracefs_put_tracing_file(dir);
	return e;
}

/* Before any event is enabled: resizing empties the buffers.  0, or an
 * errno with the message in err. */
static int set_buffer_size(struct live *l, unsigned long kib, char *err, size_t errlen)
{
	char text[32];

	snprintf(text, sizeof text, "%lu", kib);
	if (tracefs_instance_file_write(l->inst, "buffer_size_kb", text) >= 0)
		return 0;
	snprintf(err, errlen, "cannot make the trace buffer %lu KiB per CPU: %s", kib, strerror(errno));
	return errno;
}

/* user_events: registers the tracepoints of cfg's levels and keywords. */
static int register_tracepoints(struct live *l, const struct live_config *cfg,
				char *err, size_t errlen, int *exit_code)
{
	int e;

	snprintf(l->system, sizeof l->system, "%s", SYSTEM);
	for (unsigned level = 1; level <= 5; level++) {
		if (!(cfg->levels >> level & 1))
			continue;
		for (size_t k = 0; k < cfg->keyword_count && k < SYSLOG_KEYWORD_COUNT; k++) {
			e = eh_tracepoint_name(l->names[l->n], EH_NAME_MAX, cfg->provider,
					       level, cfg->keywords[k], NULL);
			if (e < 0) {
				snprintf(err, errlen, "%s: %s", cfg->provider, eh_strerror(e));
				return -1;
			}
			e = tp_register(l, l->n);
			if (e != 0) {
				/* The writer keeps even a failed tracepoint
				 * (to retry it): hand it back before freeing. */
				tp_unregister(l, l->n);
				*exit_code = cli_user_events_explain_register(err, errlen, e, false);
				return -1;
			}
			l->registered = ++l->n;
		}
	}
	return 0;
}

/* uprobes: defines the library's events of cfg's levels where missing
 * (uprobe/owned.h says why the file comes first), one per level: the
 * keywords (facilities) are the output stage's filter's to sort out. */
static int define_uprobes(struct live *l, const struct live_config *cfg,
			  char *err, size_t errlen, int *exit_code)
{
	struct ehs_uprobes *u = malloc(sizeof *u);
	char why[768];
	unsigned added;
	int e = -1;

	/* The file is noted before its probes are read: one that replaces
	 * it meanwhile is then seen at the first read pass.  Copies are
	 * searched for unless the library was named. */
	if (u == NULL ||
	    follow_start(&l->follow, cfg->uprobes_lib != NULL ? cfg->uprobes_lib : cli_library_path(),
			 l->tracing, l->system, cfg->levels, cfg->uprobes_lib == NULL) < 0) {
		free(u);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	l->following = true;
	if ((e = cli_uprobe_tracing(l->tracing, sizeof l->tracing, err, errlen)) != 0) {
		*exit_code = e;
		e = -1;
	} else if (ehs_uprobes_for(cfg->uprobes_lib, u, why, sizeof why) < 0) {
		snprintf(err, errlen, "the library's uprobe events (the transport where the kernel "
			 "has no user_events): %s", why);
		e = -1;
	} else {
		unsigned missing = 0;
		int claimed = 0;

		snprintf(l->system, sizeof l->system, "%s", u->group);
		for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++) {
			const char *event = ehs_uprobe_event_name(level);
			if ((cfg->levels >> level & 1) &&
			    uprobe_events_defined(l->tracing, u->group, event) == 0)
				missing |= 1u << level;
		}
		/* Noted before they exist: no moment where a SIGKILL leaves
		 * one that no file names. */
		if (missing != 0)
			claimed = owned_claim(&l->owned, cli_runtime_dir(), u->group, missing);
		e = ehs_uprobes_define(l->tracing, u, cfg->levels, &l->created, &added, err, errlen);
		owned_update(&l->owned, u->group, l->created);
		if (e < 0)
			*exit_code = exit_code_of(-e);
		else if (claimed < 0 && l->created != 0)
			fprintf(stderr, "ehsyslog: warning: cannot note the uprobe events it defined in "
				"%s: %s; should it be killed, 'ehsyslog register --uprobes --delete' "
				"removes them\n", cli_runtime_dir(), strerror(-claimed));
	}
	if (e == 0) {
		for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++)
			if (cfg->levels >> level & 1)
				snprintf(l->names[l->n++], EH_NAME_MAX, "%s", ehs_uprobe_event_name(level));
	}
	free(u);
	return e < 0 ? -1 : 0;
}

struct live *live_open(const struct live_config *cfg, char *err, size_t errlen, int *exit_code)
{
	struct live *l = calloc(1, sizeof *l);
	const char *systems[2] = { NULL, NULL };
	char inst_name[96];
	int e;

	*exit_code = CLI_EXIT_RUNTIME;
	if (l == NULL)
		goto nomem;
	l->inst_fd = -1;
	l->names = calloc(5 * SYSLOG_KEYWORD_COUNT, sizeof *l->names);
	l->tps = calloc(5 * SYSLOG_KEYWORD_COUNT, sizeof *l->tps);
	/* libtracefs opens per_cpu/cpuN for N below this count too. */
	l->cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (l->cpus < 1)
		l->cpus = 1;
	l->reported = calloc((size_t)l->cpus, sizeof *l->reported);
	if (l->names == NULL || l->tps == NULL || l->reported == NULL)
		goto nomem;
	if ((cfg->uprobes ? define_uprobes : register_tracepoints)(l, cfg, err, errlen, exit_code) < 0)
		goto fail;
	systems[0] = l->system;
	/* Who we are: a later reader can tell when we are gone. */
	e = stale_own_name(inst_name, sizeof inst_name);
	if (e < 0) {
		snprintf(err, errlen, "cannot name the tracefs instance from /proc/self: %s",
			 strerror(-e));
		goto fail;
	}
	l->inst = tracefs_instance_create(inst_name);
	if (l->inst == NULL || !tracefs_instance_is_new(l->inst)) {
		e = errno;
		if (l->inst != NULL) {
			/* Someone else's: never destroy it. */
			tracefs_instance_free(l->inst);
			l->inst = NULL;
			e = EEXIST;
		}
		snprintf(err, errlen, "cannot create tracefs instance %s: %s", inst_name, strerror(e));
		*exit_code = exit_code_of(e);
		goto fail;
	}
	/* Before any event is enabled: nothing to read in it until then. */
	if ((e = make_private(l, inst_name, err, errlen)) != 0) {
		*exit_code = exit_code_of(e);
		goto fail;
	}
	if (cfg->buffer_kib != 0 && (e = set_buffer_size(l, cfg->buffer_kib, err, errlen)) != 0) {
		*exit_code = exit_code_of(e);
		goto fail;
	}
	/* The kernel keeps each traced thread's process (saved_tgids), so
	 * that export can name the process of a thread gone before its
	 * record was read (thread_process.h).  Without it (a kernel before
	 * 4.13) only the thread id is known: not worth refusing to read. */
	(void)tracefs_option_enable(l->inst, TRACEFS_OPTION_RECORD_TGID);
	/* mono = CLOCK_MONOTONIC, which the wall clock is an offset away from. */
	if (tracefs_instance_file_write(l->inst, "trace_clock", "mono") < 0) {
		snprintf(err, errlen, "cannot set the trace clock: %s", strerror(errno));
		goto fail;
	}
	for (; l->enabled < l->n; l->enabled++) {
		if (tp_set_enable(l, l->enabled, "1") < 0) {
			e = errno;
			snprintf(err, errlen, "cannot enable %s: %s", l->names[l->enabled], strerror(e));
			*exit_code = exit_code_of(e);
			goto fail;
		}
	}
	l->tep = tracefs_local_events_system(NULL, (const char *const *)systems);
	if (l->tep == NULL) {
		snprintf(err, errlen, "cannot read the event formats: %s", strerror(errno));
		goto fail;
	}
	return l;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	live_close(l);
	return NULL;
}

void live_config_for(struct live_config *cfg, const struct filter *f, uint64_t *keywords)
{
	struct facility_set every;

	*cfg = (struct live_config){ .provider = f->provider, .keywords = keywords };
	for (int s = 0; s <= (f->min_severity < 0 ? 7 : f->min_severity); s++)
		cfg->levels |= 1u << syslog_severity_level(s);
	facility_set_all(&every);
	cfg->keyword_count = facility_set_keywords(facility_set_empty(&f->facilities) ? &every
						   : &f->facilities, keywords);
}

static int64_t wall_offset(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000 + (rt.tv_nsec - mono.tv_nsec);
}

/* Adds the number after each of the labels in the stats text to *sum. */
static void add_counts(const char *text, unsigned long long *sum)
{
	static const char *const labels[] = { "overrun: ", "dropped events: " };

	const char *line = text;

	while (line != NULL) {
		for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
			if (strncmp(line, labels[i], strlen(labels[i])) == 0)
				*sum += strtoull(line + strlen(labels[i]), NULL, 10);
		line = strchr(line, '\n');
		if (line != NULL)
			line++;
	}
}

/* CPU cpu's lost records so far: 0, 1 for a CPU that never came up (no
 * stats), or -1 with errno set. */
static int cpu_lost(struct live *l, long cpu, unsigned long long *lost)
{
	char file[64], *text;

	*lost = 0;
	snprintf(file, sizeof file, "per_cpu/cpu%ld/stats", cpu);
	text = tracefs_instance_file_read(l->inst, file, NULL);
	if (text == NULL)
		return errno == ENOENT ? 1 : -1;
	add_counts(text, lost);
	free(text);
	return 0;
}

/* Reports what CPU cpu's buffer lost before the record just read:
 * missed, the page's count (-1: the kernel had no room to store it),
 * kept within what the statistics hold unreported (live.h). */
static int report_missed(struct live *l, int cpu, long long missed)
{
	struct read_lost lost = { .cpu = cpu };
	unsigned long long total;

	if (cpu >= 0 && cpu < l->cpus && cpu_lost(l, cpu, &total) == 0) {
		total = total > l->reported[cpu] ? total - l->reported[cpu] : 0;
		lost.count = missed > 0 && (unsigned long long)missed < total ? (unsigned long long)missed
									       : total;
		if (lost.count == 0)
			return 0;	/* reported with an earlier page's */
		l->reported[cpu] += lost.count;
	} else if (missed > 0) {
		lost.count = (unsigned long long)missed;	/* the page's alone */
	}
	return l->lost(&lost, l->lost_ctx);
}

/* Passes one record on, after the losses before it. */
static int pass_on(struct live *l, struct tep_event *event, struct tep_record *record, int cpu)
{
	struct read_event ev;

	if (record->missed_events != 0 && l->lost != NULL &&
	    (l->rc = report_missed(l, cpu, record->missed_events)) != 0)
		return 1;
	switch (tep_read_event(l->tep, event, record, &l->scratch, &ev)) {
	case 1:
		break;
	case -1:
		errno = ENOMEM;
		l->rc = -1;
		return 1;
	default:
		return 0;
	}
	ev.wall_ns = record->ts + (uint64_t)l->wall_offset;
	ev.has_wall = true;
	l->rc = l->cb(&ev, l->ctx);
	return l->rc != 0;
}

/* Passes on the records held up to time ts. */
static int pass_on_held(struct live *l, unsigned long long ts)
{
	struct held *r;

	while ((r = hold_oldest(&l->held)) != NULL && r->ts <= ts) {
		struct tep_record record;
		int stop;

		hold_record(r, &record);
		stop = pass_on(l, r->event, &record, r->cpu);
		hold_drop_oldest(&l->held);
		if (stop)
			return 1;
	}
	return 0;
}

static int each_record(struct tep_event *event, struct tep_record *record, int cpu, void *arg)
{
	struct live *l = arg;

	if (record->ts > l->cut) {
		if (hold_add(&l->held, event, record, cpu) == 0)
			return 0;
		l->rc = -1;
		return 1;
	}
	return pass_on_held(l, record->ts) || pass_on(l, event, record, cpu);
}

/* Now on the trace clock (mono, as set in live_open), less the moments a
 * record on another CPU may be between its time and its commit. */
static unsigned long long trace_now(void)
{
	const int64_t commit_ns = 2 * 1000 * 1000;
	int64_t ns = cli_mono_ns();

	return ns > commit_ns ? (unsigned long long)(ns - commit_ns) : 0;
}

int live_read(struct live *l, live_cb cb, void *ctx)
{
	if (l->following) {
		unsigned created = follow_pass(&l->follow);

		/* Events deleted meanwhile and defined again: ours now. */
		if (created != 0) {
			l->created |= created;
			owned_update(&l->owned, l->system, l->created);
		}
	}
	l->cb = cb;
	l->ctx = ctx;
	l->rc = 0;
	/* Sampled per batch: follows clock steps (NTP, settimeofday). */
	l->wall_offset = wall_offset();
	l->cut = trace_now();
	if (tracefs_iterate_raw_events(l->tep, l->inst, NULL, 0, each_record, l) < 0 && l->rc == 0)
		return -1;
	/* Held in an earlier pass, and no later record read in this one. */
	if (l->rc == 0)
		pass_on_held(l, l->cut);
	return l->rc;
}

int live_finish(struct live *l, live_cb cb, void *ctx)
{
	l->cb = cb;
	l->ctx = ctx;
	l->rc = 0;
	pass_on_held(l, ULLONG_MAX);
	return l->rc;
}

int live_lost(struct live *l, unsigned long long *lost)
{
	*lost = 0;
	for (long cpu = 0; cpu < l->cpus; cpu++) {
		unsigned long long n;
		int rc = cpu_lost(l, cpu, &n);

		if (rc < 0)
			return -1;
		*lost += n;
		if (l->lost != NULL && n > l->reported[cpu]) {
			struct read_lost rest = { .count = n - l->reported[cpu], .cpu = (int)cpu };

			l->reported[cpu] = n;
			if (l->lost(&rest, l->lost_ctx) != 0)
				l->lost = NULL;	/* its output failed: the total still counts */
		}
	}
	return 0;
}

void live_follow_lost(struct live *l, read_lost_cb lost, void *ctx)
{
	l->lost = lost;
	l->lost_ctx = ctx;
}

void live_stop(struct live *l)
{
	tracefs_iterate_stop(l->inst);
}

static volatile sig_atomic_t signals;
static struct live *volatile signal_target;

static void on_signal(int sig)
{
	(void)sig;
	if (signals++ == 0)
		return;
	if (signal_target != NULL)
		live_stop(signal_target);
}

void live_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void live_signals_target(struct live *l)
{
	signal_target = l;
}

int live_signals(void)
{
	return signals;
}

/* The instance removed.  rmdir fails with EBUSY while another process
 * has one of its files open for a moment (another reader looking at the
 * instances, a status); a removal retried for up to a second leaves
 * nothing behind.  Any other failure is left to stale removal. */
static void instance_destroy(struct tracefs_instance *inst)
{
	const struct timespec pause = { .tv_nsec = 10 * 1000 * 1000 };

	for (int tries = 1; tracefs_instance_destroy(inst) < 0 && errno == EBUSY && tries < 100;
	     tries++)
		nanosleep(&pause, NULL);
}

void live_close(struct live *l)
{
	if (l == NULL)
		return;
	if (l->inst != NULL) {
		while (l->enabled > 0)
			tp_set_enable(l, --l->enabled, "0");
		instance_destroy(l->inst);
		tracefs_instance_free(l->inst);
	}
	if (l->inst_fd >= 0)
		close(l->inst_fd);
	if (l->tep != NULL)
		tep_free(l->tep);
	while (l->registered > 0)
		tp_unregister(l, --l->registered);
	/* Only what this defined (owned.h); those a tracer still has
	 * enabled stay, for a later run to remove. */
	if (l->created != 0)
		owned_update(&l->owned, l->system,
			     l->created & ~ehs_uprobes_remove(l->tracing, l->system, l->created,
							      NULL, NULL));
	if (l->following)
		follow_end(&l->follow);
	uprobe_scratch_free(&l->scratch);
	hold_free(&l->held);
	free(l->reported);
	free(l->tps);
	free(l->names);
	free(l);
}
