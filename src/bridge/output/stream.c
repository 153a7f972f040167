/* SPDX-License-Identifier: MIT */
/*
 * The lines in progress on the watched output streams (output.h).
 *
 * Each of descriptors 1 and 2 has one line buffer of journald's LineMax,
 * mapped when the first stream is found.  A call takes its stream with
 * an exchange, appends, makes the events of the lines it completes, and
 * gives it back.  No lock a signal handler can wait on: a handler that
 * finds the stream taken (it interrupted the call that holds it) does
 * not wait, nor does a thread after a short spin; each makes the events
 * of its own bytes, a line each, its unfinished last line too.  That is
 * the one place a line is cut where journald would not cut it.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "bridge/ident.h"
#include "bridge/output/line.h"
#include "bridge/output/output.h"
#include "bridge/output/stream.h"
#include "bridge/pri_table.h"
#include "bridge/socket/socket.h"

struct stream {
	int held;		/* a call is appending (atomic) */
	bool skipping;		/* bytes came while untraced: the next line
				 * starts after the next end */
	size_t len;		/* the line so far, in line[] */
	char line[EHS_OUTPUT_LINE_MAX];
};

/* [0]: standard output, [1]: standard error. */
static struct stream *streams;

unsigned short ehs_output_idle_end[2];

/* Pauses a spinning thread takes before it stops waiting for a stream:
 * far more than one line's events take to write. */
#define SPIN_MAX (1U << 18)

/* A forked child starts with no line in progress: the parent's is the
 * parent's to finish, and a call the fork cut short holds nothing here. */
static void child_forgets(void)
{
	struct stream *s = __atomic_load_n(&streams, __ATOMIC_ACQUIRE);
	for (int i = 0; s && i < 2; i++) {	/* not the lines' pages: no copy */
		s[i].held = 0;
		s[i].skipping = false;
		s[i].len = 0;
		ehs_output_idle_end[i] = 0;
	}
}

bool ehs_output_streams_mapped(void)
{
	struct stream *s = __atomic_load_n(&streams, __ATOMIC_ACQUIRE);
	if (s)
		return true;
	void *p = mmap(NULL, 2 * sizeof *s, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return false;
	if (!__atomic_compare_exchange_n(&streams, &s, p, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		munmap(p, 2 * sizeof *s);
		return true;
	}
	(void)pthread_atfork(NULL, NULL, child_forgets);
	return true;
}

/* A severity of each level: a line's prefix picks its level, its
 * facility is daemon. */
static const int one_a_level[] = { LOG_CRIT, LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
#define LEVELS (sizeof one_a_level / sizeof one_a_level[0])

/* Each priority's byte of facility daemon registered, the one load that
 * tells whether lines are traced (output.h): cheap once done. */
static void arm_lines(void)
{
	ehs_pri_table_arm_facility(LOG_FAC(LOG_DAEMON));
}

void ehs_output_prepare(void)
{
	for (size_t i = 0; i < LEVELS; i++)
		(void)ehs_traced(one_a_level[i], LOG_FAC(LOG_DAEMON));
	arm_lines();
}

/* Whether every level's event of a line can be written (ehs_deliverable),
 * for replace mode: each level at facility daemon. */
static bool deliverable(void)
{
	for (size_t i = 0; i < LEVELS; i++)
		if (!ehs_deliverable(one_a_level[i], LOG_FAC(LOG_DAEMON)))
			return false;
	return true;
}

/* The event of one entry p[0..len) of fd's stream, as journald reads it. */
static void line_event(int fd, const char *p, size_t len, int saved)
{
	int severity = LOG_INFO;
	size_t prefix = ehs_output_prefix(p, len, &severity);
	if (len == prefix)
		return;
	const struct ehs_extra stream = { "stream", fd == 1 ? "stdout" : "stderr", 6, false };
	/* The program's short name: the ident's own name, which the emitter
	 * keeps built, unless openlog named another (an openlog racing
	 * with the line may name it). */
	const char *ident = ehs_ident();
	const struct ehs_source src = {
		.name = ident && *ident ? program_invocation_short_name : NULL,
		.extra = &stream,
		.nextra = 1,
	};
	(void)ehs_log(severity, LOG_FAC(LOG_DAEMON), saved, &src, p + prefix, len - prefix);
}

/* p[0..len) appended to s's line: the events of the lines it ends. */
static void append(struct stream *s, int fd, const char *p, size_t len, int saved)
{
	while (len) {
		size_t end, line_len, used;
		if (s->skipping) {
			if ((end = ehs_output_end(p, len)) == len)
				return;
			s->skipping = false;
			p += end + 1;
			len -= end + 1;
		} else if (!s->len && (used = ehs_output_cut(p, len, &line_len))) {
			line_event(fd, p, line_len, saved);	/* whole: from the caller's bytes */
			p += used;
			len -= used;
		} else if (!s->len) {
			memcpy(s->line, p, len);	/* less than a line's most */
			s->len = len;
			return;
		} else {
			size_t room = EHS_OUTPUT_LINE_MAX - s->len;
			size_t look = len < room ? len : room;
			end = ehs_output_end(p, look);
			memcpy(s->line + s->len, p, end);
			s->len += end;
			used = end < look ? end + 1 : look;
			if (end < look || s->len == EHS_OUTPUT_LINE_MAX) {
				line_event(fd, s->line, s->len, saved);
				s->len = 0;
			}
			p += used;
			len -= used;
		}
	}
}

/* p[0..len) without a stream to keep a line in: a line each, the last
 * one too, ended or not. */
static void loose(int fd, const char *p, size_t len, int saved)
{
	while (len) {
		size_t line_len, used = ehs_output_cut(p, len, &line_len);
		if (!used)
			line_len = used = len;
		line_event(fd, p, line_len, saved);
		p += used;
		len -= used;
	}
}

static bool take(struct stream *s)
{
	for (unsigned spin = 0;; spin++) {
		if (!__atomic_exchange_n(&s->held, 1, __ATOMIC_ACQUIRE))
			return true;
		if (ehs_busy > 1 || spin == SPIN_MAX)
			return false;	/* a handler over the holder, or a stuck one */
		ehs_output_pause();
	}
}

/* Whether the first sent bytes of iov[0..n) end with a line's end. */
static bool ends_line(const struct iovec *iov, size_t n, size_t sent)
{
	char last = '\n';
	for (size_t i = 0, left = sent; i < n && left; i++) {
		size_t len = iov[i].iov_len < left ? iov[i].iov_len : left;
		if (len)
			last = ((const char *)iov[i].iov_base)[len - 1];
		left -= len;
	}
	return ehs_output_ends(last);
}

/* Untraced: nothing kept, but whether the call left a line unfinished. */
static void untraced(struct stream *s, bool line_ended)
{
	s->len = 0;
	s->skipping = !line_ended;
}

/* Taken s, fd's: what calls nobody traced left since (output.h's
 * ehs_output_idle_end) drops the line in progress, and tells whether the
 * next starts afresh. */
static void catch_up(struct stream *s, int fd)
{
	unsigned was = __atomic_exchange_n(&ehs_output_idle_end[fd - 1], 0, __ATOMIC_ACQUIRE);
	if (was)
		untraced(s, ehs_output_ends((char)(was & 0xff)));
}

/* At exit, journald's cut at the end of a stream: each stream's unfinished
 * line an event.  An unprioritised destructor, so before the writer's
 * own (ue_fini runs last).  Not after _exit() or a fatal signal. */
__attribute__((destructor)) static void streams_end(void)
{
	struct stream *all = __atomic_load_n(&streams, __ATOMIC_ACQUIRE);
	if (!all)
		return;
	int saved = errno;
	ehs_busy++;
	for (int fd = 1; fd <= 2; fd++) {
		struct stream *s = &all[fd - 1];
		if (!take(s))
			continue;
		catch_up(s, fd);
		if (s->len && !s->skipping && ehs_output_lines_traced())
			line_event(fd, s->line, s->len, saved);
		s->len = 0;
		__atomic_store_n(&s->held, 0, __ATOMIC_RELEASE);
	}
	ehs_busy--;
	errno = saved;
}

bool ehs_output_traced_on(int fd)
{
	return ehs_sock_is_output(fd) && __atomic_load_n(&streams, __ATOMIC_ACQUIRE) &&
	       ehs_output_lines_traced();
}

static void sent_traced(struct stream *s, int fd, const struct iovec *iov, size_t n,
			size_t sent);

/* The program's iov[0..n) (pointers unchecked) copied into s's line
 * buffer, read without faulting (ehs_sock_copy_in): their total, or 0
 * where the kernel would refuse them, they are empty or longer than the
 * buffer. */
static size_t copy_in(struct stream *s, const struct iovec *iov, size_t n)
{
	struct iovec part[16];
	size_t total = 0;
	for (size_t i = 0, m; i < n; i += m) {
		m = n - i < sizeof part / sizeof part[0] ? n - i : sizeof part / sizeof part[0];
		if (ehs_sock_copy_in(part, iov + i, m * sizeof part[0]) < 0)
			return 0;
		for (size_t j = 0; j < m; j++) {
			size_t len = part[j].iov_len;
			if (len > EHS_OUTPUT_LINE_MAX - total ||
			    (len && ehs_sock_copy_in(s->line + total, part[j].iov_base, len) < 0))
				return 0;
			total += len;
		}
	}
	return total;
}

bool ehs_output_replace(int fd, const struct iovec *iov, size_t n, size_t *taken)
{
	struct stream *all = __atomic_load_n(&streams, __ATOMIC_ACQUIRE);
	if (!all || (fd != 1 && fd != 2) || n > IOV_MAX || !ehs_sock_acts(true) ||
	    !ehs_sock_holds(fd) || !deliverable())
		return false;
	struct stream *s = &all[fd - 1];
	int saved = errno;
	bool replaced = false;
	ehs_busy++;
	if (take(s)) {
		catch_up(s, fd);
		/* Whole lines only, after whole lines: a line in progress
		 * went to the kernel in part already. */
		size_t total = !s->len && !s->skipping ? copy_in(s, iov, n) : 0;
		if (total && ehs_output_ends(s->line[total - 1])) {
			if (ehs_output_lines_traced())
				loose(fd, s->line, total, saved);
			*taken = total;
			replaced = true;
		}
		__atomic_store_n(&s->held, 0, __ATOMIC_RELEASE);
	}
	ehs_busy--;
	errno = saved;
	return replaced;
}

void ehs_output_sent(int fd, const struct iovec *iov, size_t n, size_t sent)
{
	struct stream *all = __atomic_load_n(&streams, __ATOMIC_ACQUIRE);
	if (!all || (fd != 1 && fd != 2) || !sent)
		return;
	if (__builtin_expect(!ehs_output_lines_traced(), 1))
		ehs_output_untraced(fd, ends_line(iov, n, sent));
	else
		sent_traced(&all[fd - 1], fd, iov, n, sent);
}

/* ehs_output_sent's traced path, out of line: the untraced one keeps a
 * small frame. */
static __attribute__((noinline)) void sent_traced(struct stream *s, int fd,
						  const struct iovec *iov, size_t n, size_t sent)
{
	int saved = errno;
	arm_lines();
	ehs_busy++;
	bool held = take(s);
	if (held)
		catch_up(s, fd);
	if (!ehs_sock_holds(fd)) {
		if (held)
			untraced(s, ends_line(iov, n, sent));
	} else {
		for (size_t i = 0, left = sent; i < n && left; i++) {
			size_t len = iov[i].iov_len < left ? iov[i].iov_len : left;
			if (held)
				append(s, fd, iov[i].iov_base, len, saved);
			else
				loose(fd, iov[i].iov_base, len, saved);
			left -= len;
		}
	}
	if (held)
		__atomic_store_n(&s->held, 0, __ATOMIC_RELEASE);
	ehs_busy--;
	errno = saved;
}
