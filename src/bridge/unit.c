/* SPDX-License-Identifier: MIT */
/* The process's systemd service (unit.h). */
#include "config.h"

#include "bridge/unit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/le.h"
#include "common/syscall.h"

struct ehs_unit ehs_unit;

/* Room for /proc/self/cgroup: a line per v1 hierarchy, then v2's. */
#define CGROUP_READ_MAX (2 * 4096)

static const char SERVICE[] = ".service";

/* A unit name's characters (systemd's unit_name_is_valid: letters,
 * digits and ":-_.\\", "@" for an instance). */
static bool unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == ':' || c == '-' || c == '_' || c == '.' || c == '\\' || c == '@';
}

/* Whether p[0..len) is a service's name. */
static bool is_service(const char *p, size_t len)
{
	size_t suffix = sizeof SERVICE - 1;
	if (len <= suffix || len > EHS_UNIT_MAX || memcmp(p + len - suffix, SERVICE, suffix))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!unit_char(p[i]))
			return false;
	return true;
}

/* The last service among the components of path[0..len). */
static size_t service_of_path(const char *path, size_t len, const char **name)
{
	size_t found = 0;
	for (size_t i = 0; i < len;) {
		const char *slash = memchr(path + i, '/', len - i);
		size_t n = slash ? (size_t)(slash - (path + i)) : len - i;
		if (is_service(path + i, n)) {
			*name = path + i;
			found = n;
		}
		i += n + 1;
	}
	return found;
}

size_t ehs_unit_of_cgroup(const char *buf, size_t len, const char **name)
{
	size_t v1 = 0, v2 = 0;
	const char *v1_name = NULL, *v2_name = NULL;
	for (size_t at = 0; at < len;) {
		const char *line = buf + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;
		at += n + 1;
		/* ID:CONTROLLERS:PATH; the path may hold ':' itself. */
		const char *c1 = memchr(line, ':', n);
		const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line)) : NULL;
		if (!c2)
			continue;
		const char *path = c2 + 1;
		size_t path_len = n - (size_t)(path - line), ctl_len = (size_t)(c2 - c1 - 1);
		if (c1 - line == 1 && line[0] == '0' && ctl_len == 0)
			v2 = service_of_path(path, path_len, &v2_name);
		else if (ctl_len == 12 && !memcmp(c1 + 1, "name=systemd", 12))
			v1 = service_of_path(path, path_len, &v1_name);
	}
	*name = v2 ? v2_name : v1_name;
	return v2 ? v2 : v1;
}

void ehs_unit_read(void)
{
	ehs_unit.field_len = 0;
	int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	/* Pages of their own, not the stack: the first logging call may be
	 * a signal handler's on a small one. */
	char *m = mmap(NULL, CGROUP_READ_MAX, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (m != MAP_FAILED) {
		size_t got = 0;
		ssize_t n;
		while (got < CGROUP_READ_MAX &&
		       ((n = read(fd, m + got, CGROUP_READ_MAX - got)) > 0 ||
			(n < 0 && errno == EINTR)))
			if (n > 0)
				got += (size_t)n;
		const char *name;
		size_t len = ehs_unit_of_cgroup(m, got, &name);
		if (len) {
			put_le16(ehs_unit.field, (uint16_t)len);
			memcpy(ehs_unit.field + 2, name, len);
			ehs_unit.field_len = 2 + len;
		}
		munmap(m, CGROUP_READ_MAX);
	}
	ehs_syscall(SYS_close, fd);	/* not close(): in the library, preload/fd.c's wrapper */
}
