/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/process_alive.h"
#include "cli/read_file.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int process_stat(const char *pid, char *state, uintmax_t *start)
{
	char path[64], *text, *p, *end;
	struct stat st;
	size_t len;
	int rc;

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	rc = cli_read_file(path, 0, 4096, &text, &len, &st);
	if (rc < 0)
		return rc == -ESRCH ? -ENOENT : rc;
	/* The command name (field 2) may hold spaces and parentheses: the
	 * fields after it start after the last ')'. */
	p = strrchr(text, ')');
	rc = -EINVAL;
	if (p != NULL && p[1] == ' ' && p[2] != '\0') {
		*state = p[2];
		p += 2;
		for (int field = 3; field < 22 && p != NULL; field++) {
			p = strchr(p, ' ');
			if (p != NULL)
				p++;
		}
		if (p != NULL && *p >= '0' && *p <= '9') {
			errno = 0;
			*start = strtoumax(p, &end, 10);
			if (errno == 0 && (*end == ' ' || *end == '\n' || *end == '\0'))
				rc = 0;
		}
	}
	free(text);
	return rc;
}

bool process_gone(long pid, const uintmax_t *start)
{
	char name[24], state;
	uintmax_t started;
	int rc;

	snprintf(name, sizeof name, "%ld", pid);
	rc = process_stat(name, &state, &started);
	if (rc == -ENOENT)	/* gone, unless /proc hides it (hidepid=) */
		return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
	if (rc < 0)
		return false;	/* cannot tell: alive */
	/* A zombie never cleans up; a different start time is another
	 * process that got the pid since. */
	if (state == 'Z' || state == 'X')
		return true;
	return start != NULL && *start != started;
}
