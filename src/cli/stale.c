/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/stale.h"
#include "cli/paths.h"
#include "cli/uprobe/owned.h"
#include "cli/reader_alive.h"
#include "cli/util.h"

#include <ehsyslog/user_events.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int stale_own_name(char *buf, size_t len)
{
	struct reader_id self;
	int rc = reader_self(&self);

	if (rc < 0)
		return rc;
	if (len < sizeof STALE_PREFIX)
		return -ENAMETOOLONG;
	memcpy(buf, STALE_PREFIX, sizeof STALE_PREFIX - 1);
	return reader_format(&self, buf + sizeof STALE_PREFIX - 1, len - (sizeof STALE_PREFIX - 1));
}

/* Whether name, under dirfd, is one of our instances whose reader is
 * gone (reader_alive.h). */
static bool is_stale(int dirfd, const char *name)
{
	struct reader_id id;

	return strncmp(name, STALE_PREFIX, sizeof STALE_PREFIX - 1) == 0 &&
	       reader_parse(name + sizeof STALE_PREFIX - 1, &id, true) &&
	       reader_gone(&id, dirfd, name);
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
	struct reader_id self;
	char path[PATH_MAX];
	struct dirent *d;
	int found = 0, rc;
	DIR *dir;

	/* Without /proc every pid would look gone. */
	rc = reader_self(&self);
	if (rc < 0)
		return rc;
	if ((size_t)snprintf(path, sizeof path, "%s/instances", tracing) >= sizeof path)
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (dir == NULL)
		return errno == ENOENT ? 0 : -errno;
	for (errno = 0; (d = readdir(dir)) != NULL; errno = 0) {
		int err = 0;

		if (!is_stale(dirfd(dir), d->d_name))
			continue;
		if (remove) {
			err = remove_instance(dirfd(dir), d->d_name);
			/* Another cleanup was faster: tracefs answers ENODEV
			 * for an instance removed since readdir saw it. */
			if (err == ENOENT || err == ENODEV)
				continue;
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
