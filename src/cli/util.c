/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void vreport(const char *cmd, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (cmd)
		fprintf(stderr, "ehsyslog %s: ", cmd);
	else
		fputs("ehsyslog: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "Try 'ehsyslog %s --help'.\n", cmd);
	else
		fputs("Try 'ehsyslog --help'.\n", stderr);
	return CLI_EXIT_USAGE;
}

int cli_option_error(const char *cmd, char **argv, int c)
{
	/* With a leading ':' in the option string getopt_long returns ':' for
	 * a missing argument and '?' for an unknown option; optopt is the
	 * short option, or 0 for a long one, whose word is argv[optind - 1]. */
	const char *word = optind > 0 ? argv[optind - 1] : "";
	int len = (int)strcspn(word, "=");

	if (c == ':') {
		if (optopt)
			return cli_usage_error(cmd, "option '-%c' needs an argument", optopt);
		return cli_usage_error(cmd, "option '%.*s' needs an argument", len, word);
	}
	if (optopt)
		return cli_usage_error(cmd, "unknown option '-%c'", optopt);
	return cli_usage_error(cmd, "unknown option '%.*s'", len, word);
}

int cli_exit_for_errno(int err)
{
	return err == EACCES || err == EPERM ? CLI_EXIT_PERMISSION : CLI_EXIT_RUNTIME;
}

int cli_print_help(const char *text)
{
	fputs(text, stdout);
	return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
}
