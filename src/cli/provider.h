/* SPDX-License-Identifier: MIT */
#ifndef CLI_PROVIDER_H
#define CLI_PROVIDER_H

/* The provider events carry unless configured (docs/DESIGN.md). */
#define CLI_DEFAULT_PROVIDER "Syslog"

/* 0 if provider may name tracepoints; otherwise prints why not as cmd's
 * error and returns CLI_EXIT_USAGE. */
int cli_check_provider(const char *cmd, const char *provider);

#endif /* CLI_PROVIDER_H */
