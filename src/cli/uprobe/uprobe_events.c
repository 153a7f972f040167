/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/uprobe/uprobe_events.h"
#include "cli/util.h"

#define EVENTS_FILE "uprobe_events"

int uprobe_events_write(const char *tracing, const char *line)
{
	char path[PATH_MAX], *text;
	size_t len = strlen(line);
	int fd, rc = 0;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", tracing, EVENTS_FILE) >= sizeof path)
		return -ENAMETOOLONG;
	/* O_APPEND without O_TRUNC: only ever add a command. */
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	text = malloc(len + 2);
	if (text == NULL) {
		close(fd);
		return -ENOMEM;
	}
	memcpy(text, line, len);
	text[len] = '\n';
	text[len + 1] = '\0';
	/* One write: the kernel parses each write's lines as it gets them. */
	if (cli_write_all(fd, text, len + 1) < 0)
		rc = -errno;
	free(text);
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

int uprobe_events_remove(const char *tracing, const char *group, const char *event)
{
	char line[256];

	if ((size_t)snprintf(line, sizeof line, "-:%s/%s", group, event) >= sizeof line)
		return -ENAMETOOLONG;
	return uprobe_events_write(tracing, line);
}

#define LOCK_WAIT_MS 5000
#define LOCK_POLL_MS 10

int uprobe_events_lock(const char *tracing)
{
	const struct timespec poll = { 0, LOCK_POLL_MS * 1000000L };
	char path[PATH_MAX];
	int fd;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", tracing, EVENTS_FILE) >= sizeof path)
		return -1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	/* Polled rather than blocking: the wait stays bounded, and a
	 * signal meant for the reader is not held up. */
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; waited += LOCK_POLL_MS) {
		if (errno != EWOULDBLOCK || waited >= LOCK_WAIT_MS) {
			close(fd);
			return -1;
		}
		nanosleep(&poll, NULL);
	}
	return fd;
}

void uprobe_events_unlock(int fd)
{
	if (fd >= 0)
		close(fd);	/* releases the lock */
}

int uprobe_events_defined(const char *tracing, const char *group, const char *event)
{
	char path[PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(path, sizeof path, "%s/events/%s/%s", tracing, group, event) >=
	    sizeof path)
		return -ENAMETOOLONG;
	if (stat(path, &st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

bool uprobe_events_available(const char *tracing)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", tracing, EVENTS_FILE);
	return access(path, F_OK) == 0;
}

/* "p:GROUP/EVENT REST" (r: for a return probe) taken apart in place. */
static void each_line(char *line, uprobe_events_cb cb, void *ctx, int *n)
{
	char *slash, *space;

	if (line[0] == '\0' || line[1] != ':')
		return;
	slash = strchr(line + 2, '/');
	space = strchr(line + 2, ' ');
	if (slash == NULL || (space != NULL && space < slash))
		return;
	*slash = '\0';
	if (space != NULL)
		*space++ = '\0';
	cb(line + 2, slash + 1, space != NULL ? space : "", ctx);
	(*n)++;
}

int uprobe_events_each(const char *tracing, uprobe_events_cb cb, void *ctx)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int n = 0;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", tracing, EVENTS_FILE) >= sizeof path)
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (f == NULL)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		each_line(line, cb, ctx, &n);
	}
	free(line);
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		return -e;
	}
	fclose(f);
	return n;
}
