/* SPDX-License-Identifier: MIT */
/*
 * The ehsyslog subcommands.  Each takes the words after "ehsyslog":
 * argv[0] is the subcommand's name, argv[argc] is NULL.  Each answers
 * "--help" with its usage on stdout (cli/options.h), and returns an exit
 * code (cli/util.h).
 */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_register(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_preload(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_tail(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif /* CLI_COMMANDS_H */
