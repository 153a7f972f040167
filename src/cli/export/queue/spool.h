/* SPDX-License-Identifier: MIT */
/*
 * The queue's copy on disk (--queue-dir): every queued record is written
 * to a segment file before it is queued, and the position up to which
 * records were acknowledged (sent, or dropped for good) is kept beside
 * them, so that a new run sends again what an earlier one had not.
 *
 * The directory holds segments named by their base, the position of
 * their first byte in one endless log (16 lowercase hex digits, then
 * ".seg"), and "ack".  All numbers are little-endian.
 *
 *   segment: "EHSQSEG1", u64 base, then frames
 *   frame:   "EHSF", u32 resource length, u32 record length,
 *            u32 CRC-32 (zlib's) of the 8 length bytes, the resource
 *            and the record; then the packed Resource, the packed
 *            LogRecord (record.h)
 *   or:      "EHSR", u32 0, u32 record length, u32 CRC-32 of the 8
 *            length bytes and the record; then the packed LogRecord,
 *            whose Resource is the frame before's in the segment
 *   ack:     two slots, at bytes 0 and 32 (the second absent in an
 *            "ack" of one slot, as earlier exports wrote it), each
 *            "EHSQACK1", u64 position, u32 CRC-32 of those 16 bytes;
 *            the position is the larger of the slots that pass
 *
 * A record's position is where its frame ends: acknowledging it
 * acknowledges every record before it.  Only the last segment is written
 * to, and only by appending; a new one is started when it holds an
 * eighth of the bound (4 KiB at least), and at each run, so that what a
 * run finds is never changed.  A segment is removed once every record in
 * it is acknowledged, so the bound counts those of a segment still in
 * use.  "ack" is written in place, in its two slots in turn, kept open:
 * one pwrite an acknowledgement, where replacing it cost a file made,
 * written, closed and renamed.  A write torn by a power loss damages
 * only the slot written, the other still holds the position before:
 * what was acknowledged since is sent again, nothing is lost.
 *
 * Consecutive records nearly always have the same resource: an "EHSR"
 * frame spares writing it again.  A segment's first frame, and the first
 * after a batch that could not be written (part of which may be on disk
 * still), is an "EHSF": a segment is read on its own, and what is written
 * never leans on what may not be.
 *
 * Bound: a record that would take the segments past max_bytes is not
 * written (the queue drops it, counted): the newest is dropped, as the
 * memory queue does, since the oldest may be in a request already, the
 * log stays append-only, and the start of an outage is kept.
 *
 * Durability: records are framed in memory as they come (spool_append)
 * and written together by spool_commit, one write for what export read
 * from the trace buffers in one pass, before any of them is queued to be
 * sent (queue.h): a crash or SIGKILL loses nothing queued, only what was
 * being read.  spool_sync, which export calls each second and at exit,
 * makes the writes, "ack" and the directory's changes durable: a power
 * loss loses at most the records of the last second, and may send again
 * those acknowledged in it.
 *
 * Damage is found by the frame's CRC: a frame that fails it, and what
 * follows up to the next frame that passes (found by its magic), is
 * skipped, and said on stderr once per segment and run; a frame cut
 * short at a segment's end (a write a crash stopped) likewise.  So are
 * the "EHSR" frames after damage, up to the next "EHSF": their resource
 * may have been in it, and a record is never sent with another's.  A
 * damaged "ack" (no slot passes, or its position is past the last
 * segment's end, where export never acknowledges) is said and taken as
 * nothing acknowledged: sent again rather than lost or hidden.
 *
 * Trust (spool_file.h): the directory is refused unless it is the
 * user's that export runs as and no one else can write it; a segment
 * or "ack" that is not that user's regular file is said and not used,
 * an "ack" set aside; whatever is at the name of the segment a run
 * starts is set aside, said, never a reason to stop.  Segments are
 * read, not mapped: a file truncated under a map kills with SIGBUS.
 */
#ifndef EHSYSLOG_CLI_EXPORT_SPOOL_H
#define EHSYSLOG_CLI_EXPORT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spool_segment {
	uint64_t base, size;
};

struct spool {
	int dir;	/* the directory, locked (flock) while open */
	const char *path;	/* its name, for messages */
	uint64_t max_bytes;	/* the segments' bytes at most */
	uint64_t segment_bytes;	/* a new segment after this many */
	uint64_t bytes;	/* the segments' bytes now */
	uint64_t acked;	/* every record ending at or before is acknowledged */
	struct spool_segment *segs;	/* oldest first; the last is written */
	size_t nsegs;
	int fd;	/* the last segment's */
	int ack_fd;	/* "ack", once written, kept open */
	unsigned ack_slot;	/* its slot written next, 0 or 1 */
	bool unsynced_data, unsynced_ack, unsynced_dir;
	bool told_write, told_ack, told_sync;	/* a failure said, until one succeeds */
	uint8_t *pending;	/* frames appended, not yet written */
	size_t pending_len, pending_cap;
	/* The resource of the last frame appended to the last segment, for
	 * the next to say "the same"; none (has_resource false) at a
	 * segment's start and after a failed commit. */
	uint8_t *resource;
	size_t resource_len, resource_cap;
	bool has_resource;
};

/* Called by spool_open for each record not yet acknowledged, oldest
 * first; end is its position (spool_ack). */
typedef void spool_each(void *ctx, const uint8_t *resource, size_t resource_len,
			const uint8_t *record, size_t record_len, uint64_t end);

/*
 * Opens the directory at path (made, mode 0700, when it is missing, but
 * not its parents), locks it, gives each record an earlier run left
 * unacknowledged to each, reporting damage on stderr, removes segments
 * with nothing left to send, and starts a segment for this run.  At most
 * max_bytes in segments.  0, or -1 after saying why on stderr (the
 * directory refused, used by another export, not writable...).
 */
int spool_open(struct spool *s, const char *path, uint64_t max_bytes, spool_each *each,
	       void *ctx);

/* Frames a record for the next spool_commit; its position into *end.
 * False when it does not fit in max_bytes (with those framed before it),
 * memory runs out or a new segment cannot be started: then nothing of
 * it stays. */
bool spool_append(struct spool *s, const uint8_t *resource, size_t resource_len,
		  const uint8_t *record, size_t record_len, uint64_t *end);

/* Writes the records framed since the last commit, in one write.  False
 * when they cannot all be written (said on stderr, once until a write
 * succeeds again): then none of them stays, and they are not on disk. */
bool spool_commit(struct spool *s);

/* The records up to the position end are acknowledged: it is written
 * to "ack", and segments with nothing after it removed. */
void spool_ack(struct spool *s, uint64_t end);

/* Makes what was written, acknowledged and removed so far durable. */
void spool_sync(struct spool *s);

/* spool_commit and spool_sync, then closes, which unlocks. */
void spool_close(struct spool *s);

#endif
