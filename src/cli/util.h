/* SPDX-License-Identifier: MIT */
/*
 * What every ehsyslog subcommand shares: exit codes, the error message
 * format "ehsyslog <cmd>: <message>", usage errors.
 */
#ifndef CLI_UTIL_H
#define CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of every subcommand (documented in ehsyslog(1)). */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_RUNTIME = 1,		/* the command could not do its job */
	CLI_EXIT_USAGE = 2,		/* bad arguments */
	CLI_EXIT_NO_USER_EVENTS = 3,	/* this kernel has no user_events */
	CLI_EXIT_PERMISSION = 4,	/* permission denied */
};

/* "ehsyslog <cmd>: <message>\n" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "Try 'ehsyslog <cmd> --help'." on stderr, after a usage error's message. */
void cli_usage_hint(const char *cmd);

/* Prints the error and a hint to --help; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* CLI_EXIT_PERMISSION for EACCES/EPERM, else CLI_EXIT_RUNTIME. */
int cli_exit_for_errno(int err);

/* Prints usage text on stdout; returns CLI_EXIT_OK (for --help). */
int cli_print_help(const char *text);

/* A decimal number 0..max, the whole of s; false otherwise. */
bool cli_parse_ulong(const char *s, unsigned long max, unsigned long *v);

/* CLOCK_MONOTONIC, and CLOCK_REALTIME (since the Epoch), in nanoseconds. */
int64_t cli_mono_ns(void);
uint64_t cli_wall_ns(void);

/* Writes all len bytes, retrying short writes; -1 with errno set. */
int cli_write_all(int fd, const char *p, size_t len);

#endif /* CLI_UTIL_H */
