/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/reader_alive.h"
#include "cli/read_file.h"
#include "cli/uprobe/ehs_uprobes.h"
#include "cli/uprobe/owned.h"
#include "cli/uprobe/uprobe_events.h"
#include "cli/util.h"

/* The line: "GROUP LEVELS\n". */
#define LINE_MAX_LEN (EHS_UPROBE_GROUP_MAX + 8)

/* Writes "GROUP LEVELS" to path whole under another name, locks it
 * (reader_alive.h) and renames it: a reader never sees half of it, nor
 * it unlocked while this runs.  The locked descriptor, or -errno. */
static int write_file(const char *path, const char *group, unsigned levels)
{
	char line[LINE_MAX_LEN], tmp[4096 + 8];
	int fd, rc = 0, len;

	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
		return -ENAMETOOLONG;
	len = snprintf(line, sizeof line, "%s %x\n", group, levels);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (cli_write_all(fd, line, (size_t)len) < 0)
		rc = -errno;
	if (rc == 0)
		rc = reader_hold(fd);
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0) {
		close(fd);
		unlink(tmp);
		return rc;
	}
	return fd;
}

int owned_claim(struct owned *o, const char *dir, const char *group, unsigned levels)
{
	struct reader_id self;
	char id[64];
	int rc;

	o->path[0] = '\0';
	rc = reader_self(&self);
	if (rc < 0)
		return rc;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (reader_format(&self, id, sizeof id) < 0 ||
	    (size_t)snprintf(o->path, sizeof o->path, "%s/%s%s", dir, OWNED_PREFIX, id) >=
		    sizeof o->path) {
		o->path[0] = '\0';
		return -ENAMETOOLONG;
	}
	rc = write_file(o->path, group, levels);
	if (rc < 0) {
		o->path[0] = '\0';
		return rc;
	}
	o->fd = rc;
	return 0;
}

void owned_update(struct owned *o, const char *group, unsigned levels)
{
	int fd;

	if (o->path[0] == '\0')
		return;
	/* Failing, the file keeps more levels than this holds: a later
	 * run finds those not defined and drops them. */
	if (levels != 0 && (fd = write_file(o->path, group, levels)) >= 0) {
		close(o->fd);	/* the lock of the file replaced */
		o->fd = fd;
		return;
	}
	if (levels == 0)
		unlink(o->path);
	close(o->fd);
	o->path[0] = '\0';
}

/* The group and levels a file holds: 0, or -1 for one not of ours. */
static int parse(const char *path, char *group, size_t cap, unsigned *levels)
{
	char *text, *space, *end;
	struct stat st;
	size_t len;
	int rc = -1;

	if (cli_read_file(path, 0, LINE_MAX_LEN, &text, &len, &st) < 0)
		return -1;
	space = memchr(text, ' ', len);
	if (space != NULL && (size_t)(space - text) < cap) {
		*space = '\0';
		*levels = (unsigned)strtoul(space + 1, &end, 16);
		if (*end == '\n' && ehs_uprobe_group(text)) {
			snprintf(group, cap, "%s", text);
			rc = 0;
		}
	}
	free(text);
	return rc;
}

/* Removes the file's events that are defined; the file too when none
 * is left.  Returns the levels left. */
static unsigned release_file(const char *path, const char *tracing, ehs_uprobes_cb cb, void *ctx)
{
	char group[EHS_UPROBE_GROUP_MAX];
	unsigned levels, left;

	if (parse(path, group, sizeof group, &levels) < 0)
		return 0;
	left = levels & ~ehs_uprobes_remove(tracing, group, levels, cb, ctx);
	/* Removed by another meanwhile (-ENOENT) counts as gone. */
	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++) {
		const char *event = ehs_uprobe_event_name(level);
		if ((left >> level & 1) && uprobe_events_defined(tracing, group, event) == 0)
			left &= ~(1u << level);
	}
	if (left == 0)
		unlink(path);
	return left;
}

/* "uprobes-PID-START-NS" (or an older "uprobes-PID-START") taken
 * apart; false for another name. */
static bool owner_of(const char *name, struct reader_id *id)
{
	return strncmp(name, OWNED_PREFIX, sizeof OWNED_PREFIX - 1) == 0 &&
	       reader_parse(name + sizeof OWNED_PREFIX - 1, id, false);
}

int owned_stale(const char *dir, const char *tracing, bool remove, ehs_uprobes_cb cb, void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (d == NULL)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		struct reader_id id;
		char path[4096];

		if (!owner_of(e->d_name, &id) || !reader_gone(&id, dirfd(d), e->d_name))
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
			continue;
		found++;
		if (remove)
			release_file(path, tracing, cb, ctx);
	}
	closedir(d);
	return found;
}

unsigned owned_running(const char *dir, const char *group, long *pid)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned owned = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[4096], g[EHS_UPROBE_GROUP_MAX];
		struct reader_id id;
		unsigned levels;

		if (!owner_of(e->d_name, &id) || reader_gone(&id, dirfd(d), e->d_name) ||
		    (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
		    parse(path, g, sizeof g, &levels) < 0 || strcmp(g, group) != 0)
			continue;
		owned |= levels;
		*pid = id.pid;
	}
	closedir(d);
	return owned;
}
