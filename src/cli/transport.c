/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/transport.h"
#include "cli/util.h"
#include "cli/uprobe/uprobe_events.h"

#include <ehsyslog/user_events.h>

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

enum cli_transport cli_transport(char *tracing, size_t cap)
{
	char data[PATH_MAX + 32];

	if (ue_tracefs_dir(tracing, cap) != 0) {
		if (cap > 0)
			tracing[0] = '\0';
		return CLI_TRANSPORT_NONE;
	}
	snprintf(data, sizeof data, "%s/user_events_data", tracing);
	if (access(data, F_OK) == 0)
		return CLI_TRANSPORT_USER_EVENTS;
	/* Behind tracefs's 0700 a missing file and a hidden one look alike. */
	if (errno == EACCES)
		return CLI_TRANSPORT_HIDDEN;
	return uprobe_events_available(tracing) ? CLI_TRANSPORT_UPROBES : CLI_TRANSPORT_NONE;
}

int cli_uprobe_tracing(char *tracing, size_t cap, char *err, size_t errlen)
{
	if (ue_tracefs_dir(tracing, cap) != 0) {
		snprintf(err, errlen, "no tracefs mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		return CLI_EXIT_NO_USER_EVENTS;
	}
	if (!uprobe_events_available(tracing)) {
		/* Behind tracefs's 0700 a missing file and a hidden one look
		 * alike: only a missing one is the kernel's lack. */
		if (errno == EACCES || errno == EPERM) {
			snprintf(err, errlen, "%s/uprobe_events: %s (defining uprobe events needs "
				 "root)", tracing, strerror(errno));
			return CLI_EXIT_PERMISSION;
		}
		snprintf(err, errlen, "this kernel has no uprobe events (no %s/uprobe_events: "
			 "CONFIG_UPROBE_EVENTS)", tracing);
		return CLI_EXIT_NO_USER_EVENTS;
	}
	return 0;
}

void cli_uprobes_hint(const char *cmd, int rc, const char *what)
{
	char tracing[PATH_MAX];

	if (rc == CLI_EXIT_NO_USER_EVENTS &&
	    cli_transport(tracing, sizeof tracing) == CLI_TRANSPORT_UPROBES)
		cli_error(cmd, "this kernel has uprobe events: %s", what);
}
