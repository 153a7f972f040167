/* SPDX-License-Identifier: MIT */
/*
 * A program's standard output and error as events, a line each, where
 * they are a log (what write() and C's stdio write there): a stream to journald (a socket whose inode
 * JOURNAL_STREAM names, or whose peer is /run/systemd/journal/stdout),
 * or a stream EHSYSLOG_STDIO names.  Descriptors 1 and 2 are looked at
 * once, at the program's first write() or writev() or stdio call on
 * them (none at start-up);
 * one found is watched as a socket of kind EHS_SOCK_OUTPUT
 * (../socket/socket.h), so that the interposer's write calls hand its
 * bytes here after the kernel took them.
 *
 * Lines are cut as journald cuts them (line.h), with its priority rules:
 * the "<N>" prefix when present, else info; facility daemon; the event
 * named by the program's short name, with a "stream" field of "stdout"
 * or "stderr".  A line written in several calls is one event, several
 * lines in one call several events.  What the program writes while no
 * one traces is not kept: the first line traced is the first that
 * starts after tracing did.
 */
#ifndef EHS_BRIDGE_OUTPUT_OUTPUT_H
#define EHS_BRIDGE_OUTPUT_OUTPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "bridge/output/line.h"
#include "bridge/pri_table.h"
#include "bridge/socket/socket.h"
#include "common/hidden.h"

struct iovec;

/* Whether descriptors 1 and 2 were looked at, and what was found. */
enum { EHS_OUTPUT_UNSEEN, EHS_OUTPUT_NONE, EHS_OUTPUT_SOME };
extern EHS_HIDDEN int ehs_output_state;

/* Looks at descriptors 1 and 2 and watches those that are a log, unless
 * done: an fstat of each, a getpeername of a socket.  A call made while
 * another thread looks waits for it (not one made inside the library: a
 * handler that interrupted the looking).  errno preserved. */
void ehs_output_find(void);

/* Whether descriptors 1 and 2 were looked at: a write or writev that
 * finds them not looked at yet takes the interposer's slow way, which
 * looks, even where a syslog socket watched already gave it a fast
 * one.  One load. */
static inline bool ehs_output_looked(void)
{
	int s = __atomic_load_n(&ehs_output_state, __ATOMIC_RELAXED);
	return s == EHS_OUTPUT_NONE || s == EHS_OUTPUT_SOME;
}

/* Whether a stream is watched, looking first if nobody has: one load
 * once looked. */
static inline bool ehs_output_any(void)
{
	int s = __atomic_load_n(&ehs_output_state, __ATOMIC_ACQUIRE);
	if (__builtin_expect(s == EHS_OUTPUT_NONE, 1))
		return false;
	if (s != EHS_OUTPUT_SOME) {
		ehs_output_find();
		s = __atomic_load_n(&ehs_output_state, __ATOMIC_ACQUIRE);
	}
	return s == EHS_OUTPUT_SOME;
}

/* Whether a line's event can be traced now: one load of the priority
 * table's eight bytes of facility daemon (../pri_table.h), each of them
 * registered as an enabler of its level's tracepoint when a stream is
 * found (a byte not registered yet reads as traced, and the traced path
 * registers it), and one of the uprobe sites' gate. */
static inline bool ehs_output_lines_traced(void)
{
	return usdt_any() || ehs_pri_table_facility_busy(LOG_FAC(LOG_DAEMON));
}

/* What the calls nobody traced left on each stream ([0] standard
 * output) since a traced one last looked: EHS_OUTPUT_IDLE_SEEN with the
 * last byte the kernel took, 0 when there were none.  Stored with no
 * lock; a traced call takes it under the stream's own (stream.c), so
 * that the first line traced is the first that starts after tracing
 * did.  The byte rather than whether it ends a line: fewer instructions
 * on the untraced way, the test made once by the traced call. */
#define EHS_OUTPUT_IDLE_SEEN 0x100u
extern EHS_HIDDEN unsigned short ehs_output_idle_end[2];

/* A call on watched stream fd (1 or 2) that nobody traced, the last
 * byte the kernel took last.  One store. */
static inline void ehs_output_idle_sent(int fd, char last)
{
	__atomic_store_n(&ehs_output_idle_end[(fd - 1) & 1],
			 (unsigned short)(EHS_OUTPUT_IDLE_SEEN | (unsigned char)last), __ATOMIC_RELEASE);
}

/* The same, where the caller knows only whether a line ended. */
static inline void ehs_output_untraced(int fd, bool line_ended)
{
	ehs_output_idle_sent(fd, line_ended ? '\n' : ' ');
}

/* The kernel took the first sent bytes of iov[0..n) written to fd, a
 * watched output stream: their lines' events, the rest kept until the
 * line ends.  Only for iovecs the kernel has read.  errno preserved. */
void ehs_output_sent(int fd, const struct iovec *iov, size_t n, size_t sent);

/*
 * Replace mode: whether the library answers a write of iov[0..n) (the
 * program's pointers, unchecked) to watched output stream fd instead of
 * the kernel, each of its lines an event, *taken its byte count.  Only
 * for whole lines after whole lines (no line in progress on the stream,
 * the bytes ending with a line's end), at most a line's most (LineMax)
 * in all, every byte readable (so that a bad pointer gets the kernel's
 * EFAULT), and where each level's event can be written (ehs_deliverable).
 * Else false: the call goes to the kernel, its lines made events as in
 * pass-through.  errno preserved.
 */
bool ehs_output_replace(int fd, const struct iovec *iov, size_t n, size_t *taken);

/*
 * C's stdio, which writes through libc's own write() that no interposer
 * reaches (../../../preload/stdio.c): a call on descriptor fd that
 * returned success, its bytes handed over as ehs_output_sent's.  Printed:
 * the len bytes fmt formats with ap (ap not consumed; errno saved_errno
 * for %m, as at the call); put: len bytes at p.  Nothing for another
 * descriptor or one not watched; for one nobody traces, only whether
 * the text ended a line (fmt's own end tells).  errno preserved.
 */
void ehs_output_printed_traced(int fd, int saved_errno, size_t len, const char *fmt, va_list ap);
void ehs_output_put(int fd, const void *p, size_t len);

/*
 * Replace mode, for a formatted stdio call on watched stream fd (1 or
 * 2) before it is made: whether the library answers it instead, with
 * ehs_output_replace's rules, *r the call's answer (the text's length).
 * The text is formatted here (errno saved_errno for %m; flag a _chk
 * form's, whose checks then stop the program here as in the call, -1
 * for the others; ap not consumed); one longer than a scratch slot
 * (../scratch.h) is not answered.  Else false: the caller makes the
 * call.  errno preserved.
 */
bool ehs_output_print_instead(int fd, int flag, int saved_errno, const char *fmt, va_list ap,
			      int *r);

/* A formatted call on fd that nobody traced returned success: only
 * whether its text ended a line, which fmt's own end tells. */
static inline void ehs_output_printed_untraced(int fd, const char *fmt)
{
	if (ehs_sock_is_output(fd)) {
		size_t n = __builtin_strlen(fmt);
		ehs_output_untraced(fd, n && fmt[n - 1] == '\n');
	}
}

static inline void ehs_output_printed(int fd, int saved_errno, size_t len, const char *fmt,
				      va_list ap)
{
	if (!len || !ehs_sock_is_output(fd))
		return;
	if (__builtin_expect(!ehs_output_lines_traced(), 1))
		ehs_output_printed_untraced(fd, fmt);
	else
		ehs_output_printed_traced(fd, saved_errno, len, fmt, ap);
}

#endif
