/* SPDX-License-Identifier: MIT */
/* A request body gzip-compressed (RFC 1952) with zlib, for
 * "Content-Encoding: gzip", which every OTLP server must accept. */
#ifndef EHSYSLOG_CLI_EXPORT_GZIP_H
#define EHSYSLOG_CLI_EXPORT_GZIP_H

#include <stddef.h>
#include <stdint.h>

/* in[0..len) compressed into a new *out (free it) of *out_len bytes.
 * 0, or -1 when out of memory. */
int gzip_compress(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len);

#endif
