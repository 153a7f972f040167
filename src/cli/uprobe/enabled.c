/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/uprobe/enabled.h"

static bool enabled_at(const char *path)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1';
}

/* cb's answer for dir's enable file when the event is enabled there. */
static int try_place(const char *dir, const char *instance, const char *group,
		     const char *event, uprobe_enabled_cb cb, void *ctx)
{
	char enable[PATH_MAX];

	if ((size_t)snprintf(enable, sizeof enable, "%s/events/%s/%s/enable", dir, group, event) >=
	    sizeof enable || !enabled_at(enable))
		return 0;
	return cb(enable, instance, ctx);
}

int uprobe_each_enabled(const char *tracing, const char *group, const char *event,
			uprobe_enabled_cb cb, void *ctx)
{
	char instances[PATH_MAX], dir[PATH_MAX];
	struct dirent *d;
	DIR *all;
	int rc = try_place(tracing, NULL, group, event, cb, ctx);

	snprintf(instances, sizeof instances, "%s/instances", tracing);
	if (rc != 0 || (all = opendir(instances)) == NULL)
		return rc;	/* no instances: the top level only */
	while (rc == 0 && (d = readdir(all)) != NULL)
		if (d->d_name[0] != '.' &&
		    (size_t)snprintf(dir, sizeof dir, "%s/%s", instances, d->d_name) < sizeof dir)
			rc = try_place(dir, d->d_name, group, event, cb, ctx);
	closedir(all);
	return rc;
}
