/* SPDX-License-Identifier: MIT */
/*
 * A subcommand's options, through getopt_long, with the conventions every
 * subcommand follows: -h/--help prints its usage on stdout and ends it
 * (exit 0); an unknown option or a missing argument is a usage error
 * ("unknown option '-x'", "option '--name' needs an argument", exit 2).
 */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

struct cli_options {
	const char *cmd;	/* the messages' "ehsyslog CMD: " */
	/* getopt_long's: the short ones start with ':' (after a '+', to
	 * stop at the first operand) and both hold -h/--help as 'h'. */
	const char *shortopts;
	const struct option *longopts;
	const char *usage;	/* what --help prints */
	int exit;	/* the exit code once cli_option returned CLI_OPTIONS_EXIT */
	bool started;
};

#define CLI_OPTIONS(name, shorts, longs, help) \
	{ .cmd = (name), .shortopts = (shorts), .longopts = (longs), .usage = (help) }

/* cli_option's answers besides an option: the operands come next
 * (argv[optind] on); the command ends with the exit code in o->exit. */
#define CLI_OPTIONS_END (-1)
#define CLI_OPTIONS_EXIT (-2)

/* The next option of argv, its argument in optarg, as getopt_long
 * returns it: 'h', ':' and '?' are answered here, never returned. */
int cli_option(struct cli_options *o, int argc, char **argv);

#endif /* CLI_OPTIONS_H */
