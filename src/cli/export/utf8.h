/* SPDX-License-Identifier: MIT */
/* Bytes that are not UTF-8, for the JSON encoding's U+FFFD (json.c);
 * the characters themselves are eh_utf8_decode's. */
#ifndef EHSYSLOG_CLI_EXPORT_UTF8_H
#define EHSYSLOG_CLI_EXPORT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Where eh_utf8_decode (<eventheader/eventheader.h>) finds no
 * character: the length of the "maximal subpart" at s (the Unicode Standard, 3.9, U+FFFD substitution), the
 * bytes that one U+FFFD stands for: a lead byte with the continuation
 * bytes that could still have completed it, or a single byte. */
size_t utf8_bad_len(const uint8_t *s, size_t n);

#endif
