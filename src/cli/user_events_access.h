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

/*
 * Whether this kernel was built with user_events, told without tracefs,
 * for a user who may not look into it: 1 yes, 0 no, -1 cannot tell (no
 * readable kernel configuration).  evidence gets where that comes from.
 */
int cli_kernel_has_user_events(char *evidence, size_t len);

/* The same for any option of the running kernel's configuration
 * ("CONFIG_UPROBE_EVENTS"): 1 set (y or m), 0 not, -1 cannot tell. */
int cli_kernel_config(const char *option, char *evidence, size_t len);

/* Whether this process may write events now, as the library would. */
struct cli_user_events_probe {
	int rc;			/* 0 yes; else the exit code: 3, 4 or 1 */
	bool tracefs;		/* a tracefs was found */
	char data[4096 + 32];	/* its user_events_data */
	int err;		/* errno of opening data for writing */
	/* tracefs could not be searched by this user, so the kernel's
	 * configuration was asked: kernel is cli_kernel_has_user_events(),
	 * evidence its answer's source. */
	bool hidden;
	int kernel;
	char evidence[4096 + 64];
	char why[8192 + 256];	/* rc != 0: the reason, as an error message says it */
};
void cli_user_events_probe(struct cli_user_events_probe *p);

/*
 * For the commands that arrange logging (run, preload enable): a warning
 * on stderr, naming the reason, when this process could not write an
 * event here; what is said of the programs follows it ("then" clause).
 * On a kernel with uprobe events but no user_events, one line saying
 * where the events go instead.  Returns true if it said anything.
 */
bool cli_user_events_warn(const char *cmd, const char *then);

#endif /* CLI_USER_EVENTS_ACCESS_H */
