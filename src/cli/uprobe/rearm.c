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

/* A list of paths: the tracefs's instance directories (its top level
 * first), or the enable files of one event found enabled in them. */
struct paths {
	size_t n, cap;
	char (*path)[PATH_MAX];
};

/* The next free slot, or NULL when out of memory. */
static char *next(struct paths *p)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		void *grown = reallocarray(p->path, cap, sizeof *p->path);

		if (grown == NULL)
			return NULL;
		p->path = grown;
		p->cap = cap;
	}
	return p->path[p->n];
}

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

/* Adds the path a b, unless it is too long (such a
 * directory or file cannot be opened either).  0 or -ENOMEM. */
static int add(struct paths *p, const char *a, const char *b)
{
	char *slot = next(p);

	if (slot == NULL)
		return -ENOMEM;
	if ((size_t)snprintf(slot, PATH_MAX, "%s%s", a, b) < PATH_MAX)
		p->n++;
	return 0;
}

static int list_dirs(struct paths *dirs, const char *tracing)
{
	char dir[PATH_MAX], name[NAME_MAX + 2];
	struct dirent *d;
	DIR *instances;
	int rc = add(dirs, tracing, "");

	snprintf(dir, sizeof dir, "%s/instances", tracing);
	if (rc < 0 || (instances = opendir(dir)) == NULL)
		return rc;	/* none: the top level only */
	while (rc == 0 && (d = readdir(instances)) != NULL)
		if (d->d_name[0] != '.') {
			snprintf(name, sizeof name, "/%s", d->d_name);
			rc = add(dirs, dir, name);
		}
	closedir(instances);
	return rc;
}

/* Writes on to the first n enable files; the first failure's -errno. */
static int write_each(const struct paths *e, size_t n, char on)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		int w = write_enable(e->path[i], on);

		if (w < 0 && rc == 0) {
			rc = w;
			if (on == '0') {
				write_each(e, i, '1');	/* undo: leave it as it was */
				break;
			}
		}
	}
	return rc;
}

/* One event at a time, so that each is off for its own turn only. */
static int rearm_one(const struct paths *dirs, struct paths *on, const char *group,
		     const char *event)
{
	char file[PATH_MAX];
	int rc = 0;

	on->n = 0;
	for (size_t i = 0; i < dirs->n && rc == 0; i++) {
		if ((size_t)snprintf(file, sizeof file, "%s/events/%s/%s/enable", dirs->path[i],
				     group, event) >= sizeof file || !enabled_at(file))
			continue;
		rc = add(on, file, "");
	}
	if (rc == 0 && (rc = write_each(on, on->n, '0')) == 0)
		rc = write_each(on, on->n, '1');
	return rc;
}

int uprobe_rearm(const char *tracing, const char *group, const char *const *events, size_t n)
{
	struct paths dirs = { 0 }, on = { 0 };
	int rc = list_dirs(&dirs, tracing);

	for (size_t i = 0; i < n && rc == 0; i++)
		rc = rearm_one(&dirs, &on, group, events[i]);
	free(dirs.path);
	free(on.path);
	return rc;
}
