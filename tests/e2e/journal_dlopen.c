/* SPDX-License-Identifier: MIT */
/*
 * A program without libsystemd that logs with syslog first (the library
 * resolves the real functions then, libsystemd's absent), then dlopens a
 * plugin linked with libsystemd whose sd_journal_print the library
 * interposes: the call must still reach libsystemd.  Exit 0 when it
 * returned 0.
 *
 *   journal_dlopen PLUGIN.so
 */
#include <dlfcn.h>
#include <stdio.h>
#include <syslog.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	syslog(LOG_INFO, "before the plugin");
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "journal_dlopen: %s\n", dlerror());
		return 2;
	}
	int (*plugin_log)(void) = (int (*)(void))dlsym(h, "plugin_log");
	if (!plugin_log)
		return 2;
	int r = plugin_log();
	if (r != 0)
		fprintf(stderr, "journal_dlopen: sd_journal_print returned %d\n", r);
	return r != 0;
}
