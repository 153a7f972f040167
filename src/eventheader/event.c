/* SPDX-License-Identifier: MIT */
/*
 * Puts an event together without copying metadata or payload:
 *   eventheader, [activity block], metadata block header | metadata | payload
 * The metadata block is always the last extension, so the payload follows
 * it directly.
 */
#include <limits.h>
#include <string.h>

#include "buf.h"

#define EXT_HEADER_SIZE 4	/* u16 size, u16 kind */
#define BLOCK_MAX 0xffffu	/* an extension's u16 size */

static uint8_t *put_ext(uint8_t *p, uint16_t size, uint16_t kind)
{
	put_le16(p, size);
	put_le16(p + 2, kind);
	return p + EXT_HEADER_SIZE;
}

EH_API long eh_event_iov(struct eh_prefix *prefix, const struct eventheader *header,
			 const uint8_t *activity_id, const uint8_t *related_id,
			 const struct eh_meta *meta, const void *payload,
			 size_t payload_len, struct iovec iov[EH_EVENT_IOV])
{
	uint8_t *p;

	if (!prefix || !header || !meta || !iov || (related_id && !activity_id) ||
	    (!payload && payload_len))
		return EH_E_INVAL;
	/* The total is returned as a long. */
	if (payload_len > (size_t)LONG_MAX - EH_PREFIX_MAX - BLOCK_MAX)
		return EH_E_INVAL;
	if (meta->buf.err)
		return meta->buf.err;
	if (!meta->finished)
		return EH_E_STATE;
	if (meta->buf.len > BLOCK_MAX)
		return EH_E_INVAL;
	if (header->level == 0)
		return EH_E_LEVEL_RANGE;

	p = prefix->bytes;
	*p++ = EH_FLAGS_LE64_EXT;
	*p++ = header->version;
	put_le16(p, header->id);
	put_le16(p + 2, header->tag);
	p += 4;
	*p++ = header->opcode;
	*p++ = header->level;
	if (activity_id) {
		size_t n = related_id ? EH_ACTIVITY_IDS_SIZE : EH_ACTIVITY_ID_SIZE;

		p = put_ext(p, (uint16_t)n, EH_EXT_ACTIVITY_ID | EH_EXT_CHAIN);
		memcpy(p, activity_id, EH_ACTIVITY_ID_SIZE);
		if (related_id)
			memcpy(p + EH_ACTIVITY_ID_SIZE, related_id, EH_ACTIVITY_ID_SIZE);
		p += n;
	}
	p = put_ext(p, (uint16_t)meta->buf.len, EH_EXT_METADATA);
	prefix->len = (size_t)(p - prefix->bytes);

	iov[0].iov_base = prefix->bytes;
	iov[0].iov_len = prefix->len;
	iov[1].iov_base = meta->buf.data;
	iov[1].iov_len = meta->buf.len;
	iov[2].iov_base = (void *)payload;
	iov[2].iov_len = payload_len;
	return (long)(prefix->len + meta->buf.len + payload_len);
}
