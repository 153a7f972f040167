/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY, for building branch cli-admin alone: cmd_decode and cmd_tail
 * live in branch cli-read.  The lead deletes this file when merging it.
 */
#include "config.h"

#include "cli/commands.h"
#include "cli/util.h"

int cmd_decode(int argc, char **argv)
{
	(void)argc;
	cli_error(argv[0], "not built in this branch (see branch cli-read)");
	return CLI_EXIT_RUNTIME;
}

int cmd_tail(int argc, char **argv)
{
	(void)argc;
	cli_error(argv[0], "not built in this branch (see branch cli-read)");
	return CLI_EXIT_RUNTIME;
}
