/* SPDX-License-Identifier: MIT */
/* ehsyslog preload: manage the library's entry in /etc/ld.so.preload. */
#include "config.h"

#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/preload_file.h"
#include "cli/preload_lib.h"
#include "cli/preload_list.h"
#include "cli/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char preload_usage[] =
	"Usage: ehsyslog preload enable|disable|status [--library PATH]\n"
	"Manage the system-wide preload of libehsyslog.so in /etc/ld.so.preload,\n"
	"which makes every dynamically linked program on the machine log to\n"
	"tracepoints.\n"
	"\n"
	"  enable    check the library, then add it to the file (once); other\n"
	"            entries are kept\n"
	"  disable   remove the library's entry; other entries and comments are\n"
	"            kept; the file is removed when nothing else is left in it\n"
	"  status    say whether the library is listed\n"
	"\n"
	"  -l, --library PATH  the library (default: $EHSYSLOG_LIBRARY, else\n"
	"                      " EHSYSLOG_LIBRARY_PATH ")\n"
	"  -h, --help          print this help and exit\n"
	"\n"
	"enable refuses a library that is not an absolute path, not owned by root,\n"
	"writable by group or others, in a directory others may write, or that\n"
	"ld.so cannot preload into /bin/true.  The file is replaced atomically\n"
	"under a lock (.ld.so.preload.lock in its directory).\n";

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

static int status(const char *cmd, const char *lib, const char *path)
{
	struct preload_file f = { .lock_fd = -1 };
	int rc = preload_file_read(cmd, &f, path);

	if (rc == 0)
		printf("%s: %s is %slisted in %s\n",
		       preload_list_has(f.text, f.len, lib) ? "enabled" : "disabled",
		       lib, preload_list_has(f.text, f.len, lib) ? "" : "not ", path);
	preload_file_release(&f);
	return rc;
}

int cmd_preload(int argc, char **argv)
{
	static const struct option options[] = {
		{ "library", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	const char *lib = NULL, *word;
	enum action action;
	int c, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:h", options, NULL)) != -1) {
		switch (c) {
		case 'l':
			lib = optarg;
			break;
		case 'h':
			return cli_print_help(preload_usage);
		default:
			return cli_option_error(cmd, argc, argv, c);
		}
	}
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

	if (action == STATUS)
		return status(cmd, lib, cli_ld_so_preload_path());
	/* Checked before the file is touched: a bad entry there breaks every
	 * program's start-up message-free behaviour on the machine. */
	if (action == ENABLE && (rc = preload_lib_verify(cmd, lib)) != 0)
		return rc;
	return edit(cmd, action, lib, cli_ld_so_preload_path());
}
