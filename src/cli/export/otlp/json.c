/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <eventheader/eventheader.h>

#include "cli/export/otlp/json.h"

struct buf {
	char *p;
	size_t len, cap;
	bool nomem;
};

static bool grow(struct buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->nomem)
		return false;
	if (b->len + more <= b->cap)
		return true;
	while (cap < b->len + more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (p == NULL) {
		b->nomem = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

static void put(struct buf *b, const void *s, size_t n)
{
	if (grow(b, n)) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

static void putc_(struct buf *b, char c)
{
	put(b, &c, 1);
}

static void __attribute__((format(printf, 2, 3))) putf(struct buf *b, const char *fmt, ...)
{
	char s[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, sizeof s, fmt, ap);
	va_end(ap);
	put(b, s, (size_t)n);	/* numbers only: they fit */
}

static void string(struct buf *b, const char *s)
{
	size_t n = strlen(s);

	putc_(b, '"');
	if (grow(b, 6 * n))	/* eh_json_string's most for n bytes */
		b->len += eh_json_string(b->p + b->len, b->cap - b->len, s, n);
	putc_(b, '"');
}

static void base64(struct buf *b, const ProtobufCBinaryData *d)
{
	static const char digit[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	putc_(b, '"');
	for (size_t i = 0; i < d->len; i += 3) {
		uint32_t v = (uint32_t)d->data[i] << 16;
		size_t left = d->len - i;
		char q[4];

		if (left > 1)
			v |= (uint32_t)d->data[i + 1] << 8;
		if (left > 2)
			v |= d->data[i + 2];
		q[0] = digit[v >> 18];
		q[1] = digit[v >> 12 & 63];
		q[2] = left > 1 ? digit[v >> 6 & 63] : '=';
		q[3] = left > 2 ? digit[v & 63] : '=';
		put(b, q, 4);
	}
	putc_(b, '"');
}

static void hex(struct buf *b, const ProtobufCBinaryData *d)
{
	putc_(b, '"');
	for (size_t i = 0; i < d->len; i++)
		putf(b, "%02x", d->data[i]);
	putc_(b, '"');
}

/* The OTLP exception to base64: trace_id, span_id, parent_span_id. */
static bool hex_field(const char *name)
{
	size_t n = strlen(name);

	return (n >= 8 && strcmp(name + n - 8, "trace_id") == 0) ||
	       (n >= 7 && strcmp(name + n - 7, "span_id") == 0);
}

static void real(struct buf *b, double v, bool single)
{
	if (isnan(v))
		put(b, "\"NaN\"", 5);
	else if (isinf(v))
		putf(b, "\"%sInfinity\"", v < 0 ? "-" : "");
	else
		putf(b, single ? "%.9g" : "%.17g", v);	/* digits enough to read back the same value */
}

static void message(struct buf *b, const ProtobufCMessage *m);

/* One value of field f, stored at v. */
static void value(struct buf *b, const ProtobufCFieldDescriptor *f, const void *v)
{
	switch (f->type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
		putf(b, "%" PRId32, *(const int32_t *)v);
		break;
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		putf(b, "%" PRIu32, *(const uint32_t *)v);
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		putf(b, "\"%" PRId64 "\"", *(const int64_t *)v);
		break;
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		putf(b, "\"%" PRIu64 "\"", *(const uint64_t *)v);
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		real(b, *(const float *)v, true);
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		real(b, *(const double *)v, false);
		break;
	case PROTOBUF_C_TYPE_BOOL:
		putf(b, "%s", *(const protobuf_c_boolean *)v ? "true" : "false");
		break;
	case PROTOBUF_C_TYPE_ENUM:
		putf(b, "%d", *(const int *)v);
		break;
	case PROTOBUF_C_TYPE_STRING:
		string(b, *(char *const *)v);
		break;
	case PROTOBUF_C_TYPE_BYTES:
		if (hex_field(f->name))
			hex(b, v);
		else
			base64(b, v);
		break;
	case PROTOBUF_C_TYPE_MESSAGE:
		message(b, *(const ProtobufCMessage *const *)v);
		break;
	}
}

static size_t value_size(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		return 8;
	case PROTOBUF_C_TYPE_DOUBLE:
		return sizeof(double);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_ENUM:
		return sizeof(int);
	case PROTOBUF_C_TYPE_STRING:
		return sizeof(char *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(ProtobufCMessage *);
	default:
		return 4;	/* the 32-bit integers and float */
	}
}

/* A singular field at its proto3 default, which the mapping leaves out. */
static bool is_default(const ProtobufCFieldDescriptor *f, const void *v)
{
	static const uint8_t zero[8];

	switch (f->type) {
	case PROTOBUF_C_TYPE_STRING:
		return *(char *const *)v == NULL || **(char *const *)v == '\0';
	case PROTOBUF_C_TYPE_BYTES:
		return ((const ProtobufCBinaryData *)v)->len == 0;
	case PROTOBUF_C_TYPE_MESSAGE:
		return *(const ProtobufCMessage *const *)v == NULL;
	case PROTOBUF_C_TYPE_FLOAT:
		return *(const float *)v == 0 && !signbit(*(const float *)v);
	case PROTOBUF_C_TYPE_DOUBLE:
		return *(const double *)v == 0 && !signbit(*(const double *)v);
	default:
		return memcmp(v, zero, value_size(f->type)) == 0;
	}
}

static bool present(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *f, const void *v)
{
	const char *quantifier = (const char *)m + f->quantifier_offset;

	if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
		return *(const uint32_t *)quantifier == f->id;
	if (f->label == PROTOBUF_C_LABEL_REQUIRED)
		return true;
	if (f->label == PROTOBUF_C_LABEL_OPTIONAL) {
		/* proto3 "optional": set is present, even at the default. */
		if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_MESSAGE)
			return *(const void *const *)v != NULL;
		return *(const protobuf_c_boolean *)quantifier;	/* has_NAME */
	}
	return !is_default(f, v);
}

/* "time_unix_nano" as "timeUnixNano". */
static void key(struct buf *b, const char *name)
{
	putc_(b, '"');
	for (bool up = false; *name != '\0'; name++) {
		if (*name == '_') {
			up = true;
			continue;
		}
		putc_(b, up && *name >= 'a' && *name <= 'z' ? (char)(*name - 'a' + 'A') : *name);
		up = false;
	}
	put(b, "\":", 2);
}

static void message(struct buf *b, const ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m != NULL ? m->descriptor : NULL;
	bool first = true;

	putc_(b, '{');
	if (m == NULL) {	/* a oneof member set to no message */
		putc_(b, '}');
		return;
	}
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		const char *v = (const char *)m + f->offset;

		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)((const char *)m + f->quantifier_offset);
			const char *array = *(char *const *)v;

			if (n == 0)
				continue;
			if (!first)
				putc_(b, ',');
			key(b, f->name);
			putc_(b, '[');
			for (size_t k = 0; k < n; k++) {
				if (k > 0)
					putc_(b, ',');
				value(b, f, array + k * value_size(f->type));
			}
			putc_(b, ']');
		} else if (present(m, f, v)) {
			if (!first)
				putc_(b, ',');
			key(b, f->name);
			value(b, f, v);
		} else {
			continue;
		}
		first = false;
	}
	putc_(b, '}');
}

int json_encode(const ProtobufCMessage *m, uint8_t **out, size_t *len)
{
	struct buf b = { 0 };

	message(&b, m);
	if (b.nomem || (b.p == NULL && !grow(&b, 1))) {
		free(b.p);
		return -1;
	}
	*out = (uint8_t *)b.p;
	*len = b.len;
	return 0;
}
