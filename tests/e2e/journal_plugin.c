/* SPDX-License-Identifier: MIT */
/* A plugin linked with libsystemd, for journal_dlopen.c: its journal call
 * binds to whatever the process's global scope offers first. */
#include <syslog.h>

#include <systemd/sd-journal.h>

int plugin_log(void);

int plugin_log(void)
{
	return sd_journal_print(LOG_INFO, "from the plugin");
}
