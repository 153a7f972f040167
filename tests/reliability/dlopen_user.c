/* SPDX-License-Identifier: MIT */
/*
 * dlopen_user LIBRARY ENABLE_FILE: loads the library, logs once through
 * it (registering its tracepoint), unloads it, then maps zeroed pages
 * where the library was and makes the kernel rewrite every enable word of
 * the event (ENABLE_FILE: 0, then 1).  A registration left behind would
 * make the kernel set a bit in those pages.
 * Exit: 0 unloaded and untouched, 1 a page was written, 2 the library
 * stayed mapped, 3 setup failed.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>

#include "lib/kernel_files.h"

#define RANGES 32

struct range {
	unsigned long lo, hi;
};

/* The mappings of path, from /proc/self/maps. */
static int mappings(const char *path, struct range *r)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4352], file[4096];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f) && n < RANGES) {
		file[0] = '\0';
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %4095s", &r[n].lo, &r[n].hi, file) >= 2 &&
		    strcmp(file, path) == 0)
			n++;
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	struct range r[RANGES];
	char path[4096];
	void (*log)(int, const char *, ...);
	void *h, *sym;
	int n;

	if (argc != 3 || !realpath(argv[1], path))
		return 3;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return 3;
	sym = dlsym(h, "syslog");
	if (!sym)
		return 3;
	memcpy(&log, &sym, sizeof log);
	log(LOG_LOCAL6 | LOG_INFO, "through dlopen");
	n = mappings(path, r);
	if (n <= 0)
		return 3;
	dlclose(h);
	if (mappings(path, r + n) != 0)
		return 2;
	for (int i = 0; i < n; i++) {
		void *p = mmap((void *)r[i].lo, r[i].hi - r[i].lo, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p != (void *)r[i].lo)
			return 3;
	}
	if (kf_write(argv[2], "0") < 0 || kf_write(argv[2], "1") < 0)
		return 3;
	usleep(100000);
	for (int i = 0; i < n; i++)
		for (unsigned long a = r[i].lo; a < r[i].hi; a++)
			if (*(volatile unsigned char *)a)
				return 1;
	return 0;
}
