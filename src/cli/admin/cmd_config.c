/* SPDX-License-Identifier: MIT */
/* ehsyslog config check: validate a configuration file with the very
 * parser the library uses. */
#include "config.h"

#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/admin/settings.h"
#include "cli/export/options.h"
#include "cli/util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char config_usage[] =
	"Usage: ehsyslog config check [FILE]\n"
	"Check a configuration file (default: $EHSYSLOG_CONFIG, else\n"
	EHSYSLOG_CONFIG_PATH ") with the library's own parser.\n"
	"Prints FILE:LINE: MESSAGE on stderr for each error, and a warning when\n"
	"setuid and setgid programs would ignore the file (not owned by root, or\n"
	"writable by group or others).  The keys of its [export] section are\n"
	"checked as 'ehsyslog export' reads them.\n"
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
	if ((why = cli_config_distrust(&file.st)) != NULL)
		fprintf(stderr, "%s: warning: %s: setuid and setgid programs ignore it\n", path, why);
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
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		if (c == 'h')
			return cli_print_help(config_usage);
		return cli_option_error(cmd, argc, argv, c);
	}
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
