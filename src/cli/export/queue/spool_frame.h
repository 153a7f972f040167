/* SPDX-License-Identifier: MIT */
/* The names and bytes of the queue's files, as spool.h describes them:
 * made, and checked with their CRC-32.  No file is touched here. */
#ifndef EHSYSLOG_CLI_EXPORT_SPOOL_FRAME_H
#define EHSYSLOG_CLI_EXPORT_SPOOL_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPOOL_SEGMENT_HEADER 16
#define SPOOL_FRAME_HEADER 16
#define SPOOL_ACK_SIZE 20	/* a slot of "ack" */
#define SPOOL_ACK_SLOT 32	/* where its second slot starts */
#define SPOOL_ACK_FILE (SPOOL_ACK_SLOT + SPOOL_ACK_SIZE)	/* "ack" with both */
#define SPOOL_NAME_SIZE 21	/* a segment's name: 16 hex digits, ".seg", NUL */

void spool_segment_name(char name[SPOOL_NAME_SIZE], uint64_t base);

/* The base a segment's name gives; false for any other name. */
bool spool_segment_base(const char *name, uint64_t *base);

void spool_segment_header(uint8_t out[SPOOL_SEGMENT_HEADER], uint64_t base);

/* Whether the len bytes at p start with the header of the segment of
 * that base. */
bool spool_segment_header_ok(const uint8_t *p, size_t len, uint64_t base);

/* The header of the frame of that resource and record (each less than
 * 4 GiB). */
void spool_frame_header(uint8_t out[SPOOL_FRAME_HEADER], const uint8_t *resource,
			size_t resource_len, const uint8_t *record, size_t record_len);

/* The header of the frame of that record whose resource is the frame
 * before's: no resource follows it. */
void spool_frame_header_same(uint8_t out[SPOOL_FRAME_HEADER], const uint8_t *record,
			     size_t record_len);

/* The size of the whole frame at p, which passes its CRC within the len
 * bytes there, its resource's length into *resource_len (0 for one of
 * the resource before) and whether it is one of the resource before
 * into *same; 0 when there is none. */
size_t spool_frame_check(const uint8_t *p, size_t len, size_t *resource_len, bool *same);

/* Whether the len bytes at p, the end of a file, are a frame cut short:
 * less than a header, or a header whose frame goes past them. */
bool spool_frame_cut_short(const uint8_t *p, size_t len);

/* The offset of the first frame that passes its check at or after from
 * in the len bytes at p; len when there is none. */
size_t spool_frame_next(const uint8_t *p, size_t len, size_t from);

/* A slot of "ack" holding position. */
void spool_ack_encode(uint8_t out[SPOOL_ACK_SIZE], uint64_t position);

/* The larger position of the slots that pass their CRC in the len bytes
 * at p, the whole of an "ack" (one slot, as an earlier export wrote it,
 * or two), and that slot (0 or 1) into *slot; false when none does. */
bool spool_ack_decode(const uint8_t *p, size_t len, uint64_t *position, unsigned *slot);

#endif
