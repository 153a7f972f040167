/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/tracing_dir.h"

#include <errno.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool set(char *buf, size_t cap, const char *dir, const char *suffix)
{
	return (size_t)snprintf(buf, cap, "%s%s", dir, suffix) < cap;
}

/* Something is at path, even if this user may not look at it. */
static bool present(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 || errno != ENOENT;
}

static bool first_mount(char *buf, size_t cap, const char *type, const char *suffix)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	bool found = false;

	if (!f)
		return false;
	while (!found && (m = getmntent(f)) != NULL)
		if (strcmp(m->mnt_type, type) == 0)
			found = set(buf, cap, m->mnt_dir, suffix);
	endmntent(f);
	return found;
}

bool cli_tracing_dir(char *buf, size_t cap)
{
	const char *env = getenv("EHSYSLOG_TRACEFS");

	if (env && *env)
		return set(buf, cap, env, "");
	if (present("/sys/kernel/tracing/user_events_data"))
		return set(buf, cap, "/sys/kernel/tracing", "");
	if (first_mount(buf, cap, "tracefs", ""))
		return true;
	return first_mount(buf, cap, "debugfs", "/tracing") && present(buf);
}
