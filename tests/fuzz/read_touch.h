/* SPDX-License-Identifier: MIT */
/*
 * Shared by the targets of decode's readers (fuzz_tracedat.c,
 * fuzz_perfdata.c): a callback that reads every byte an event hands on,
 * so that ASan sees one reaching outside its input, and the bridge's
 * facility keyword rule, which uprobe_record.c needs and these targets
 * do not link the bridge for.
 */
#ifndef EHS_TESTS_FUZZ_READ_TOUCH_H
#define EHS_TESTS_FUZZ_READ_TOUCH_H

#include <stdint.h>

#include "cli/output/output.h"

int read_touch(const struct read_event *ev, void *ctx);
uint64_t syslog_facility_keyword(unsigned facility);

/* Where the touched bytes' sum goes, so that no read is optimised out. */
extern volatile unsigned read_touch_sink;

#endif
