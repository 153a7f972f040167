/* SPDX-License-Identifier: MIT */
/* ehsyslog register: create the tracepoints before any program logs, so
 * that perf and ftrace can name them. */
#include "config.h"

#include "cli/commands.h"
#include "cli/admin/register_uprobes.h"
#include "cli/names.h"
#include "cli/provider.h"
#include "cli/stale.h"
#include "cli/transport.h"
#include "cli/user_events_access.h"
#include "cli/options.h"
#include "cli/util.h"

#include <ehsyslog/user_events.h>
#include <eventheader/eventheader.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEVEL_MIN 1
#define LEVEL_MAX 5
#define ALL_LEVELS (((1u << (LEVEL_MAX + 1)) - 1) & ~((1u << LEVEL_MIN) - 1))

static const char register_usage[] =
	"Usage: ehsyslog register [--provider NAME] [--facility F]... [--level L]...\n"
	"                         [--persist | --delete]\n"
	"       ehsyslog register --uprobes [--level L]... [--delete] [LIB]...\n"
	"Register the tracepoints <provider>_L<level>K<keyword> for the given\n"
	"levels and facilities and print their names, so that tracers can name\n"
	"them (perf record -e user_events:Syslog_L4K2) before any program logs.\n"
	"Then hold them until SIGINT, SIGTERM or SIGHUP and exit 0.\n"
	"\n"
	"  -P, --provider NAME  provider (default Syslog):\n"
	"                       " CLI_PROVIDER_RULE "\n"
	"  -f, --facility F     facility name (user, daemon, local0...), number\n"
	"                       0..127 or 'all'; repeat or separate with commas\n"
	"                       (default: all); 24..127 share keyword 0\n"
	"  -l, --level L        level 1..5, a severity name (err: level 2) or\n"
	"                       'all'; repeat or separate with commas (default: all)\n"
	"      --persist        register persistent tracepoints and exit at once\n"
	"                       (needs CAP_PERFMON; they stay until deleted)\n"
	"  -d, --delete         delete these tracepoints (persistent ones too, which\n"
	"                       needs CAP_PERFMON) and print the names deleted;\n"
	"                       those that do not exist are skipped, those in use\n"
	"                       (registered by a program, enabled by a tracer) fail\n"
	"  -u, --uprobes        on a kernel without user_events: define the uprobe\n"
	"                       events on the library's USDT probes instead, one per\n"
	"                       level, GROUP:EVENT (ehsyslog:critical, :error,\n"
	"                       :warning, :info, :verbose), and exit (they stay until\n"
	"                       deleted); GROUP is ehsyslog for the installed library\n"
	"                       (the default LIB), ehsyslog_HASH for another copy.\n"
	"                       Run again after an upgrade replaced LIB: the new\n"
	"                       file's probes are added to the events (a note says).\n"
	"                       With --delete, delete them (those enabled by a tracer\n"
	"                       fail).  Takes no --provider, --facility or --persist.\n"
	"  -h, --help           print this help and exit\n"
	"\n"
	"Exit status: 0 ok, 1 error, 2 usage error, 3 kernel without user_events\n"
	"(--uprobes: without uprobe events), 4 permission denied.\n";

/* Adds the comma-separated items of arg to *levels (bit per level) or
 * *facilities; false on a bad item. */
static bool parse_set(const char *cmd, const char *arg, uint32_t *levels,
		      struct facility_set *facilities)
{
	bool is_level = levels != NULL;
	char *copy = strdup(arg), *item, *save = NULL;
	bool ok = copy != NULL;

	for (item = copy ? strtok_r(copy, ",", &save) : NULL; ok && item;
	     item = strtok_r(NULL, ",", &save)) {
		int v;

		if (strcmp(item, "all") == 0) {
			if (is_level)
				*levels |= ALL_LEVELS;
			else
				facility_set_all(facilities);
			continue;
		}
		if (is_level) {
			/* A digit is a level 1..5; a name is a severity. */
			if (item[0] >= '0' && item[0] <= '9')
				v = item[1] == '\0' && item[0] >= '1' && item[0] <= '5' ? item[0] - '0' : -1;
			else
				v = syslog_severity_level(syslog_severity_from_name(item));
			if (v < 0) {
				cli_usage_error(cmd, "invalid level '%s' (1..5 or a severity name)", item);
				ok = false;
			} else {
				*levels |= 1u << v;
			}
		} else {
			v = syslog_facility_from_name(item);
			if (v < 0) {
				cli_usage_error(cmd, "invalid facility '%s' (a name such as user or local0, or 0..127)", item);
				ok = false;
			} else {
				facility_set_add(facilities, (unsigned)v);
			}
		}
	}
	if (!copy)
		cli_error(cmd, "out of memory");
	if (copy && !item && ok && (is_level ? *levels == 0 : facility_set_empty(facilities))) {
		cli_usage_error(cmd, "empty %s list", is_level ? "level" : "facility");
		ok = false;
	}
	free(copy);
	return ok;
}

/* What defines the events where the kernel has uprobe events only. */
#define UPROBES_HINT "'ehsyslog register --uprobes' defines the library's events there"

/* Deletes the named tracepoints on a descriptor of our own, not the
 * writer's (which would keep the file open for nothing); prints each name
 * deleted. */
static int delete_tracepoints(const char *cmd, char (*names)[EH_NAME_MAX], size_t count)
{
	char tracing[PATH_MAX], data[PATH_MAX + 32];
	int fd, rc = CLI_EXIT_OK;

	if (ue_tracefs_dir(tracing, sizeof tracing) != 0)
		return cli_user_events_error(cmd, NULL, ENOENT, false);
	snprintf(data, sizeof data, "%s/user_events_data", tracing);
	fd = open(data, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = cli_user_events_error(cmd, data, errno, false);
		cli_uprobes_hint(cmd, rc, UPROBES_HINT);
		return rc;
	}
	for (size_t i = 0; i < count; i++) {
		int err = -ue_kernel_delete(fd, names[i]);

		if (err == 0) {
			puts(names[i]);
			continue;
		}
		if (err == ENOENT)
			continue;	/* not registered: nothing to delete */
		if (err == EBUSY) {
			cli_error(cmd, "cannot delete %s: in use (registered by a running program "
				  "or enabled by a tracer)", names[i]);
			rc = CLI_EXIT_RUNTIME;
		} else {
			cli_error(cmd, "cannot delete %s: %s%s", names[i], strerror(err),
				  err == EPERM ? " (a persistent tracepoint: needs CAP_PERFMON)" : "");
			if (rc == CLI_EXIT_OK)
				rc = cli_exit_for_errno(err);
		}
	}
	close(fd);
	if (fflush(stdout) != 0) {
		cli_error(cmd, "cannot write the names: %s", strerror(errno));
		rc = CLI_EXIT_RUNTIME;
	}
	return rc;
}

/* Waits for a signal that ends the hold; they are blocked by then. */
static void wait_for_stop(const sigset_t *stop)
{
	int sig;

	while (sigwait(stop, &sig) != 0)
		;
}

/* --persist has no short form: -P is --provider in every subcommand. */
enum { OPT_PERSIST = 256 };

int cmd_register(int argc, char **argv)
{
	static const struct option options[] = {
		{ "provider", required_argument, NULL, 'P' },
		{ "facility", required_argument, NULL, 'f' },
		{ "level", required_argument, NULL, 'l' },
		{ "persist", no_argument, NULL, OPT_PERSIST },
		{ "delete", no_argument, NULL, 'd' },
		{ "uprobes", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	const char *provider = "Syslog";
	uint32_t levels = 0;
	struct facility_set facilities = { { 0 } };
	uint64_t keywords[SYSLOG_KEYWORD_COUNT];
	size_t keyword_count;
	bool persist = false, delete = false, uprobes = false, only_user_events = false;
	struct ue_tracepoint *tps;
	char (*names)[EH_NAME_MAX];
	size_t count = 0, i;
	sigset_t stop;
	struct cli_options opts = CLI_OPTIONS(cmd, ":P:f:l:duh", options, register_usage);
	int c, rc = CLI_EXIT_OK;

	while ((c = cli_option(&opts, argc, argv)) >= 0) {
		switch (c) {
		case 'P':
			provider = optarg;
			only_user_events = true;
			break;
		case 'f':
			only_user_events = true;
			/* fall through */
		case 'l':
			if (!parse_set(cmd, optarg, c == 'l' ? &levels : NULL,
				       c == 'l' ? NULL : &facilities))
				return CLI_EXIT_USAGE;
			break;
		case OPT_PERSIST:
			persist = true;
			only_user_events = true;
			break;
		case 'u':
			uprobes = true;
			break;
		case 'd':
			delete = true;
			break;
		}
	}
	if (c == CLI_OPTIONS_EXIT)
		return opts.exit;
	if (uprobes && only_user_events)
		return cli_usage_error(cmd, "--uprobes takes no --provider, --facility or --persist "
				       "(one event per level; a reader filters facilities)");
	if (uprobes) {
		/* A killed tail's instance keeps its events enabled. */
		stale_remove_reporting(cmd);
		return register_uprobes(cmd, levels ? levels : ALL_LEVELS, delete, argv + optind,
					argc - optind);
	}
	if (optind < argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	if (persist && delete)
		return cli_usage_error(cmd, "--persist and --delete exclude each other");
	if (cli_check_provider(cmd, provider) != 0)
		return CLI_EXIT_USAGE;
	if (!levels)
		levels = ALL_LEVELS;
	if (facility_set_empty(&facilities))
		facility_set_all(&facilities);
	keyword_count = facility_set_keywords(&facilities, keywords);

	tps = calloc((LEVEL_MAX + 1) * SYSLOG_KEYWORD_COUNT, sizeof *tps);
	names = calloc((LEVEL_MAX + 1) * SYSLOG_KEYWORD_COUNT, sizeof *names);
	if (!tps || !names) {
		free(tps);
		free(names);
		cli_error(cmd, "out of memory");
		return CLI_EXIT_RUNTIME;
	}
	for (c = LEVEL_MIN; c <= LEVEL_MAX; c++) {
		if (!(levels & (1u << c)))
			continue;
		for (size_t k = 0; k < keyword_count; k++) {
			int err;

			err = eh_tracepoint_name(names[count], sizeof names[count], provider,
						 (unsigned)c, keywords[k], NULL);
			if (err) {
				rc = cli_usage_error(cmd, "invalid provider name '%s': %s", provider,
						     eh_strerror(err));
				goto out;
			}
			tps[count] = (struct ue_tracepoint)UE_TRACEPOINT_INIT(names[count]);
			count++;
		}
	}

	/* A killed tail's instance keeps tracepoints enabled, and in use
	 * (not deletable): it goes first. */
	stale_remove_reporting(cmd);
	if (delete) {
		rc = delete_tracepoints(cmd, names, count);
		goto out;
	}
	/* Blocked before registering, so that a signal arriving while we
	 * register is not lost and still unregisters cleanly. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, NULL);

	for (i = 0; i < count; i++) {
		int err = ue_tracepoint_register(&tps[i], persist ? UE_PERSIST : 0);

		if (err < 0) {
			char msg[1024];

			rc = cli_user_events_explain_register(msg, sizeof msg, -err, persist);
			cli_error(cmd, "%s", msg);
			cli_uprobes_hint(cmd, rc, UPROBES_HINT);
			ue_close();
			goto out;
		}
	}
	for (i = 0; i < count; i++)
		puts(names[i]);
	if (fflush(stdout) != 0) {
		cli_error(cmd, "cannot write the names: %s", strerror(errno));
		rc = CLI_EXIT_RUNTIME;
	}
	if (!persist && rc == CLI_EXIT_OK)
		wait_for_stop(&stop);
	/* Persistent tracepoints outlive this; ours only drop our enable
	 * registrations. */
	ue_close();
out:
	free(tps);
	free(names);
	return rc;
}
