/* SPDX-License-Identifier: MIT */
/*
 * One logging call as events: the fixed schema's metadata and payload,
 * split into parts when the whole does not fit one event.  A call's own
 * heads and extras are built in a scratch slot (scratch.h), or on the
 * stack when none is free; what is built once is shared, then never
 * written again: the schema's field descriptors, and the plain event's
 * prefix and metadata for each ident (up to 8) and level, which the
 * plain event's calls use where they lie.
 */
#ifndef EHS_BRIDGE_EMIT_H
#define EHS_BRIDGE_EMIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <ehsyslog/user_events.h>
#include "bridge/record.h"
#include "bridge/transport.h"

/* Builds the schema's field descriptors every head shares, if not yet:
 * for a tracepoint's first check, so that the first event does not
 * build them below its own frames, where a signal handler's stack is
 * at its deepest.  Events build them themselves otherwise. */
void ehs_emit_prepare(void);

/* The most iovecs the writer receives for one event; iov[0] is left
 * empty for it (it puts the write index there). */
#define EHS_EMIT_IOV 10

struct ehs_record {
	const char *name;	/* event name, already sanitised, or NULL
				 * for the current ident's (ident.h) */
	unsigned level;		/* EventHeader level 1..5 */
	uint8_t severity;	/* 0..7 */
	uint8_t facility;	/* 0..127 */
	int32_t err;		/* errno at the call */
	const char *file;	/* error_at_line's file, or NULL */
	uint32_t line;
	const char *msg;
	size_t msg_len;
	const struct ehs_extra *extra;	/* nextra of them, or NULL */
	unsigned nextra;
};

/*
 * Length of the next part of s[0..len) that fits max bytes: len if it
 * all fits, else max moved back (by at most 3 bytes) so that a UTF-8
 * character is not cut; invalid UTF-8 is cut at max.
 */
size_t ehs_split_len(const char *s, size_t len, size_t max);

/*
 * Builds the event(s) for r, each at most limit bytes, and writes each
 * to tp with ue_tracepoint_write.  Returns the number of events handed
 * over, or -1 when r cannot be written within limit (a name or file so
 * long no text fits, or more than 65535 parts): then nothing is handed
 * over.  A failed write does not stop the remaining parts: a tracer
 * would rather have the others.
 */
int ehs_emit(const struct ehs_record *r, size_t limit, struct ue_tracepoint *tp);

/* ehs_emit of the plain record for a message of the current ident at
 * severity (0..7) and facility (0..127), limit EHS_EVENT_MAX: syslog's
 * event, its text fmt formatted with ap as ehs_text_vformat does
 * (format/text.h: errno may change).  Handed over without a record when
 * the ident's head is kept.  Returns as ehs_emit does, or -1 when the
 * text cannot be formatted.  emit_inline.h has it inline, for the syslog entries. */
int ehs_emit_vmessage(struct ue_tracepoint *tp, int severity, unsigned facility, int err,
		      const char *fmt, va_list ap);

#endif
