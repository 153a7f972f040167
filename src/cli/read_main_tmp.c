/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY: a stand-in dispatcher so the reading subcommands can be
 * built and tested before the real main.c (cli-admin branch) is merged.
 * The lead deletes this file and src/cli/read_tmp.mk at merge.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "decode") == 0)
		return cmd_decode(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "tail") == 0)
		return cmd_tail(argc - 1, argv + 1);
	fputs("usage: ehsyslog decode|tail ...\n", stderr);
	return EXIT_USAGE;
}
