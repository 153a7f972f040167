/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/options.h"
#include "cli/util.h"

#include <stdbool.h>
#include <string.h>

static int option_error(const char *cmd, int argc, char **argv, int c)
{
	/* With a leading ':' in the option string getopt_long returns ':' for
	 * a missing argument and '?' for an unknown option.  A long option is
	 * the word argv[optind - 1]; a short one is optopt (which may also be
	 * set for a long option, so the word decides). */
	const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	int len = (int)strcspn(word, "=");
	bool is_long = strncmp(word, "--", 2) == 0;

	if (c == ':' && is_long)
		return cli_usage_error(cmd, "option '%.*s' needs an argument", len, word);
	if (c == ':')
		return cli_usage_error(cmd, "option '-%c' needs an argument", optopt);
	if (is_long)
		return cli_usage_error(cmd, "unknown option '%.*s'", len, word);
	return cli_usage_error(cmd, "unknown option '-%c'", optopt);
}

int cli_option(struct cli_options *o, int argc, char **argv)
{
	int c;

	if (!o->started) {
		optind = 1;
		opterr = 0;
		o->started = true;
	}
	c = getopt_long(argc, argv, o->shortopts, o->longopts, NULL);
	if (c == 'h')
		o->exit = cli_print_help(o->usage);
	else if (c == ':' || c == '?')
		o->exit = option_error(o->cmd, argc, argv, c);
	else
		return c;
	return CLI_OPTIONS_EXIT;
}
