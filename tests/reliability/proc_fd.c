/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE 1
#include "reliability/proc_fd.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int proc_fd_find(const char *const needles[])
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char link[300], target[256];
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
