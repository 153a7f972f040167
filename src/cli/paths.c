/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/paths.h"

#include <stdlib.h>

#ifndef EHSYSLOG_LIBRARY_PATH
#error "local.mk defines EHSYSLOG_LIBRARY_PATH ($(libdir)/libehsyslog.so.0)"
#endif
#ifndef EHSYSLOG_CONFIG_PATH
#error "local.mk defines EHSYSLOG_CONFIG_PATH ($(sysconfdir)/ehsyslog.conf)"
#endif

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

const char *cli_library_path(void)
{
	return env_or("EHSYSLOG_LIBRARY", EHSYSLOG_LIBRARY_PATH);
}

const char *cli_ld_so_preload_path(void)
{
	return env_or("EHSYSLOG_LD_SO_PRELOAD", "/etc/ld.so.preload");
}

const char *cli_config_path(void)
{
	return env_or("EHSYSLOG_CONFIG", EHSYSLOG_CONFIG_PATH);
}

const char *cli_systemd_dir(void)
{
	return env_or("EHSYSLOG_SYSTEMD_DIR", "/etc/systemd/system");
}

const char *cli_systemctl_path(void)
{
	return env_or("EHSYSLOG_SYSTEMCTL", "systemctl");
}

const char *cli_runtime_dir(void)
{
	return env_or("EHSYSLOG_RUNTIME_DIR", "/run/ehsyslog");
}
