/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <zlib.h>

#include "cli/export/queue/spool_frame.h"

static const char segment_magic[8] = "EHSQSEG1";
static const char frame_magic[4] = "EHSF";
static const char same_magic[4] = "EHSR";	/* the resource of the frame before */
static const char ack_magic[8] = "EHSQACK1";

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

void spool_segment_name(char name[SPOOL_NAME_SIZE], uint64_t base)
{
	snprintf(name, SPOOL_NAME_SIZE, "%016" PRIx64 ".seg", base);
}

bool spool_segment_base(const char *name, uint64_t *base)
{
	uint64_t v = 0;

	if (strlen(name) != SPOOL_NAME_SIZE - 1 || strcmp(name + 16, ".seg") != 0)
		return false;
	for (int i = 0; i < 16; i++) {
		int c = name[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint64_t)(c - 'a' + 10);
		else
			return false;
	}
	*base = v;
	return true;
}

void spool_segment_header(uint8_t out[SPOOL_SEGMENT_HEADER], uint64_t base)
{
	memcpy(out, segment_magic, sizeof segment_magic);
	put64(out + 8, base);
}

bool spool_segment_header_ok(const uint8_t *p, size_t len, uint64_t base)
{
	return len >= SPOOL_SEGMENT_HEADER && memcmp(p, segment_magic, sizeof segment_magic) == 0 &&
	       get64(p + 8) == base;
}

/* The CRC of a frame: its two lengths, then what they measure. */
static uint32_t frame_crc(const uint8_t *lengths, const uint8_t *resource, uint32_t resource_len,
			  const uint8_t *record, uint32_t record_len)
{
	uLong crc = crc32(0L, lengths, 8);

	/* Not with none: crc32 of a NULL buffer starts again from 0. */
	if (resource_len > 0)
		crc = crc32(crc, resource, resource_len);
	return (uint32_t)crc32(crc, record, record_len);
}

static void frame_header(uint8_t out[SPOOL_FRAME_HEADER], const char magic[4],
			 const uint8_t *resource, size_t resource_len, const uint8_t *record,
			 size_t record_len)
{
	memcpy(out, magic, 4);
	put32(out + 4, (uint32_t)resource_len);
	put32(out + 8, (uint32_t)record_len);
	put32(out + 12, frame_crc(out + 4, resource, (uint32_t)resource_len, record,
				  (uint32_t)record_len));
}

void spool_frame_header(uint8_t out[SPOOL_FRAME_HEADER], const uint8_t *resource,
			size_t resource_len, const uint8_t *record, size_t record_len)
{
	frame_header(out, frame_magic, resource, resource_len, record, record_len);
}

void spool_frame_header_same(uint8_t out[SPOOL_FRAME_HEADER], const uint8_t *record,
			     size_t record_len)
{
	frame_header(out, same_magic, NULL, 0, record, record_len);
}

/* Whether p starts with either frame's magic; which into *same. */
static bool frame_magic_at(const uint8_t *p, bool *same)
{
	*same = memcmp(p, same_magic, sizeof same_magic) == 0;
	return *same || memcmp(p, frame_magic, sizeof frame_magic) == 0;
}

size_t spool_frame_check(const uint8_t *p, size_t len, size_t *resource_len_out, bool *same)
{
	uint32_t resource_len, record_len;

	if (len < SPOOL_FRAME_HEADER || !frame_magic_at(p, same))
		return 0;
	resource_len = get32(p + 4);
	record_len = get32(p + 8);
	/* A frame of the resource before carries none. */
	if (*same && resource_len != 0)
		return 0;
	/* In 64 bits: two lengths of 4 GiB do not wrap. */
	if ((uint64_t)resource_len + record_len > len - SPOOL_FRAME_HEADER)
		return 0;
	if (frame_crc(p + 4, p + SPOOL_FRAME_HEADER, resource_len,
		      p + SPOOL_FRAME_HEADER + resource_len, record_len) != get32(p + 12))
		return 0;
	*resource_len_out = resource_len;
	return SPOOL_FRAME_HEADER + (size_t)resource_len + record_len;
}

bool spool_frame_cut_short(const uint8_t *p, size_t len)
{
	bool same;

	if (len < SPOOL_FRAME_HEADER)
		return true;
	return frame_magic_at(p, &same) &&
	       (uint64_t)get32(p + 4) + get32(p + 8) > len - SPOOL_FRAME_HEADER;
}

size_t spool_frame_next(const uint8_t *p, size_t len, size_t from)
{
	/* The magics' common part: the check tells the kinds apart. */
	static const char any_magic[3] = "EHS";

	while (from < len) {
		const uint8_t *hit = memmem(p + from, len - from, any_magic, sizeof any_magic);

		if (hit == NULL)
			break;
		size_t resource_len;
		bool same;

		from = (size_t)(hit - p);
		if (spool_frame_check(hit, len - from, &resource_len, &same) > 0)
			return from;
		from++;
	}
	return len;
}

void spool_ack_encode(uint8_t out[SPOOL_ACK_SIZE], uint64_t position)
{
	memcpy(out, ack_magic, sizeof ack_magic);
	put64(out + 8, position);
	put32(out + 16, (uint32_t)crc32(0L, out, 16));
}

/* Whether the slot at p passes its CRC. */
static bool ack_slot_ok(const uint8_t *p)
{
	return memcmp(p, ack_magic, sizeof ack_magic) == 0 &&
	       get32(p + 16) == (uint32_t)crc32(0L, p, 16);
}

bool spool_ack_decode(const uint8_t *p, size_t len, uint64_t *position, unsigned *slot)
{
	bool found = false;

	/* Positions only grow: the larger is the later. */
	for (unsigned i = 0; i < 2; i++) {
		const uint8_t *q = p + i * SPOOL_ACK_SLOT;

		if (len < i * SPOOL_ACK_SLOT + SPOOL_ACK_SIZE || !ack_slot_ok(q))
			continue;
		if (!found || get64(q + 8) > *position) {
			*position = get64(q + 8);
			*slot = i;
		}
		found = true;
	}
	return found;
}
