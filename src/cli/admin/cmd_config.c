/* SPDX-License-Identifier: MIT */
/* ehsyslog config check: validate a configuration file with the very
 * parser the library uses. */
#include "config.h"

#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/admin/settings.h"
#include "cli/export/options.h"
#include "cli/options.h"
#include "cli/util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char config_usage[] =
	"Usage: ehsyslog config check [FILE]\n"
	"Check a configuration file (default: $EHSYSLOG_CONFIG, else\n"
	EHSYSLOG_CONFIG_PATH ") with the library's own parser.\n"
	"Prints FILE:LINE: MESSAGE on stderr for each error, and a warning when\n"
	"the library would ignore the file for its owner or mode (not owned by\n"
	"root, or writable by group or others).  The keys of its [export]\n"
	"section are checked as 'ehsyslog export' reads them.\n"
	"\n"
	"  -h, --help  print this help and exit\n"
	"\n"
	"Exit status: 0 valid (or the default file is absent: the built-in\n"
	"defaults apply), 1 errors found or FILE unreadable, 2 usage error,\n"
	"4 permission denied (FILE cannot be read by this user).\n";

/* Errors of the [export] section, each printed by export's own option
 * code; its values are export's business, not the library's. */
static int export_errors(const char *path)
{
	struct export_options o;
	int n;

	export_options_init(&o);
	n = export_options_load(&o, path);
	export_options_free(&o);
	return n;
}

static void print_error(void *ctx, unsigned line, const char *message)
{
	fprintf(stderr, "%s:%u: %s\n", (const char *)ctx, line, message);
}

static int check(const char *cmd, const char *path, bool explicit_path)
{
	struct cli_config_file file;
	struct ehs_config c;
	const char *why;
	int rc, xerrors;

	ehs_config_defaults(&c);
	fflush(stdout);
	rc = cli_config_apply(&file, path, NULL, &c, print_error, (void *)path);
	if (rc < 0) {
		cli_error(cmd, "cannot read %s: %s", path, strerror(-rc));
		return cli_exit_for_errno(-rc);
	}
	if (!file.found) {
		if (explicit_path) {
			cli_error(cmd, "cannot read %s: No such file or directory", path);
			return CLI_EXIT_RUNTIME;
		}
		printf("%s: absent; the built-in defaults apply\n", path);
		return CLI_EXIT_OK;
	}
	if ((why = ehs_config_distrust(file.st.st_uid, file.st.st_mode)) != NULL)
		fprintf(stderr, "%s: warning: %s: the library ignores it and uses its defaults\n", path, why);
	xerrors = export_errors(path);
	if (file.errors > 0)
		fprintf(stderr, "%s: %d error%s: the library ignores this file and uses its defaults\n",
			path, file.errors, file.errors == 1 ? "" : "s");
	if (xerrors != 0)
		fprintf(stderr, "%s: [export] is not valid: ehsyslog export refuses to start\n", path);
	if (file.errors > 0 || xerrors != 0)
		return CLI_EXIT_RUNTIME;
	printf("%s: valid\n", path);
	return CLI_EXIT_OK;
}

int cmd_config(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	struct cli_options opts = CLI_OPTIONS(cmd, ":h", options, config_usage);

	/* -h is its only option: the first answer is the last. */
	if (cli_option(&opts, argc, argv) != CLI_OPTIONS_END)
		return opts.exit;
	if (optind >= argc)
		return cli_usage_error(cmd, "missing action: check");
	if (strcmp(argv[optind], "check") != 0)
		return cli_usage_error(cmd, "unknown action '%s' (check)", argv[optind]);
	if (argc - optind > 2)
		return cli_usage_error(cmd, "too many arguments");
	if (argc - optind == 2)
		return check(cmd, argv[optind + 1], true);
	return check(cmd, cli_config_path(), false);
}
