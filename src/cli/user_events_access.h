/* SPDX-License-Identifier: MIT */
#ifndef CLI_USER_EVENTS_ACCESS_H
#define CLI_USER_EVENTS_ACCESS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Explains why user_events could not be used: err is an errno from
 * opening path (the user_events_data file; NULL if tracefs was not
 * found) or from registering (persist: with UE_PERSIST).  Writes the
 * message into buf and returns CLI_EXIT_NO_USER_EVENTS,
 * CLI_EXIT_PERMISSION or CLI_EXIT_RUNTIME.
 */
int cli_user_events_explain(char *buf, size_t len, const char *path, int err, bool persist);

/* The same for a failed ue_tracepoint_register(): the path the writer
 * tried comes from ue_status(). */
int cli_user_events_explain_register(char *buf, size_t len, int err, bool persist);

/* cli_user_events_explain, printed as cmd's error. */
int cli_user_events_error(const char *cmd, const char *path, int err, bool persist);

#endif /* CLI_USER_EVENTS_ACCESS_H */
