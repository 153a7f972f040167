/* SPDX-License-Identifier: MIT */
/*
 * Where the tool finds things.  Each has a compiled-in default and an
 * environment variable that overrides it (the tests use them).
 */
#ifndef CLI_PATHS_H
#define CLI_PATHS_H

/* The library "run" preloads and "preload enable" installs:
 * $EHSYSLOG_LIBRARY, else $(libdir)/libehsyslog.so.0. */
const char *cli_library_path(void);

/* The system-wide preload list: $EHSYSLOG_LD_SO_PRELOAD (for testing),
 * else /etc/ld.so.preload. */
const char *cli_ld_so_preload_path(void);

/* The configuration file the library reads: $EHSYSLOG_CONFIG, else
 * $(sysconfdir)/ehsyslog.conf. */
const char *cli_config_path(void);

/* Where "preload --unit" writes NAME.service.d/ehsyslog.conf:
 * $EHSYSLOG_SYSTEMD_DIR (for testing), else /etc/systemd/system. */
const char *cli_systemd_dir(void);

/* The systemctl that tells a unit's environment: $EHSYSLOG_SYSTEMCTL
 * (for testing), else systemctl from PATH. */
const char *cli_systemctl_path(void);

/* Where a running "ehsyslog export" publishes its counters for
 * "ehsyslog status": $EHSYSLOG_RUNTIME_DIR (for testing), else
 * /run/ehsyslog. */
const char *cli_runtime_dir(void);

#endif /* CLI_PATHS_H */
