/* SPDX-License-Identifier: MIT */
/*
 * The ehsyslog subcommands.  Each takes the arguments after "ehsyslog"
 * (argv[0] is the subcommand's name) and returns the process exit code:
 * 0 ok, 1 runtime error, 2 usage error, 3 kernel without user_events,
 * 4 permission denied.
 *
 * This copy declares only the reading half (cli-read branch); the full
 * header comes from the dispatcher's branch.
 */
#ifndef EHSYSLOG_CLI_COMMANDS_H
#define EHSYSLOG_CLI_COMMANDS_H

enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_NO_USER_EVENTS = 3,
	EXIT_PERMISSION = 4,
};

int cmd_decode(int argc, char **argv);
int cmd_tail(int argc, char **argv);

#endif
