/* SPDX-License-Identifier: MIT */
/*
 * dlopen_dup2 LIBRARY FILE: loads the library with dlopen(), where its
 * close()/dup2() wrappers are not the program's, logs once, dup2()s FILE
 * over the library's descriptor, writes 5 bytes of its own there and logs
 * 5 times more.
 * Exit: 0 FILE holds only its 5 bytes, 1 a byte of the library's reached
 * it, 3 setup failed.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "lib/kernel_files.h"

int main(int argc, char **argv)
{
	void (*log)(int, const char *, ...);
	struct stat st;
	void *h, *sym;
	int ours, mine;

	if (argc != 3 || !(h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) ||
	    !(sym = dlsym(h, "syslog")))
		return 3;
	memcpy(&log, &sym, sizeof sym);
	log(LOG_LOCAL6 | LOG_INFO, "before dup2");
	ours = user_events_fd();
	mine = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (ours < 0 || mine < 0 || dup2(mine, ours) != ours || write(ours, "mine\n", 5) != 5)
		return 3;
	for (int i = 0; i < 5; i++)
		log(LOG_LOCAL6 | LOG_INFO, "after dup2 %d", i);
	if (fstat(mine, &st) < 0)
		return 3;
	return st.st_size == 5 ? 0 : 1;
}
