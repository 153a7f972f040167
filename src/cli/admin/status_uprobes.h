/* SPDX-License-Identifier: MIT */
/* ehsyslog status's lines on the transports: which one this kernel
 * offers (transport.h), and the library's uprobe events defined, where
 * each is enabled, and those readers now gone left. */
#ifndef CLI_STATUS_UPROBES_H
#define CLI_STATUS_UPROBES_H

#include "cli/transport.h"

/* Prints the "transport:" and "uprobes:" lines for the transport t that
 * cli_transport() found, in tracefs tracing. */
void status_uprobes(enum cli_transport t, const char *tracing);

#endif
