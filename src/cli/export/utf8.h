/* SPDX-License-Identifier: MIT */
/* One UTF-8 character (RFC 3629), for the string-or-bytes choice
 * (record.c) and the JSON encoding's escaping (json.c). */
#ifndef EHSYSLOG_CLI_EXPORT_UTF8_H
#define EHSYSLOG_CLI_EXPORT_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1..4) of the UTF-8 character at s[0..n), n > 0, with its
 * code point in *cp; 0 when s does not start with one: a stray or cut
 * sequence, an overlong form, a surrogate or a value past U+10FFFF. */
size_t utf8_char(const uint8_t *s, size_t n, uint32_t *cp);

/* Where utf8_char finds no character: the length of the "maximal
 * subpart" at s (the Unicode Standard, 3.9, U+FFFD substitution), the
 * bytes that one U+FFFD stands for: a lead byte with the continuation
 * bytes that could still have completed it, or a single byte. */
size_t utf8_bad_len(const uint8_t *s, size_t n);

#endif
