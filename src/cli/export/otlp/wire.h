/* SPDX-License-Identifier: MIT */
/*
 * The protobuf wire format (protobuf.dev, "Encoding"), written straight
 * into a growing buffer: what export sends is built from bytes, with no
 * object tree and no allocation per field.  Each nested message's length
 * is computed before it is written (wire_len_*), so nothing is moved
 * afterwards.  The bytes are the canonical ones a protobuf library
 * writes: fields in the order given (the caller keeps field-number
 * order), varints in their shortest form.  Leaving out proto3 defaults
 * is the caller's choice, field by field.
 */
#ifndef EHSYSLOG_CLI_EXPORT_WIRE_H
#define EHSYSLOG_CLI_EXPORT_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wire {
	uint8_t *buf;
	size_t len, cap;
	bool nomem;	/* a write failed: the bytes are incomplete */
};

/* Bytes a varint of v takes (1 to 10). */
size_t wire_varint_size(uint64_t v);

/* Bytes a field takes whole, tag included: a varint, and a
 * length-delimited value (string, bytes, message) of n bytes. */
size_t wire_len_varint(unsigned field, uint64_t v);
size_t wire_len_delimited(unsigned field, size_t n);

/* Appends a field: a varint, a fixed64, n bytes, or only the tag and
 * length of a message whose n bytes the caller writes next.  After a
 * failure to grow, nothing more is written and nomem stays set. */
void wire_varint(struct wire *w, unsigned field, uint64_t v);
void wire_fixed64(struct wire *w, unsigned field, uint64_t v);
void wire_delimited(struct wire *w, unsigned field, const void *p, size_t n);
void wire_header(struct wire *w, unsigned field, size_t n);

#endif
