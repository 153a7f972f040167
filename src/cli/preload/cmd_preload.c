/* SPDX-License-Identifier: MIT */
/* ehsyslog preload: manage the library's entry in /etc/ld.so.preload. */
#include "config.h"

#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/preload/preload_file.h"
#include "cli/preload/preload_lib.h"
#include "cli/preload/preload_list.h"
#include "cli/preload/preload_unit.h"
#include "cli/preload/unit_name.h"
#include "cli/user_events_access.h"
#include "cli/options.h"
#include "cli/util.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char preload_usage[] =
	"Usage: ehsyslog preload enable|disable|status [--library PATH] [--unit NAME]\n"
	"Manage the system-wide preload of libehsyslog.so in /etc/ld.so.preload,\n"
	"which makes every dynamically linked program on the machine log to\n"
	"tracepoints, or with --unit its preload into one systemd service.\n"
	"\n"
	"  enable    check the library, then add it to the file (once); other\n"
	"            entries are kept; warns on stderr where no event can be\n"
	"            written ('ehsyslog status' tells why)\n"
	"  disable   remove the library's entry; other entries and comments are\n"
	"            kept; the file is removed when nothing else is left in it\n"
	"  status    say whether the library is listed, and list the services\n"
	"            that have an ehsyslog drop-in\n"
	"\n"
	"  -L, --library PATH  the library (default: $EHSYSLOG_LIBRARY, else\n"
	"                      " EHSYSLOG_LIBRARY_PATH ");\n"
	"                      -l, the old short form, is kept for scripts\n"
	"  -u, --unit NAME     act on the service NAME (NAME.service when it has\n"
	"                      no suffix) instead of /etc/ld.so.preload\n"
	"  -h, --help          print this help and exit\n"
	"\n"
	"enable (with or without --unit) refuses a library that is not an absolute\n"
	"path, not owned by root, writable by group or others, or that ld.so cannot\n"
	"preload into /bin/true; and one below a directory, on its path as given or\n"
	"on its symbolic links' targets, that is not owned by root or is writable by\n"
	"group or others, sticky or not: a library in /tmp is refused, since once it\n"
	"is gone anyone may create one at its path.  The file is replaced\n"
	"atomically under a lock (.ld.so.preload.lock in its directory).\n"
	"\n"
	"enable --unit NAME writes /etc/systemd/system/NAME.service.d/ehsyslog.conf,\n"
	"setting the service's LD_PRELOAD to the entries it already has (as\n"
	"'systemctl show' tells them) followed by the library.  One set in an\n"
	"EnvironmentFile= cannot be seen and overrides the drop-in: add the library\n"
	"there instead.  disable --unit removes\n"
	"that file only (and the directory if it is left empty), never other\n"
	"drop-ins.  Both then print the systemctl commands that apply the change.\n"
	"status --unit NAME tells about that service only.\n"
	"Exit status: 0 ok, 1 error (a library refused, say), 2 usage error,\n"
	"4 permission denied.\n";

enum action { ENABLE, DISABLE, STATUS };

static int edit(const char *cmd, enum action action, const char *lib, const char *path)
{
	struct preload_file f = { .lock_fd = -1 };
	char *text = NULL;
	size_t len;
	int rc;

	if ((rc = preload_file_lock(cmd, &f, path)) != 0 ||
	    (rc = preload_file_read(cmd, &f, path)) != 0)
		goto out;
	if (action == ENABLE) {
		if (preload_list_has(f.text, f.len, lib)) {
			printf("%s is already listed in %s\n", lib, path);
			goto out;
		}
		text = preload_list_add(f.text, f.len, lib, &len);
	} else {
		if (!preload_list_has(f.text, f.len, lib)) {
			printf("%s is not listed in %s: nothing to do\n", lib, path);
			goto out;
		}
		text = preload_list_remove(f.text, f.len, lib, &len);
	}
	if (!text) {
		cli_error(cmd, "out of memory");
		rc = CLI_EXIT_RUNTIME;
		goto out;
	}
	if (action == DISABLE && preload_list_blank(text, len)) {
		if ((rc = preload_file_remove(cmd, &f)) == 0)
			printf("removed %s from %s (nothing else was left: file removed)\n", lib, path);
	} else if ((rc = preload_file_replace(cmd, &f, text, len)) == 0) {
		printf("%s %s %s %s\n", action == ENABLE ? "added" : "removed", lib,
		       action == ENABLE ? "to" : "from", path);
	}
out:
	free(text);
	preload_file_release(&f);
	return rc;
}

static void print_unit(const char *unit, const char *path, void *ctx)
{
	(void)ctx;
	printf("enabled for %s: %s\n", unit, path);
}

static int status(const char *cmd, const char *lib, const char *path)
{
	struct preload_file f = { .lock_fd = -1 };
	int rc = preload_file_read(cmd, &f, path), units;

	if (rc == 0)
		printf("%s: %s is %slisted in %s\n",
		       preload_list_has(f.text, f.len, lib) ? "enabled" : "disabled",
		       lib, preload_list_has(f.text, f.len, lib) ? "" : "not ", path);
	preload_file_release(&f);
	units = preload_unit_list(print_unit, NULL);
	if (units == 0)
		printf("no service has an ehsyslog drop-in in %s\n", cli_systemd_dir());
	if (units < 0) {
		cli_error(cmd, "cannot read %s: %s", cli_systemd_dir(), strerror(-units));
		return rc ? rc : cli_exit_for_errno(-units);
	}
	return rc;
}

static int unit_status(const char *unit)
{
	char path[PATH_MAX];

	if (preload_unit_has(unit, path, sizeof path))
		printf("enabled for %s: %s\n", unit, path);
	else
		printf("disabled for %s: no %s\n", unit, path);
	return 0;
}

int cmd_preload(int argc, char **argv)
{
	static const struct option options[] = {
		{ "library", required_argument, NULL, 'L' },
		{ "unit", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	const char *lib = NULL, *unit_arg = NULL, *word, *why;
	char unit[UNIT_NAME_SIZE];
	enum action action;
	struct cli_options opts = CLI_OPTIONS(cmd, ":L:l:u:h", options, preload_usage);
	int c, rc;

	/* -l: --library's old short form, kept for scripts; register's -l
	 * is --level, so -L is the one documented. */
	while ((c = cli_option(&opts, argc, argv)) >= 0) {
		switch (c) {
		case 'L':
		case 'l':
			lib = optarg;
			break;
		case 'u':
			unit_arg = optarg;
			break;
		}
	}
	if (c == CLI_OPTIONS_EXIT)
		return opts.exit;
	if (optind >= argc)
		return cli_usage_error(cmd, "missing action: enable, disable or status");
	if (argc - optind > 1)
		return cli_usage_error(cmd, "too many arguments");
	word = argv[optind];
	if (strcmp(word, "enable") == 0)
		action = ENABLE;
	else if (strcmp(word, "disable") == 0)
		action = DISABLE;
	else if (strcmp(word, "status") == 0)
		action = STATUS;
	else
		return cli_usage_error(cmd, "unknown action '%s' (enable, disable or status)", word);
	if (!lib)
		lib = cli_library_path();
	if (!*lib)
		return cli_usage_error(cmd, "empty library path");

	if (unit_arg && (why = unit_name_service(unit_arg, unit)) != NULL)
		return cli_usage_error(cmd, "invalid unit name '%s': %s", unit_arg, why);

	if (action == STATUS)
		return unit_arg ? unit_status(unit) : status(cmd, lib, cli_ld_so_preload_path());
	/* Checked before the file is touched: a bad entry there breaks every
	 * program's start-up message-free behaviour on the machine. */
	if (action == ENABLE && (rc = preload_lib_verify(cmd, lib)) != 0)
		return rc;
	if (unit_arg)
		rc = action == ENABLE ? preload_unit_enable(cmd, unit, lib)
				      : preload_unit_disable(cmd, unit);
	else
		rc = edit(cmd, action, lib, cli_ld_so_preload_path());
	/* Enabled where no event can be written, the preload does nothing
	 * but cost: say so, and why, without failing what was asked. */
	if (action == ENABLE && rc == 0)
		cli_user_events_warn(cmd, unit_arg ? "the service will load the library, its calls "
						      "passing through as without it"
						   : "programs will load the library, their calls "
						     "passing through as without it");
	return rc;
}
