/* SPDX-License-Identifier: MIT */
/* A reader for `trace-cmd record` files (trace.dat), through libtracecmd. */
#ifndef EHSYSLOG_CLI_TRACE_DAT_H
#define EHSYSLOG_CLI_TRACE_DAT_H

#include <stddef.h>

#include "cli/output/output.h"

/* trace.dat starts with these bytes: 0x17 0x08 0x44 "tracing". */
#define TRACE_DAT_MAGIC "\x17\x08\x44tracing"
#define TRACE_DAT_MAGIC_LEN 10

typedef int (*trace_dat_cb)(const struct read_event *ev, void *ctx);

/* Calls cb for each user_events record of the trace.dat open as fd, in
 * time order, with host (filled first; "" if unknown), and lost (unless
 * NULL) where a page says the kernel missed records before it (count 0
 * where the page has no room for the count).  Returns 0, cb's or lost's
 * non-zero value to stop, or -1 with a message in err ("not a valid
 * trace.dat: WHY" for a file that fails trace_dat_check). */
int trace_dat_read(int fd, char *host, size_t hostlen,
		   trace_dat_cb cb, read_lost_cb lost, void *ctx, char *err, size_t errlen);

#endif
