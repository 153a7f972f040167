/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "event_fields.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include <eventheader/eventheader.h>

static unsigned le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

void evf_decode(const uint8_t *e, size_t len, struct evf_event *ev)
{
	const uint8_t *end = e + len;

	memset(ev, 0, sizeof *ev);
	ck_assert_uint_ge(len, 12);
	ck_assert_uint_eq(e[0], 0x07);	/* pointer64, little-endian, extension */
	ev->level = e[7];
	unsigned meta_len = le16(e + 8);
	ck_assert_uint_eq(le16(e + 10), 1);	/* the metadata block */
	ck_assert_uint_le(12 + meta_len, len);
	const char *m = (const char *)e + 12, *mend = m + meta_len;
	snprintf(ev->name, sizeof ev->name, "%s", m);
	m += strlen(m) + 1;
	while (m < mend) {
		ck_assert_uint_lt(ev->n, EVF_FIELDS_MAX);
		struct evf_field *f = &ev->f[ev->n++];
		snprintf(f->name, sizeof f->name, "%s", m);
		m += strlen(m) + 1;
		unsigned byte = (uint8_t)*m++;
		if (byte & 0x80)
			m++;	/* a format byte (errno's) */
		ck_assert_msg((byte & 0x60) == 0, "field %s: an array", f->name);
		f->enc = byte & 0x1f;
	}
	ck_assert_ptr_eq(m, mend);
	const uint8_t *p = e + 12 + meta_len;
	for (unsigned k = 0; k < ev->n; k++) {
		struct evf_field *f = &ev->f[k];
		switch (f->enc) {
		case EH_ENC_VALUE8: f->len = 1; break;
		case EH_ENC_VALUE16: f->len = 2; break;
		case EH_ENC_VALUE32: f->len = 4; break;
		case EH_ENC_VALUE64: f->len = 8; break;
		case EH_ENC_STRING_LENGTH16_CHAR8:
		case EH_ENC_BINARY_LENGTH16_CHAR8:
			ck_assert_msg(p + 2 <= end, "field %s past the end", f->name);
			f->len = le16(p);
			p += 2;
			break;
		default:
			ck_abort_msg("field %s: encoding %u", f->name, f->enc);
		}
		f->value = p;
		p += f->len;
		ck_assert_msg(p <= end, "field %s past the end", f->name);
	}
	ck_assert_ptr_eq(p, end);
}

void evf_decode_captured(const struct capture *cap, unsigned i, struct evf_event *ev)
{
	ck_assert_uint_lt(i, cap->count);
	evf_decode(cap->data[i], cap->len[i], ev);
}

const struct evf_field *evf_field(const struct evf_event *ev, const char *name)
{
	for (unsigned k = 0; k < ev->n; k++)
		if (strcmp(ev->f[k].name, name) == 0)
			return &ev->f[k];
	return NULL;
}

uint32_t evf_num(const struct evf_event *ev, const char *name)
{
	const struct evf_field *f = evf_field(ev, name);
	ck_assert_msg(f != NULL, "no field %s in %s", name, ev->name);
	ck_assert_msg(f->len == 1 || f->len == 2 || f->len == 4, "field %s: %zu bytes",
		      name, f->len);
	uint32_t v = 0;
	for (size_t i = f->len; i > 0; i--)
		v = v << 8 | f->value[i - 1];
	return v;
}

void evf_bytes_eq(const struct evf_event *ev, const char *name, unsigned enc,
		  const void *want, size_t len)
{
	const struct evf_field *f = evf_field(ev, name);
	ck_assert_msg(f != NULL, "no field %s in %s", name, ev->name);
	ck_assert_uint_eq(f->enc, enc);
	ck_assert_uint_eq(f->len, len);
	ck_assert_msg(memcmp(f->value, want, len) == 0, "field %s differs", name);
}

void evf_str_eq(const struct evf_event *ev, const char *name, const char *s)
{
	evf_bytes_eq(ev, name, EH_ENC_STRING_LENGTH16_CHAR8, s, strlen(s));
}
