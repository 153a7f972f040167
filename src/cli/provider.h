/* SPDX-License-Identifier: MIT */
#ifndef CLI_PROVIDER_H
#define CLI_PROVIDER_H

#include <ehsyslog/settings.h>

/* The provider events carry unless configured (docs/design.md). */
#define CLI_DEFAULT_PROVIDER "Syslog"
/* The library's provider rule in words, for --help texts. */
#define CLI_PROVIDER_RULE EHS_PROVIDER_RULE

/* 0 if the library accepts provider (EHSYSLOG_PROVIDER's rule, which
 * run, tail and register apply); otherwise prints why not as cmd's error,
 * naming the rule, and returns CLI_EXIT_USAGE. */
int cli_check_provider(const char *cmd, const char *provider);

/* The same for a provider recorded in a file: any name an EventHeader
 * tracepoint may carry, other producers' too (decode's filter). */
int cli_check_recorded_provider(const char *cmd, const char *provider);

#endif /* CLI_PROVIDER_H */
