/* SPDX-License-Identifier: MIT */
/* What a new run reads of a segment an earlier one wrote (spool.h). */
#ifndef EHSYSLOG_CLI_EXPORT_SPOOL_REPLAY_H
#define EHSYSLOG_CLI_EXPORT_SPOOL_REPLAY_H

#include <stdbool.h>

#include "cli/export/queue/spool.h"

/*
 * Gives each record of segment g (of the directory s->dir) after
 * s->acked to each, oldest first, and says on stderr what it skipped:
 * damaged bytes (how many, from where), a frame cut short at its end, a
 * file that is no segment.  Whether the segment is to be kept: it has
 * such records, or damage (kept until what follows it is acknowledged,
 * so that it is there to see).
 */
bool spool_replay_segment(const struct spool *s, const struct spool_segment *g,
			  spool_each *each, void *ctx);

#endif
