/* SPDX-License-Identifier: MIT */
/*
 * Private to the decoder: a bounded output buffer shared by the JSON and
 * text writers, and the value formatting both use.
 */
#ifndef EVENTHEADER_DECODE_H
#define EVENTHEADER_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eventheader/eventheader.h"

/* Not in EH_FMT_*: the former IPv6 format, still written by Microsoft's
 * encoders for value128 fields (the conformance data has it). */
#define EH_FMT_IPV6_OBSOLETE 18

/* Appends stop at cap - 1 (room for the NUL); full records that
 * something did not fit. */
struct eh_out {
	char *buf;
	size_t cap;
	size_t len;
	bool full;
	bool json;		/* JSON escaping and quoting, else the text form's */
};

void eh_out_init(struct eh_out *o, char *buf, size_t cap, bool json);
/* NUL-terminates; returns the length or EH_E_NOSPACE. */
long eh_out_finish(struct eh_out *o);
void eh_out_mem(struct eh_out *o, const void *p, size_t n);
void eh_out_str(struct eh_out *o, const char *s);
void eh_out_char(struct eh_out *o, char ch);
void eh_out_printf(struct eh_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Escaped string content (no quotes): in JSON by eh_json_string's rule
 * (json_string.c), in text as eh_decode_text says.  eh_out_utf8 takes
 * untrusted bytes: one that is not part of valid UTF-8 is its Latin-1
 * character in JSON and \xHH in text. */
void eh_out_codepoint(struct eh_out *o, uint32_t cp);
void eh_out_utf8(struct eh_out *o, const uint8_t *s, size_t n);
/* '"' + eh_out_utf8 + '"' */
void eh_out_quoted(struct eh_out *o, const uint8_t *s, size_t n);

/* cp's JSON escape in out (\" \\ \b \f \n \r \t or \uXXXX) and its
 * length; 0 when cp stands for itself. */
size_t eh_json_escape(uint32_t cp, char out[6]);

/* A word a JSON reader must see as a string ("0x1F", "ENOENT(2)") and the
 * text form prints bare. */
void eh_out_word(struct eh_out *o, const char *s);

void eh_out_uuid(struct eh_out *o, const uint8_t uuid[16]);	/* bare, no quotes */
/* "YYYY-MM-DDTHH:MM:SS" (+ ".nnnnnnnnnZ" when with_ns); false if the year
 * does not fit, nothing written then. */
bool eh_out_time(struct eh_out *o, int64_t seconds, bool with_ns, uint32_t ns);

/* The value of a VALUE item, formatted as its encoding and format say. */
void eh_out_value(struct eh_out *o, const struct eh_item *it);

/* "ENOENT" for 2, NULL when the number has no name. */
const char *eh_errno_name(int32_t err);

#endif
