/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/export/process_name.h"

#define SLOTS 64
#define KEEP_NS (5 * 1000000000LL)

static struct slot {
	uint32_t pid;
	int64_t read_ns;
	bool known;
	char name[16 + 1];	/* TASK_COMM_LEN, and a NUL */
} slots[SLOTS];

static bool read_comm(uint32_t pid, char *name, size_t cap)
{
	char path[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%u/comm", (unsigned)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, name, cap - 1);
	close(fd);
	if (n <= 0)
		return false;
	if (name[n - 1] == '\n')
		n--;
	name[n] = '\0';
	return n > 0;
}

const char *process_name(uint32_t pid, int64_t now_ns)
{
	struct slot *s = &slots[pid % SLOTS];

	if (s->read_ns == 0 || s->pid != pid || now_ns - s->read_ns > KEEP_NS) {
		s->pid = pid;
		s->read_ns = now_ns ? now_ns : 1;
		s->known = read_comm(pid, s->name, sizeof s->name);
	}
	return s->known ? s->name : NULL;
}
