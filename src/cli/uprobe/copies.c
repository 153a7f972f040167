/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cli/uprobe/copies.h"

/* A file as maps names it: device (major << 32 | minor) and inode. */
struct file_id {
	uint64_t dev, ino;
};

/* The files seen: an open-addressing set, at most half full. */
struct copies {
	struct file_id *slot;	/* ino 0: free (maps shows no file with it) */
	size_t cap, count;
};

static size_t slot_of(const struct copies *c, struct file_id id)
{
	uint64_t h = (id.dev * 0x9e3779b97f4a7c15ull) ^ (id.ino * 0xc2b2ae3d27d4eb4full);
	size_t i = (size_t)(h ^ h >> 29) & (c->cap - 1);

	while (c->slot[i].ino != 0 && (c->slot[i].ino != id.ino || c->slot[i].dev != id.dev))
		i = (i + 1) & (c->cap - 1);
	return i;
}

static bool grow(struct copies *c)
{
	struct copies bigger = { .cap = c->cap * 2, .count = c->count };

	bigger.slot = calloc(bigger.cap, sizeof *bigger.slot);
	if (bigger.slot == NULL)
		return false;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slot[i].ino != 0)
			bigger.slot[slot_of(&bigger, c->slot[i])] = c->slot[i];
	free(c->slot);
	*c = bigger;
	return true;
}

/* Adds id; true if it was not there before (and could be added). */
static bool add_new(struct copies *c, struct file_id id)
{
	size_t i = slot_of(c, id);

	if (c->slot[i].ino != 0)
		return false;
	if (2 * (c->count + 1) > c->cap) {
		if (!grow(c))
			return false;	/* handed on again next time */
		i = slot_of(c, id);
	}
	c->slot[i] = id;
	c->count++;
	return true;
}

struct copies *copies_new(void)
{
	struct copies *c = calloc(1, sizeof *c);

	if (c == NULL)
		return NULL;
	c->cap = 1024;
	c->slot = calloc(c->cap, sizeof *c->slot);
	if (c->slot == NULL) {
		free(c);
		return NULL;
	}
	return c;
}

void copies_free(struct copies *c)
{
	if (c != NULL)
		free(c->slot);
	free(c);
}

size_t copies_seen(const struct copies *c)
{
	return c->count;
}

/* One line of maps: "START-END PERMS OFFSET MAJ:MIN INODE   PATH".
 * True for an executable mapping of a file, with its parts. */
static bool parse_line(char *line, char **range, struct file_id *id, char **path)
{
	char *p = line, *end;
	unsigned long maj, min;

	*range = p;
	p = strchr(p, ' ');
	if (p == NULL || strlen(p) < 6 || p[3] != 'x')
		return false;
	*p = '\0';
	p = strchr(p + 1, ' ');		/* the offset */
	if (p == NULL || (p = strchr(p + 1, ' ')) == NULL)
		return false;
	maj = strtoul(p + 1, &end, 16);
	if (*end != ':')
		return false;
	min = strtoul(end + 1, &end, 16);
	id->ino = strtoull(end, &end, 10);
	while (*end == ' ')
		end++;
	if (id->ino == 0 || *end != '/')
		return false;
	id->dev = (uint64_t)maj << 32 | min;
	end[strcspn(end, "\n")] = '\0';
	*path = end;
	return true;
}

/* Where this process reaches the file mapped at range by pid (copies.h). */
static void reach(char *out, size_t cap, const char *proc, const char *pid, const char *range,
		  struct file_id id, const char *path)
{
	static const char deleted[] = " (deleted)";
	size_t len = strlen(path);
	struct stat st;

	/* Not a path with white space, which uprobe_events cannot take. */
	if ((len < sizeof deleted - 1 || strcmp(path + len - (sizeof deleted - 1), deleted) != 0) &&
	    strpbrk(path, " \t\n\v\f\r") == NULL &&
	    (size_t)snprintf(out, cap, "%s/%s/root%s", proc, pid, path) < cap &&
	    stat(out, &st) == 0 && st.st_ino == id.ino &&
	    ((uint64_t)major(st.st_dev) << 32 | minor(st.st_dev)) == id.dev)
		return;
	snprintf(out, cap, "%s/%s/map_files/%.64s", proc, pid, range);
}

/* The new files pid maps, each handed to found. */
static void scan_process(struct copies *c, const char *proc, const char *pid, copies_found *found,
			 void *ctx)
{
	char maps[64 + NAME_MAX], line[PATH_MAX + 128], where[PATH_MAX + 64];
	FILE *f;

	if ((size_t)snprintf(maps, sizeof maps, "%s/%s/maps", proc, pid) >= sizeof maps ||
	    (f = fopen(maps, "re")) == NULL)
		return;		/* gone meanwhile, or not ours to read */
	while (fgets(line, sizeof line, f) != NULL) {
		struct file_id id;
		char *range, *path;

		if (strchr(line, '\n') == NULL) {	/* longer than any path: skip it */
			int ch;
			while ((ch = getc(f)) != EOF && ch != '\n')
				;
			continue;
		}
		if (!parse_line(line, &range, &id, &path) || !add_new(c, id))
			continue;
		reach(where, sizeof where, proc, pid, range, id, path);
		found(where, (pid_t)strtol(pid, NULL, 10), ctx);
	}
	fclose(f);
}

int copies_scan(struct copies *c, const char *proc, copies_found *found, void *ctx)
{
	DIR *dir = opendir(proc);
	struct dirent *d;
	int n = 0;

	if (dir == NULL)
		return -errno;
	while ((d = readdir(dir)) != NULL) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		scan_process(c, proc, d->d_name, found, ctx);
		n++;
	}
	closedir(dir);
	return n;
}
