/* SPDX-License-Identifier: MIT */
/*
 * A protobuf-c message in the OTLP JSON Protobuf Encoding (the OTLP
 * specification, "OTLP/HTTP", "JSON Protobuf Encoding"): proto3's JSON
 * mapping, except that enums are numbers and trace and span ids hex.
 * Hand-written because protobuf-c has no JSON; it walks the message's
 * descriptor, so the mapping to OTLP stays in record.c and request.c and
 * the JSON body carries exactly what the protobuf one does:
 *   keys            the field's name in lowerCamelCase;
 *   fields          in field-number order; a field at its default (0,
 *                   "", no bytes, no message, no elements) is left out,
 *                   a oneof member that is set never (intValue 0 too);
 *   64-bit integers decimal strings ("1700000000000000000"); 32-bit
 *                   ones, enums and floats numbers (NaN, Infinity and
 *                   -Infinity as strings); bools true and false;
 *   bytes           base64 with padding (RFC 4648, 4), except fields
 *                   named ..trace_id and ..span_id: lowercase hex;
 *   strings         eh_json_string's (<eventheader/eventheader.h>):
 *                   controls, U+2028 and U+2029 escaped, a byte that is
 *                   not UTF-8 its Latin-1 character (protobuf strings are
 *                   UTF-8: only a message built wrong has any).
 * Maps and well-known types (none in the logs messages) are not handled.
 */
#ifndef EHSYSLOG_CLI_EXPORT_JSON_H
#define EHSYSLOG_CLI_EXPORT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

/* m as JSON in a new *out (free it), *len bytes, without a NUL.  0, or
 * -1 when out of memory. */
int json_encode(const ProtobufCMessage *m, uint8_t **out, size_t *len);

#endif
