/* SPDX-License-Identifier: MIT */
/* ehsyslog run: exec a command with libehsyslog.so preloaded. */
#include "config.h"

#include "cli/preload/elf_library.h"
#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/provider.h"
#include "cli/user_events_access.h"
#include "cli/options.h"
#include "cli/util.h"

#include <ehsyslog/settings.h>

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char run_usage[] =
	"Usage: ehsyslog run [--provider NAME] [--replace] [--stdio STREAMS] [--] COMMAND [ARG]...\n"
	"Run COMMAND with libehsyslog.so added to LD_PRELOAD, so that its syslog,\n"
	"err, warn and error calls become user_events tracepoints.\n"
	"\n"
	"  -P, --provider NAME  provider of the tracepoints (EHSYSLOG_PROVIDER):\n"
	"                       " CLI_PROVIDER_RULE "\n"
	"  -R, --replace        replace mode (EHSYSLOG_PASSTHROUGH=0): where events\n"
	"                       can be written, syslog and the journal calls only\n"
	"                       write the event (one nobody traces is gone); err,\n"
	"                       warn and error still print; -r, the old short\n"
	"                       form, is kept for scripts\n"
	"  -S, --stdio STREAMS  make each line COMMAND writes to these streams an\n"
	"                       event wherever they go, a pipe or a file\n"
	"                       (EHSYSLOG_STDIO): stdout, stderr or both; streams\n"
	"                       to journald make events without it\n"
	"  -h, --help           print this help and exit\n"
	"\n"
	"The library is $EHSYSLOG_LIBRARY, else " EHSYSLOG_LIBRARY_PATH ".\n"
	"Where this user could write no event ('ehsyslog status' tells why), a\n"
	"warning says so on stderr, and COMMAND runs all the same.\n"
	"Exit status: COMMAND's; 127 if it was not found, 126 if it could not be\n"
	"executed, 1 or 2 for ehsyslog's own errors.\n";

/* True if the LD_PRELOAD list already names lib (entries are separated by
 * spaces or colons, as ld.so reads them). */
static bool preload_has(const char *list, const char *lib)
{
	size_t n = strlen(lib);
	const char *p = list;

	while (*p) {
		size_t len;

		p += strspn(p, " :");
		len = strcspn(p, " :");
		if (len == n && memcmp(p, lib, n) == 0)
			return true;
		p += len;
	}
	return false;
}

/* Sets LD_PRELOAD to its current value with lib appended once. */
static int append_preload(const char *cmd, const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *value;
	int rc;

	if (old && preload_has(old, lib))
		return 0;
	if (old && old[strspn(old, " :")] != '\0') {
		if (asprintf(&value, "%s:%s", old, lib) < 0) {
			cli_error(cmd, "out of memory");
			return -1;
		}
		rc = setenv("LD_PRELOAD", value, 1);
		free(value);
	} else {
		rc = setenv("LD_PRELOAD", lib, 1);
	}
	if (rc < 0) {
		cli_error(cmd, "cannot set LD_PRELOAD: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option options[] = {
		{ "provider", required_argument, NULL, 'P' },
		{ "replace", no_argument, NULL, 'R' },
		{ "stdio", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	const char *provider = NULL, *stdio = NULL;
	const char *lib;
	unsigned streams;
	char why[128];
	bool replace = false;
	struct cli_options opts = CLI_OPTIONS(cmd, "+:P:RrS:h", options, run_usage);
	int c;

	/* '+': stop at COMMAND, whose own options are not ours. */
	/* -r: --replace's old short form, kept for scripts; export's -r is
	 * --resource, so -R is the one documented. */
	while ((c = cli_option(&opts, argc, argv)) >= 0) {
		switch (c) {
		case 'P':
			provider = optarg;
			break;
		case 'R':
		case 'r':
			replace = true;
			break;
		case 'S':
			stdio = optarg;
			break;
		}
	}
	if (c == CLI_OPTIONS_EXIT)
		return opts.exit;
	if (optind >= argc)
		return cli_usage_error(cmd, "no command to run");
	if (provider && cli_check_provider(cmd, provider) != 0)
		return CLI_EXIT_USAGE;
	if (stdio && (ehs_stdio_streams(stdio, &streams) < 0 || !streams))
		return cli_usage_error(cmd, "--stdio takes stdout, stderr or both, not '%s'", stdio);

	lib = cli_library_path();
	/* ld.so would only print an error into the command's stderr and
	 * run it untraced. */
	if (elf_library_check(lib, why, sizeof why) < 0) {
		cli_error(cmd, "%s the library %s: %s (set EHSYSLOG_LIBRARY to its path)",
			  errno != 0 ? "cannot read" : "cannot use", lib, why);
		return CLI_EXIT_RUNTIME;
	}
	if (append_preload(cmd, lib) < 0)
		return CLI_EXIT_RUNTIME;
	if ((provider && setenv("EHSYSLOG_PROVIDER", provider, 1) < 0) ||
	    (replace && setenv("EHSYSLOG_PASSTHROUGH", "0", 1) < 0) ||
	    (stdio && setenv("EHSYSLOG_STDIO", stdio, 1) < 0)) {
		cli_error(cmd, "cannot set the environment: %s", strerror(errno));
		return CLI_EXIT_RUNTIME;
	}

	/* The command would run untraced, and exit 0, with nothing to tell
	 * the user why no event came. */
	cli_user_events_warn(cmd, "the command runs, its calls passing through as without "
			     "the library");
	fflush(stdout);
	execvp(argv[optind], argv + optind);
	c = errno;
	cli_error(cmd, "cannot run %s: %s", argv[optind], strerror(c));
	/* As shells do: 127 for a command not found, 126 for one found but
	 * not executable. */
	return c == ENOENT || c == ENOTDIR ? 127 : 126;
}
