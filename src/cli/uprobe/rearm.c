/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/uprobe/rearm.h"
#include "cli/util.h"

/* More readers than run at once on one machine; past it the others
 * keep the event enabled, and the added probe stays unarmed. */
#define PAUSED_MAX 64

struct uprobe_paused {
	size_t n;
	char enable[PAUSED_MAX][PATH_MAX];	/* .../events/GROUP/EVENT/enable */
};

/* True if the enable file at path reads "1" ("1*" and "X" are a whole
 * system's mixed states, not one event's). */
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

static int write_enable(const char *path, char on)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;	/* that reader ended */
	if (cli_write_all(fd, &on, 1) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* Notes dir's events/GROUP/EVENT/enable when the event is enabled there. */
static void note(struct uprobe_paused *p, const char *dir, const char *group, const char *event)
{
	if (p->n < PAUSED_MAX &&
	    (size_t)snprintf(p->enable[p->n], PATH_MAX, "%s/events/%s/%s/enable", dir, group,
			     event) < PATH_MAX &&
	    enabled_at(p->enable[p->n]))
		p->n++;
}

int uprobe_pause(const char *tracing, const char *group, const char *event,
		 struct uprobe_paused **paused)
{
	struct uprobe_paused *p = calloc(1, sizeof *p);
	char dir[PATH_MAX];
	struct dirent *d;
	DIR *instances;

	*paused = NULL;
	if (p == NULL)
		return -ENOMEM;
	note(p, tracing, group, event);
	snprintf(dir, sizeof dir, "%s/instances", tracing);
	if ((instances = opendir(dir)) != NULL) {
		while ((d = readdir(instances)) != NULL)
			if (d->d_name[0] != '.' &&
			    (size_t)snprintf(dir, sizeof dir, "%s/instances/%s", tracing, d->d_name) <
				    sizeof dir)
				note(p, dir, group, event);
		closedir(instances);
	}
	for (size_t i = 0; i < p->n; i++) {
		int rc = write_enable(p->enable[i], '0');
		if (rc < 0) {
			p->n = i;
			uprobe_resume(p);
			return rc;
		}
	}
	*paused = p;
	return 0;
}

int uprobe_resume(struct uprobe_paused *p)
{
	int rc = 0;

	for (size_t i = 0; p != NULL && i < p->n; i++) {
		int e = write_enable(p->enable[i], '1');
		if (e < 0 && rc == 0)
			rc = e;
	}
	free(p);
	return rc;
}
