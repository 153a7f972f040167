/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE 1
#include "kernel_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int kf_skip_unless_usable(void)
{
	if (geteuid() == 0 && access(TRACING "/user_events_data", W_OK) == 0)
		return 0;
	printf("SKIP: needs root and %s/user_events_data\n", TRACING);
	return 77;
}

int proc_fd_find(const char *const needles[])
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char link[300], target[4096];
	int found = -1;

	if (!d)
		return -2;
	while ((e = readdir(d))) {
		snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(link, target, sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		for (size_t i = 0; needles[i]; i++) {
			int fd = atoi(e->d_name);

			if (strstr(target, needles[i]) && fd > found)
				found = fd;
		}
	}
	closedir(d);
	return found;
}

int user_events_fd(void)
{
	return proc_fd_find((const char *const[]){ "user_events_data", NULL });
}

char *kf_read(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

int kf_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(text);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, len) == (ssize_t)len;
	if (close(fd) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

int kf_status_lists(const char *name)
{
	FILE *f = fopen(TRACING "/user_events_status", "re");
	char line[512];
	size_t len = strlen(name);
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof line, f))
		found = strncmp(line, name, len) == 0 && (line[len] == ' ' || line[len] == '\n');
	fclose(f);
	return found;
}

int kf_enable(const char *event, int on)
{
	char path[256];

	if (event)
		snprintf(path, sizeof path, TRACING "/events/user_events/%s/enable", event);
	else
		snprintf(path, sizeof path, TRACING "/events/user_events/enable");
	return kf_write(path, on ? "1\n" : "0\n");
}
