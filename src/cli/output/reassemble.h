/* SPDX-License-Identifier: MIT */
/*
 * Split messages put back together: the library writes a message too
 * long for one event as parts 1..parts of the same event name, each
 * with part and parts fields; the output stage holds the parts of each
 * (tracepoint, event name, thread) and prints the whole once the last
 * has come, or what it has when the sequence breaks.
 */
#ifndef EHSYSLOG_CLI_REASSEMBLE_H
#define EHSYSLOG_CLI_REASSEMBLE_H

#include "cli/output/fields.h"
#include "cli/output/output.h"

/* The split messages o can hold at once; NULL when out of memory. */
struct pending *reassemble_new(void);
void reassemble_free(struct pending *p);

/* Takes one part (f->parts != 0) of a syslog event.  Returns lines
 * printed, or -1 if o->fp failed. */
int reassemble_part(struct out *o, const struct read_event *ev,
		    const struct eh_event_view *view, const struct syslog_fields *f);

/* Prints every incomplete split message held so far.  Returns lines
 * printed, or -1 if o->fp failed. */
int reassemble_flush(struct out *o);

#endif
