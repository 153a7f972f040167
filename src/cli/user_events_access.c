/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/user_events_access.h"
#include "cli/util.h"

#include <ehsyslog/user_events.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

int cli_user_events_explain(char *buf, size_t len, const char *path, int err, bool persist)
{
	char dir[PATH_MAX];

	if (!path) {
		snprintf(buf, len, "no tracefs found (not in /proc/mounts, nor at /sys/kernel/tracing): "
			 "this kernel has no tracing, or tracefs is not mounted "
			 "(mount -t tracefs tracefs /sys/kernel/tracing)");
		return CLI_EXIT_NO_USER_EVENTS;
	}
	if (err == ENOENT) {
		snprintf(buf, len, "%s does not exist: this kernel has no user_events "
			 "(needs Linux 6.4 or later built with CONFIG_USER_EVENTS)", path);
		return CLI_EXIT_NO_USER_EVENTS;
	}
	if (err == EPERM && persist) {
		snprintf(buf, len, "cannot register persistent tracepoints: %s (needs CAP_PERFMON)",
			 strerror(err));
		return CLI_EXIT_PERMISSION;
	}
	if (err == EACCES || err == EPERM) {
		snprintf(dir, sizeof dir, "%s", path);
		snprintf(buf, len, "cannot open %s for writing: %s (needs root or write permission "
			 "on it, plus search permission on %s)", path, strerror(err), dirname(dir));
		return CLI_EXIT_PERMISSION;
	}
	snprintf(buf, len, "cannot use %s: %s", path, strerror(err));
	return CLI_EXIT_RUNTIME;
}

int cli_user_events_explain_register(char *buf, size_t len, int err, bool persist)
{
	struct ue_status st;

	ue_status(&st);
	return cli_user_events_explain(buf, len,
				       st.state == UE_STATUS_NO_TRACEFS || !st.path[0] ? NULL : st.path,
				       err, persist);
}

int cli_user_events_error(const char *cmd, const char *path, int err, bool persist)
{
	char msg[PATH_MAX * 2 + 256];
	int rc = cli_user_events_explain(msg, sizeof msg, path, err, persist);

	cli_error(cmd, "%s", msg);
	return rc;
}
