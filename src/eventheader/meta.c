/* SPDX-License-Identifier: MIT */
/*
 * Event metadata: "name{;attr=value}\0" then one descriptor per field:
 * "field\0", u8 encoding, [u8 format], [u16 tag], [u16 array count].
 * Every error is kept in m->buf.err, so the first one is also what
 * eh_meta_finish reports and nothing is appended after it.
 */
#include <string.h>

#include "buf.h"

/* Names are written as they come; attributes are only offered for the
 * event name, so a ';' in any name would start a bogus attribute. */
static bool name_ok(const char *name)
{
	return name && *name && !strchr(name, ';');
}

static int fail(struct eh_meta *m, int err)
{
	return eh_buf_fail(&m->buf, err);
}

EH_API int eh_meta_init(struct eh_meta *m, void *buf, size_t cap,
			const char *event_name)
{
	if (!m)
		return EH_E_INVAL;
	memset(m, 0, sizeof(*m));
	eh_buf_init(&m->buf, buf, cap);
	if (m->buf.err)
		return m->buf.err;
	if (!name_ok(event_name))
		return fail(m, EH_E_INVAL);
	m->name_open = true;
	return eh_buf_append(&m->buf, event_name, strlen(event_name));
}

EH_API int eh_meta_attr(struct eh_meta *m, const char *name, const char *value)
{
	const char *semi;

	if (!m)
		return EH_E_INVAL;
	if (m->buf.err)
		return m->buf.err;
	if (!m->name_open)
		return fail(m, EH_E_STATE);
	if (!name || !*name || strpbrk(name, ";=") || !value)
		return fail(m, EH_E_INVAL);
	eh_buf_append(&m->buf, ";", 1);
	eh_buf_append(&m->buf, name, strlen(name));
	eh_buf_append(&m->buf, "=", 1);
	/* Each ';' goes out twice: once with the text before it, once alone. */
	while ((semi = strchr(value, ';'))) {
		eh_buf_append(&m->buf, value, (size_t)(semi - value) + 1);
		eh_buf_append(&m->buf, ";", 1);
		value = semi + 1;
	}
	return eh_buf_append(&m->buf, value, strlen(value));
}

/* array_flags is 0, EH_ENC_CARRAY with a count 1..65535, or EH_ENC_VARRAY. */
static bool array_ok(unsigned array_flags, uint16_t count)
{
	switch (array_flags) {
	case 0:
	case EH_ENC_VARRAY:
		return count == 0;
	case EH_ENC_CARRAY:
		return count != 0;
	}
	return false;
}

/*
 * Everything a field descriptor needs before its type: state checks, the
 * member count of the enclosing struct, the end of the event name, and
 * the field name.  The caller has validated its own arguments.
 */
static int field_start(struct eh_meta *m, const char *name)
{
	if (!name_ok(name))
		return fail(m, EH_E_INVAL);
	if (m->depth) {
		if (m->struct_fields[m->depth - 1] == EH_STRUCT_FIELDS_MAX)
			return fail(m, EH_E_STRUCT);
		m->struct_fields[m->depth - 1]++;
	}
	if (m->name_open) {
		m->name_open = false;
		eh_buf_append(&m->buf, "", 1);
	}
	return eh_buf_append(&m->buf, name, strlen(name) + 1);
}

/* encoding/format bytes with their chain bits, tag, array count.  Returns
 * the offset of the format byte (0 if none was written) or an error. */
static long field_type(struct eh_meta *m, unsigned encoding, bool has_format,
		       unsigned format, uint16_t tag, uint16_t array_count)
{
	uint8_t d[6];
	size_t n = 0, format_at = 0;
	uint8_t *p;

	if (tag)
		has_format = true;
	d[n++] = (uint8_t)(encoding | (has_format ? EH_ENC_CHAIN : 0));
	if (has_format) {
		format_at = m->buf.len + n;
		d[n++] = (uint8_t)(format | (tag ? EH_FMT_CHAIN : 0));
	}
	if (tag) {
		put_le16(d + n, tag);
		n += 2;
	}
	if (encoding & EH_ENC_CARRAY) {
		put_le16(d + n, array_count);
		n += 2;
	}
	p = eh_buf_reserve(&m->buf, n);
	if (!p)
		return m->buf.err;
	memcpy(p, d, n);
	return (long)format_at;
}

static int writable(struct eh_meta *m)
{
	if (m->buf.err)
		return m->buf.err;
	if (m->finished)
		return fail(m, EH_E_STATE);
	return EH_OK;
}

EH_API int eh_meta_field(struct eh_meta *m, const char *name, unsigned encoding,
			 unsigned format, uint16_t tag, uint16_t array_count)
{
	unsigned value = encoding & EH_ENC_VALUE_MASK;
	unsigned array = encoding & EH_ENC_ARRAY_MASK;
	int err;
	long at;

	if (!m)
		return EH_E_INVAL;
	if ((err = writable(m)))
		return err;
	/* Structs have their own call; the chain bit is ours to set. */
	if ((encoding & ~(unsigned)(EH_ENC_VALUE_MASK | EH_ENC_ARRAY_MASK)) ||
	    value < EH_ENC_VALUE8 || value >= EH_ENC_MAX ||
	    format >= EH_FMT_MAX || !array_ok(array, array_count))
		return fail(m, EH_E_INVAL);
	if ((err = field_start(m, name)))
		return err;
	at = field_type(m, encoding, format != 0, format, tag, array_count);
	return at < 0 ? (int)at : EH_OK;
}

EH_API int eh_meta_struct_begin(struct eh_meta *m, const char *name, uint16_t tag,
				unsigned array_flags, uint16_t array_count)
{
	int err;
	long at;

	if (!m)
		return EH_E_INVAL;
	if ((err = writable(m)))
		return err;
	if (!array_ok(array_flags, array_count))
		return fail(m, EH_E_INVAL);
	if (m->depth == EH_STRUCT_DEPTH_MAX)
		return fail(m, EH_E_DEPTH);
	if ((err = field_start(m, name)))
		return err;
	/* The member count goes in the format byte once it is known. */
	at = field_type(m, EH_ENC_STRUCT | array_flags, true, 0, tag, array_count);
	if (at < 0)
		return (int)at;
	m->struct_format_at[m->depth] = (size_t)at;
	m->struct_fields[m->depth] = 0;
	m->depth++;
	return EH_OK;
}

EH_API int eh_meta_struct_end(struct eh_meta *m)
{
	unsigned fields;
	int err;

	if (!m)
		return EH_E_INVAL;
	if ((err = writable(m)))
		return err;
	if (!m->depth)
		return fail(m, EH_E_STATE);
	fields = m->struct_fields[m->depth - 1];
	if (fields == 0)
		return fail(m, EH_E_STRUCT);
	m->depth--;
	m->buf.data[m->struct_format_at[m->depth]] |= (uint8_t)fields;
	return EH_OK;
}

EH_API int eh_meta_finish(struct eh_meta *m)
{
	if (!m)
		return EH_E_INVAL;
	if (m->buf.err)
		return m->buf.err;
	if (m->finished)
		return EH_OK;
	if (m->depth)
		return fail(m, EH_E_STATE);
	if (m->name_open) {
		m->name_open = false;
		if (eh_buf_append(&m->buf, "", 1))
			return m->buf.err;
	}
	m->finished = true;
	return EH_OK;
}
