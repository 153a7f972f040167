/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/tail/follow.h"
#include "cli/uprobe/copies.h"

int follow_start(struct follow *f, const char *path, const char *tracing, const char *group,
		 unsigned levels, bool copies)
{
	struct stat st;

	memset(f, 0, sizeof *f);
	snprintf(f->path, sizeof f->path, "%s", path);
	f->tracing = tracing;
	f->group = group;
	f->levels = levels;
	if (stat(path, &st) == 0) {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
	}
	if (copies && (f->copies = copies_new()) == NULL)
		return -1;
	return 0;
}

/* Adds u's probes to our events: the bits of those it had to define. */
static unsigned add_probes(const struct follow *f, struct ehs_uprobes *u, char *err, size_t errlen,
			   int *rc)
{
	unsigned created = 0, added;

	*rc = ehs_uprobes_define(f->tracing, u, f->levels, &created, &added, err, errlen);
	return *rc == 0 ? created : 0;
}

/* The path's file, when another one is there now (an upgrade). */
static unsigned follow_path(struct follow *f)
{
	struct ehs_uprobes *u;
	unsigned created = 0;
	char err[1024];
	struct stat st;
	int rc = -1;

	if (stat(f->path, &st) < 0 || (st.st_dev == f->dev && st.st_ino == f->ino))
		return 0;	/* unchanged, or missing for now: looked at again next pass */
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	u = malloc(sizeof *u);
	if (u == NULL)
		snprintf(err, sizeof err, "out of memory");
	else if (ehs_uprobes_for_group(f->path, f->group, u, err, sizeof err) == 0)
		created = add_probes(f, u, err, sizeof err, &rc);
	if (rc != 0)
		fprintf(stderr, "ehsyslog: warning: %s was replaced, and the programs that load it "
			"now cannot be followed: %s\n", f->path, err);
	free(u);
	return created;
}

struct search {
	struct follow *f;
	unsigned created;
};

/* A file a running process maps: added if it is a library of ours. */
static void found(const char *path, pid_t pid, void *ctx)
{
	struct search *s = ctx;
	struct ehs_uprobes *u = malloc(sizeof *u);
	char err[1024];
	int rc = -1;

	if (u == NULL)
		snprintf(err, sizeof err, "out of memory");
	else if ((rc = ehs_uprobes_for_mapping(path, s->f->group, u, err, sizeof err)) == 0)
		s->created |= add_probes(s->f, u, err, sizeof err, &rc);
	if (rc < 0)
		fprintf(stderr, "ehsyslog: note: the copy of the library that pid %ld maps (%s) "
			"cannot be followed: %s\n", (long)pid, path, err);
	free(u);
}

static bool due(struct timespec *next)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < next->tv_sec || (now.tv_sec == next->tv_sec && now.tv_nsec < next->tv_nsec))
		return false;
	*next = now;
	next->tv_sec++;
	return true;
}

unsigned follow_pass(struct follow *f)
{
	struct search s = { .f = f };

	s.created = follow_path(f);
	if (f->copies != NULL && due(&f->next_search))
		copies_scan(f->copies, "/proc", found, &s);
	return s.created;
}

void follow_end(struct follow *f)
{
	copies_free(f->copies);
	f->copies = NULL;
}
