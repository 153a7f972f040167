/* SPDX-License-Identifier: MIT */
/*
 * A tracepoint's channel copied by a caller inside the library that
 * writes to the same tracepoint again and again (EHS_EMIT's call sites,
 * bridge/api/native_site.c), so that its traced write is one compare and one
 * system call: no tracepoint, state word or descriptor flags to read.
 *
 * A copy is one word: the write index (high half) and the generation it
 * was taken in (low half).  ue__channel_gen moves, after the change, each
 * time something a copy stands for changes: a tracepoint's registration,
 * the descriptor (ue__live_fd), whether each write must check it
 * (fdguard.h), or, through ue__channel_moved(), something the caller
 * keyed its copies by.  A copy whose generation is not the current one
 * is stale: the caller goes back to ue_tracepoint_write_sized().  The
 * generation is odd, so a zeroed copy is never current; it wraps after
 * 2^31 changes.
 *
 * The descriptor is read at the write, from ue__live_fd: a copy holds
 * no number.  A write that passed the compare just before a change goes
 * where ue_tracepoint_write_sized's fast path would have gone, and to no
 * file of the program's: ue__live_fd is ours or negative.
 */
#ifndef UE_CHANNEL_H
#define UE_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include <ehsyslog/user_events.h>

#include "common/hidden.h"
#include "user_events/fdguard.h"
#include "user_events/sys.h"

extern EHS_HIDDEN uint32_t ue__channel_gen;

/* tp's channel as a copy, or 0 when tp has none to copy: not registered,
 * or its descriptor needs a check at each write.  Lock-free. */
EHS_HIDDEN uint64_t ue__channel_copy(struct ue_tracepoint *tp);

/* Makes every copy stale, for a caller whose copies were for something
 * of its own that changed. */
EHS_HIDDEN void ue__channel_moved(void);

static inline bool ue__channel_current(uint64_t copy)
{
	return (uint32_t)copy == __atomic_load_n(&ue__channel_gen, __ATOMIC_RELAXED);
}

/* ue_tracepoint_write_sized's system call for a current copy: iov[0] is
 * the writer's, as there.  Returns what writev does, -errno on failure;
 * errno untouched. */
static inline long ue__channel_writev(uint64_t copy, struct iovec *iov, unsigned long iovcnt)
{
	/* The word itself, its index half pointed at: no shift. */
	uint64_t word = copy;
	enum { index_at = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 4 : 0 };

	iov[0] = (struct iovec){ (char *)&word + index_at, sizeof(uint32_t) };
	return ue__sys_writev_raw(ue__our_fd(), iov, iovcnt);
}

#endif /* UE_CHANNEL_H */
