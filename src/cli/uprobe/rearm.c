/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/uprobe/enabled.h"
#include "cli/uprobe/rearm.h"
#include "cli/util.h"

/* The enable files of one event found enabled. */
struct enables {
	size_t n, cap;
	char (*path)[PATH_MAX];
};

static int note(const char *enable, const char *instance, void *ctx)
{
	struct enables *e = ctx;

	(void)instance;
	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 8;
		void *grown = reallocarray(e->path, cap, sizeof *e->path);

		if (grown == NULL)
			return -ENOMEM;
		e->path = grown;
		e->cap = cap;
	}
	snprintf(e->path[e->n++], PATH_MAX, "%s", enable);
	return 0;
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

/* Disables the event at each of e's files, then enables it there again;
 * a failure to disable enables again those disabled, and stops. */
static int off_and_on(const struct enables *e)
{
	size_t off = 0;
	int rc = 0;

	while (off < e->n && (rc = write_enable(e->path[off], '0')) == 0)
		off++;
	for (size_t i = 0; i < off; i++) {
		int w = write_enable(e->path[i], '1');

		if (w < 0 && rc == 0)
			rc = w;
	}
	return rc;
}

int uprobe_rearm(const char *tracing, const char *group, const char *const *events, size_t n)
{
	struct enables e = { 0 };
	int rc = 0;

	/* One event at a time, so that each is off for its own turn only. */
	for (size_t i = 0; i < n && rc == 0; i++) {
		e.n = 0;
		rc = uprobe_each_enabled(tracing, group, events[i], note, &e);
		if (rc == 0)
			rc = off_and_on(&e);
	}
	free(e.path);
	return rc;
}
