/* SPDX-License-Identifier: MIT */
/* RFC 4648 base64 (standard alphabet, '=' padding) back to bytes: how
 * the library's USDT probes carry a whole EventHeader event in a
 * NUL-terminated string, which is all a uprobe can fetch. */
#ifndef EHSYSLOG_TRACEEVENT_BASE64_H
#define EHSYSLOG_TRACEEVENT_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* The bytes text[0..len) decodes to, at most this many. */
#define BASE64_DECODED_MAX(len) ((len) / 4 * 3 + 3)

/*
 * Decodes text[0..len) into out (BASE64_DECODED_MAX(len) bytes).
 * Returns the length, or -1 for text that is not base64 of whole
 * groups: a length not a multiple of 4 (cut short), a character outside
 * the alphabet, padding not at the end.
 */
long base64_decode(const char *text, size_t len, uint8_t *out);

#endif
