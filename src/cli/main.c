/* SPDX-License-Identifier: MIT */
/* ehsyslog: git-style dispatcher, "ehsyslog <command> [options]". */
#include "config.h"

#include "cli/commands.h"
#include "cli/util.h"

#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "tail", cmd_tail, "print events as programs log them" },
	{ "export", cmd_export, "send events as programs log them to an OpenTelemetry collector" },
	{ "decode", cmd_decode, "decode events from perf.data or trace.dat" },
	{ "run", cmd_run, "run a program with the library preloaded" },
	{ "register", cmd_register, "register tracepoints so tracers can name them" },
	{ "status", cmd_status, "show user_events support, tracepoints, preload, configuration" },
	{ "cleanup", cmd_cleanup, "remove the tracefs instances of tails that were killed" },
	{ "preload", cmd_preload, "manage the preload: machine-wide (/etc/ld.so.preload) or per service" },
	{ "config", cmd_config, "check the configuration file" },
};

#define COMMAND_COUNT (sizeof commands / sizeof *commands)

static void usage(FILE *out)
{
	size_t i;

	fputs("Usage: ehsyslog <command> [options]\n"
	      "       ehsyslog help [command]\n"
	      "       ehsyslog --help | --version\n"
	      "\n"
	      "Commands:\n", out);
	for (i = 0; i < COMMAND_COUNT; i++)
		fprintf(out, "  %-10s%s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "'ehsyslog <command> --help' describes a command; see ehsyslog(1).\n"
	      "Library: " EHSYSLOG_LIBRARY_PATH " (this build's libdir; run and\n"
	      "preload take $EHSYSLOG_LIBRARY instead when it is set).\n"
	      "Exit codes: 0 ok, 1 error, 2 usage error, 3 kernel with neither\n"
	      "user_events nor uprobe events, 4 permission denied.\n", out);
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < COMMAND_COUNT; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

static int help(int argc, char **argv)
{
	const struct command *c;
	char help_flag[] = "--help";
	char *sub_argv[3];

	if (argc < 2) {
		usage(stdout);
		return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
	}
	if (argc > 2)
		return cli_usage_error("help", "too many arguments");
	c = find(argv[1]);
	if (!c)
		return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
	sub_argv[0] = argv[1];
	sub_argv[1] = help_flag;
	sub_argv[2] = NULL;
	return c->run(2, sub_argv);
}

int main(int argc, char **argv)
{
	const struct command *c;
	const char *name;

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
		return help(1, argv + 1);
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
		puts(PACKAGE_NAME " " PACKAGE_VERSION);
		return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
	}
	if (strcmp(name, "help") == 0)
		return help(argc - 1, argv + 1);
	if (name[0] == '-')
		return cli_usage_error(NULL, "unknown option '%s'", name);
	c = find(name);
	if (!c)
		return cli_usage_error(NULL, "unknown command '%s'", name);
	return c->run(argc - 1, argv + 1);
}
