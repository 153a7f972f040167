/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/stale.h"
#include "cli/paths.h"
#include "cli/uprobe/owned.h"
#include "cli/process_alive.h"
#include "cli/read_file.h"
#include "cli/util.h"

#include <ehsyslog/user_events.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int stale_own_name(char *buf, size_t len)
{
	char pid[32], state;
	uintmax_t start;
	int rc;

	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	rc = process_stat(pid, &state, &start);
	if (rc < 0)
		return rc;
	if ((size_t)snprintf(buf, len, STALE_PREFIX "%s-%ju", pid, start) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Copies the decimal digits at *s (at most cap - 1 of them) into out and
 * moves *s past them; false if there are none or too many. */
static bool take_number(const char **s, char *out, size_t cap)
{
	size_t n = strspn(*s, "0123456789");

	if (n == 0 || n >= cap || (**s == '0' && n > 1))
		return false;
	memcpy(out, *s, n);
	out[n] = '\0';
	*s += n;
	return true;
}

/* Whether name is one of our instances whose tail is gone. */
static bool is_stale(const char *name)
{
	const char *s = name + strlen(STALE_PREFIX);
	char pid[24], want[24];
	uintmax_t start;
	long n;

	if (strncmp(name, STALE_PREFIX, strlen(STALE_PREFIX)) != 0 ||
	    !take_number(&s, pid, sizeof pid))
		return false;
	n = strtol(pid, NULL, 10);
	if (n <= 0 || n > INT_MAX)
		return false;	/* not a pid: not a name we make */
	if (*s == '\0')	/* old style, "ehsyslog-tail-<pid>": pid alone */
		want[0] = '\0';
	else if (*s != '-' || (s++, !take_number(&s, want, sizeof want)) || *s != '\0')
		return false;	/* not a name we make */
	if (want[0] == '\0')
		return process_gone(n, NULL);
	start = strtoumax(want, NULL, 10);
	return process_gone(n, &start);
}

/* Disables every event of the instance, then removes it.  Removing alone
 * also clears the events in current kernels; disabling first keeps
 * programs untraced even when the removal fails (EBUSY: a reader has one
 * of its files open). */
static int remove_instance(int dirfd, const char *name)
{
	char path[NAME_MAX + sizeof "/events/enable"];
	int fd;

	snprintf(path, sizeof path, "%s/events/enable", name);
	fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT)
		return errno;
	if (fd >= 0) {
		ssize_t n = write(fd, "0", 1);
		int err = errno;

		close(fd);
		if (n != 1)
			return err;
	}
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0)
		return errno;
	return 0;
}

/* Plain directory calls under the caller's tracing directory rather than
 * tracefs_instances(): status reads the one ue_tracefs_dir() found (or
 * $EHSYSLOG_TRACEFS), and must never mount tracefs, which libtracefs's
 * own lookup may do. */
int stale_instances(const char *tracing, bool remove, stale_cb cb, void *ctx)
{
	char path[PATH_MAX], state;
	struct dirent *d;
	uintmax_t start;
	int found = 0, rc;
	DIR *dir;

	/* Without /proc every pid would look gone. */
	rc = process_stat("self", &state, &start);
	if (rc < 0)
		return rc;
	if ((size_t)snprintf(path, sizeof path, "%s/instances", tracing) >= sizeof path)
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (dir == NULL)
		return errno == ENOENT ? 0 : -errno;
	for (errno = 0; (d = readdir(dir)) != NULL; errno = 0) {
		int err = 0;

		if (!is_stale(d->d_name))
			continue;
		if (remove) {
			err = remove_instance(dirfd(dir), d->d_name);
			if (err == ENOENT)
				continue;	/* another cleanup was faster */
		}
		found++;
		cb(d->d_name, err, ctx);
	}
	rc = errno;
	closedir(dir);
	return rc != 0 ? -rc : found;
}

static void report_removed(const char *name, int err, void *ctx)
{
	const char *cmd = ctx;

	if (err == 0)
		cli_error(cmd, "removed stale instance %s (its tail is gone)", name);
	else
		cli_error(cmd, "cannot remove stale instance %s: %s", name, strerror(err));
}

void stale_report_uprobe(const char *group, unsigned level, int rc, void *ctx)
{
	const char *cmd = ctx;

	/* Still enabled by a tracer (it stays, for a later run), or gone. */
	if (rc == -EBUSY || rc == -ENOENT)
		return;
	if (rc == 0)
		cli_error(cmd, "removed uprobe event %s/%s (the reader that defined it is gone)",
			  group, ehs_uprobe_event_name(level));
	else
		cli_error(cmd, "cannot remove uprobe event %s/%s: %s", group,
			  ehs_uprobe_event_name(level), strerror(-rc));
}

void stale_remove_reporting(const char *cmd)
{
	char tracing[PATH_MAX];

	/* No tracefs: nothing to remove, and the command says why it
	 * cannot work.  The instances first: theirs are enabled events. */
	if (ue_tracefs_dir(tracing, sizeof tracing) == 0) {
		stale_instances(tracing, true, report_removed, (void *)cmd);
		owned_stale(cli_runtime_dir(), tracing, true, stale_report_uprobe, (void *)cmd);
	}
}
