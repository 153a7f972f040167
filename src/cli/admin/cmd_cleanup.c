/* SPDX-License-Identifier: MIT */
/* ehsyslog cleanup: remove the tracefs instances of tails that are gone,
 * which would otherwise keep every preloaded program traced. */
#include "config.h"

#include "cli/commands.h"
#include "cli/export/state.h"
#include "cli/paths.h"
#include "cli/stale.h"
#include "cli/transport.h"
#include "cli/uprobe/owned.h"
#include "cli/user_events_access.h"
#include "cli/options.h"
#include "cli/util.h"

#include <ehsyslog/user_events.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char cleanup_usage[] =
	"Usage: ehsyslog cleanup\n"
	"Remove the tracefs instances (ehsyslog-tail-PID-START-NS) that an\n"
	"'ehsyslog tail' left behind when it was killed (SIGKILL, the OOM killer,\n"
	"a crash): their tracepoints stay enabled, and every preloaded program\n"
	"pays for traced calls, until they are removed.  A running tail holds a\n"
	"lock on its instance; one whose lock is free is left behind when, in\n"
	"this PID namespace (NS), no process PID started at START (field 22 of\n"
	"/proc/PID/stat) exists any more, or, in another, it was made 5 s ago or\n"
	"more.  Running tails, in any namespace, are never touched.\n"
	"'ehsyslog tail' and 'ehsyslog register' do the same when they start;\n"
	"'ehsyslog status' lists them.  Also removes the counters an 'ehsyslog\n"
	"export' that was killed left in /run/ehsyslog (export-PID.state), and\n"
	"the library's uprobe events that a tail or export now gone defined\n"
	"(/run/ehsyslog/uprobes-PID-START-NS names them) where no tracer has them\n"
	"enabled.\n"
	"\n"
	"  -h, --help  print this help and exit\n"
	"\n"
	"Prints one line per instance or uprobe event removed, or that none was\n"
	"left behind.\n"
	"Exit status: 0 ok (also when there was nothing to remove), 1 error,\n"
	"2 usage error, 3 kernel with neither user_events nor uprobe events,\n"
	"4 permission denied.\n";

struct cleanup {
	const char *cmd;
	int rc;
};

static void removed(const char *name, int err, void *ctx)
{
	struct cleanup *c = ctx;

	if (err == 0) {
		printf("removed stale instance %s (its tail is gone)\n", name);
		return;
	}
	cli_error(c->cmd, "cannot remove stale instance %s: %s", name, strerror(err));
	if (c->rc == CLI_EXIT_OK)
		c->rc = cli_exit_for_errno(err);
}

static void removed_uprobe(const char *group, unsigned level, int rc, void *ctx)
{
	struct cleanup *c = ctx;

	/* Enabled by a tracer still: it stays (a later cleanup, once it is
	 * not); gone meanwhile: nothing to do. */
	if (rc == -EBUSY || rc == -ENOENT)
		return;
	if (rc == 0) {
		printf("removed uprobe event %s/%s (the reader that defined it is gone)\n", group,
		       ehs_uprobe_event_name(level));
		return;
	}
	cli_error(c->cmd, "cannot remove uprobe event %s/%s: %s", group,
		  ehs_uprobe_event_name(level), strerror(-rc));
	if (c->rc == CLI_EXIT_OK)
		c->rc = cli_exit_for_errno(-rc);
}

static void remove_stale_state(void *ctx, const char *path, enum export_state_kind kind,
			       const struct export_state *s, const char *why)
{
	struct cleanup *c = ctx;

	(void)why;
	if (kind != EXPORT_STATE_STALE)
		return;
	if (unlink(path) == 0) {
		printf("removed stale %s (its export, pid %ld, is gone)\n", path, s->pid);
		return;
	}
	if (errno == ENOENT)
		return;	/* another cleanup was faster */
	cli_error(c->cmd, "cannot remove stale %s: %s", path, strerror(errno));
	if (c->rc == CLI_EXIT_OK)
		c->rc = cli_exit_for_errno(errno);
}

int cmd_cleanup(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cleanup c = { .cmd = argv[0], .rc = CLI_EXIT_OK };
	char tracing[PATH_MAX], data[PATH_MAX + 32];
	enum cli_transport transport;
	struct cli_options opts = CLI_OPTIONS(c.cmd, ":h", options, cleanup_usage);
	int found;

	/* -h is its only option: the first answer is the last. */
	if (cli_option(&opts, argc, argv) != CLI_OPTIONS_END)
		return opts.exit;
	if (optind < argc)
		return cli_usage_error(c.cmd, "unexpected argument '%s'", argv[optind]);

	/* Where no tail can run, say why, as the other commands do. */
	transport = cli_transport(tracing, sizeof tracing);
	if (tracing[0] == '\0')
		return cli_user_events_error(c.cmd, NULL, ENOENT, false);
	snprintf(data, sizeof data, "%s/user_events_data", tracing);
	if (transport == CLI_TRANSPORT_NONE)
		return cli_user_events_error(c.cmd, data, ENOENT, false);

	found = stale_instances(tracing, true, removed, &c);
	if (found < 0) {
		cli_error(c.cmd, "cannot look for stale instances in %s/instances: %s", tracing,
			  strerror(-found));
		return cli_exit_for_errno(-found);
	}
	if (found == 0)
		puts("no stale instances: nothing to remove");
	/* After the instances: theirs were enabled events. */
	found = owned_stale(cli_runtime_dir(), tracing, true, removed_uprobe, &c);
	if (found < 0 && found != -ENOENT) {
		cli_error(c.cmd, "cannot look for stale uprobe events in %s: %s", cli_runtime_dir(),
			  strerror(-found));
		if (c.rc == CLI_EXIT_OK)
			c.rc = cli_exit_for_errno(-found);
	}
	found = export_state_each(cli_runtime_dir(), remove_stale_state, &c);
	if (found < 0 && found != -ENOENT) {
		cli_error(c.cmd, "cannot look for stale export counters in %s: %s",
			  cli_runtime_dir(), strerror(-found));
		if (c.rc == CLI_EXIT_OK)
			c.rc = cli_exit_for_errno(-found);
	}
	if (fflush(stdout) != 0 && c.rc == CLI_EXIT_OK) {
		cli_error(c.cmd, "write error: %s", strerror(errno));
		c.rc = CLI_EXIT_RUNTIME;
	}
	return c.rc;
}
