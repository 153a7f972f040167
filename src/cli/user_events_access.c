/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/user_events_access.h"
#include "cli/transport.h"
#include "cli/util.h"

#include <ehsyslog/user_events.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

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
		char evidence[PATH_MAX + 64];

		snprintf(dir, sizeof dir, "%s", path);
		dirname(dir);
		/* Behind a directory this user may not search, a missing file
		 * looks like a forbidden one: asking for permission on a
		 * kernel without user_events would send the user astray. */
		if (access(dir, X_OK) < 0 && cli_kernel_has_user_events(evidence, sizeof evidence) == 0) {
			char uprobes[PATH_MAX + 64];

			/* Then the events go to the library's probes, which
			 * this user cannot read either: a permission matter. */
			if (cli_kernel_config("CONFIG_UPROBE_EVENTS", uprobes, sizeof uprobes) == 1) {
				snprintf(buf, len, "this kernel has no user_events (%s) but uprobe "
					 "events (%s), which this user cannot read: %s: %s (reading "
					 "events needs root)", evidence, uprobes, dir, strerror(err));
				return CLI_EXIT_PERMISSION;
			}
			snprintf(buf, len, "this kernel has no user_events (%s; needs Linux 6.4 or "
				 "later built with CONFIG_USER_EVENTS)", evidence);
			return CLI_EXIT_NO_USER_EVENTS;
		}
		snprintf(buf, len, "cannot open %s for writing: %s (needs root or write permission "
			 "on it, plus search permission on %s)", path, strerror(err), dir);
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

/* option's line of a kernel configuration (gzip or plain: gzread reads
 * both): 1 "=y" or "=m", 0 absent or "is not set", -1 unreadable. */
static int config_says(const char *path, const char *option)
{
	size_t n = strlen(option);
	char line[512];
	int found = 0;
	gzFile f = gzopen(path, "rb");

	if (!f)
		return -1;
	while (gzgets(f, line, sizeof line)) {
		if (strncmp(line, option, n) == 0 && line[n] == '=') {
			found = line[n + 1] == 'y' || line[n + 1] == 'm';
			break;
		}
	}
	gzclose(f);
	return found;
}

int cli_kernel_config(const char *option, char *evidence, size_t len)
{
	struct utsname u;
	char boot[sizeof u.release + 16];
	const char *paths[2] = { "/proc/config.gz", boot };
	int says;

	if (uname(&u) < 0)
		return -1;
	snprintf(boot, sizeof boot, "/boot/config-%s", u.release);
	for (size_t i = 0; i < 2; i++) {
		if (access(paths[i], R_OK) < 0 || (says = config_says(paths[i], option)) < 0)
			continue;
		snprintf(evidence, len, "%s: %s %s", paths[i], option, says ? "is set" : "is not set");
		return says;
	}
	snprintf(evidence, len, "no readable kernel configuration: neither /proc/config.gz nor %s",
		 boot);
	return -1;
}

int cli_kernel_has_user_events(char *evidence, size_t len)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) < 0)
		return -1;
	/* user_events is usable from 6.4 on (before, CONFIG_BROKEN). */
	if (sscanf(u.release, "%u.%u", &major, &minor) == 2 && (major < 6 || (major == 6 && minor < 4))) {
		snprintf(evidence, len, "Linux %s is older than 6.4", u.release);
		return 0;
	}
	return cli_kernel_config("CONFIG_USER_EVENTS", evidence, len);
}

void cli_user_events_probe(struct cli_user_events_probe *p)
{
	char tracing[PATH_MAX];
	int fd;

	memset(p, 0, sizeof *p);
	p->tracefs = ue_tracefs_dir(tracing, sizeof tracing) == 0;
	if (!p->tracefs) {
		p->err = ENOENT;
		p->rc = cli_user_events_explain(p->why, sizeof p->why, NULL, ENOENT, false);
		return;
	}
	snprintf(p->data, sizeof p->data, "%s/user_events_data", tracing);
	fd = open(p->data, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return;
	}
	p->err = errno;
	p->hidden = (p->err == EACCES || p->err == EPERM) && access(tracing, X_OK) < 0;
	if (p->hidden)
		p->kernel = cli_kernel_has_user_events(p->evidence, sizeof p->evidence);
	p->rc = cli_user_events_explain(p->why, sizeof p->why, p->data, p->err, false);
}

bool cli_user_events_warn(const char *cmd, const char *then)
{
	struct cli_user_events_probe p;
	char tracing[PATH_MAX];

	cli_user_events_probe(&p);
	if (p.rc == 0)
		return false;
	/* Not a warning where uprobes take the events: just where they go.
	 * A user who cannot search tracefs learns that from the kernel's
	 * configuration (a permission matter then: only root reads them). */
	if ((p.rc == CLI_EXIT_NO_USER_EVENTS &&
	     cli_transport(tracing, sizeof tracing) == CLI_TRANSPORT_UPROBES) ||
	    (p.rc == CLI_EXIT_PERMISSION && p.hidden && p.kernel == 0)) {
		cli_error(cmd, "this kernel has no user_events: the library's events go to its "
			  "USDT probes, which 'ehsyslog tail' reads through uprobe events");
		return true;
	}
	cli_error(cmd, "warning: no event can be written here: %s; %s", p.why, then);
	return true;
}
