/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include <trace-cmd.h>

#include "cli/tep_event.h"
#include "cli/trace_dat.h"

struct walk {
	trace_dat_cb cb;
	void *ctx;
	int rc;
};

static int each_record(struct tracecmd_input *in, struct tep_record *record, int cpu, void *arg)
{
	struct walk *w = arg;
	struct read_event ev;

	(void)cpu;
	if (tep_read_event(tracecmd_get_tep(in), NULL, record, &ev) != 1)
		return 0;
	/* The trace clock ("local" unless recorded with -C) has no known
	 * relation to the wall clock: times stay on it. */
	w->rc = w->cb(&ev, w->ctx);
	return w->rc != 0;
}

int trace_dat_read(const char *path, char *host, size_t hostlen,
		   trace_dat_cb cb, void *ctx, char *err, size_t errlen)
{
	struct walk w = { .cb = cb, .ctx = ctx };
	struct tracecmd_input *in;

	if (hostlen > 0)
		host[0] = '\0';
	tracecmd_set_loglevel(TEP_LOG_NONE);
	in = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (in == NULL) {
		snprintf(err, errlen, "not a trace.dat file libtracecmd can read");
		return -1;
	}
	/* Iterates all CPUs, merging them by time. */
	if (tracecmd_iterate_events(in, NULL, 0, each_record, &w) < 0 && w.rc == 0) {
		snprintf(err, errlen, "cannot read the events");
		w.rc = -1;
	}
	tracecmd_close(in);
	return w.rc;
}
