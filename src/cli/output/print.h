/* SPDX-License-Identifier: MIT */
/*
 * The pieces of a printed line that the output stage (output.c), its
 * text form (text.c) and the reassembly of split messages
 * (reassemble.c) call in each other.  Not for the readers: they use
 * output.h.
 */
#ifndef EHSYSLOG_CLI_PRINT_H
#define EHSYSLOG_CLI_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/output/fields.h"
#include "cli/output/output.h"

/* Largest decoded event line accepted: far above what 64 KiB of event
 * can expand to. */
#define OUT_LINE_MAX (16u << 20)

/* Grows *buf (*cap bytes) to hold need bytes.  False when out of memory. */
bool out_grow(char **buf, size_t *cap, size_t need);

/* The event through eh_decode_json_with (its top-level fields named in
 * fields[0..n_fields) shown as they say) or eh_decode_text (n_fields 0)
 * into o->buf, growing it as needed.  Returns the length or a negative
 * eh_error. */
long out_decode(struct out *o, const struct read_event *ev, bool json,
		const struct eh_field_value *fields, size_t n_fields);

/* Prints the event as the decoder shows it, with fields as out_decode
 * takes them (JSON only).  Returns lines printed (0 or 1), or -1 if
 * o->fp failed. */
int out_print_decoded(struct out *o, const struct read_event *ev,
		      const struct eh_field_value *fields, size_t n_fields);

/* The time a text line starts with (text.c). */
void out_format_time(const struct read_event *ev, char *out, size_t cap);

/*
 * What a text line shows after the message: every top-level field but
 * the syslog ones, as " [NAME=VALUE ...]".  "" when there is none; NULL
 * when out of memory (text.c).
 */
char *out_extras_text(const struct read_event *ev);

/* Prints a syslog event's text line, msg being its (whole) message
 * (text.c).  Returns as out_print_decoded. */
int out_print_syslog(struct out *o, const struct read_event *ev,
		     const char *ident, size_t ident_len,
		     const struct syslog_fields *f, const void *msg, size_t msg_len,
		     const char *extras);

#endif
