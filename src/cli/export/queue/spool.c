/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/export/queue/spool.h"
#include "cli/export/queue/spool_file.h"
#include "cli/export/queue/spool_frame.h"
#include "cli/export/queue/spool_replay.h"

#define ACK "ack"
static int add_segment(struct spool *s, uint64_t base, uint64_t size)
{
	struct spool_segment *grown = realloc(s->segs, (s->nsegs + 1) * sizeof *s->segs);

	if (grown == NULL)
		return -1;
	s->segs = grown;
	s->segs[s->nsegs++] = (struct spool_segment){ base, size };
	s->bytes += size;
	return 0;
}

static void forget_segment(struct spool *s, size_t i)
{
	s->bytes -= s->segs[i].size;
	memmove(&s->segs[i], &s->segs[i + 1], (s->nsegs - i - 1) * sizeof *s->segs);
	s->nsegs--;
}

static int by_base(const void *a, const void *b)
{
	const struct spool_segment *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

/* The directory's segments, by base.  -1 after saying why. */
static int list_segments(struct spool *s)
{
	int fd = openat(s->dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		fprintf(stderr, "ehsyslog export: cannot list %s: %s\n", s->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (errno = 0; (e = readdir(d)) != NULL; errno = 0) {
		uint64_t base;
		off_t size;
		int own;

		if (!spool_segment_base(e->d_name, &base))
			continue;
		own = spool_file_own(s->dir, e->d_name, &size);
		if (own < 0) {
			fprintf(stderr, "ehsyslog export: %s/%s: %s\n", s->path, e->d_name,
				strerror(errno));
			closedir(d);
			return -1;
		}
		if (!own) {
			fprintf(stderr, "ehsyslog export: %s/%s: not a regular file of export's user: "
				"skipped\n", s->path, e->d_name);
			continue;
		}
		/* Positions after it must still fit in 64 bits. */
		if (base > UINT64_MAX / 2 || (uint64_t)size > UINT64_MAX / 2 - base) {
			fprintf(stderr, "ehsyslog export: %s/%s: not a queue segment (its name): skipped\n",
				s->path, e->d_name);
			continue;
		}
		if (add_segment(s, base, (uint64_t)size) < 0) {
			fprintf(stderr, "ehsyslog export: out of memory\n");
			closedir(d);
			return -1;
		}
	}
	if (errno != 0) {
		fprintf(stderr, "ehsyslog export: cannot list %s: %s\n", s->path, strerror(errno));
		closedir(d);
		return -1;
	}
	closedir(d);
	if (s->nsegs > 1)	/* segs is NULL while there is none */
		qsort(s->segs, s->nsegs, sizeof *s->segs, by_base);
	return 0;
}

/* Sets aside an "ack" that is no regular file of export's user, said:
 * nothing is taken as acknowledged, every record is sent again.  Not
 * being able to rename it is no reason to stop: writing "ack" then
 * fails, said as any failure to write it. */
static void set_ack_aside(struct spool *s)
{
	char aside[SPOOL_NAME_SIZE + 16];

	if (spool_set_aside(s->dir, ACK, aside, sizeof aside) == 0)
		fprintf(stderr, "ehsyslog export: %s/%s: not a regular file of export's user: set "
			"aside as %s: every record in %s is sent again\n", s->path, ACK, aside,
			s->path);
	else
		fprintf(stderr, "ehsyslog export: %s/%s: not a regular file of export's user, cannot "
			"be set aside: %s: every record in %s is sent again\n", s->path, ACK,
			strerror(errno), s->path);
}

/* An acknowledgement past the last segment's end was never written by
 * export, whose last segment always ends at or after it: damage, whose
 * records are sent again rather than hidden. */
static void check_ack_in_queue(struct spool *s)
{
	uint64_t end;

	if (s->nsegs == 0)	/* a run stopped between removing and starting */
		return;
	end = s->segs[s->nsegs - 1].base + s->segs[s->nsegs - 1].size;
	if (s->acked <= end)
		return;
	fprintf(stderr, "ehsyslog export: %s/%s: damaged: past the queue's end (%llu, the queue "
		"ends at %llu): every record in %s is sent again\n", s->path, ACK,
		(unsigned long long)s->acked, (unsigned long long)end, s->path);
	s->acked = 0;
}

/* The acknowledged position "ack" holds: 0 when it is missing, or
 * damaged (said).  The slot written next is the other one than that
 * position's: the last one written stays whole whatever becomes of the
 * next write.  -1 when it cannot be read, after saying why. */
static int read_ack(struct spool *s)
{
	uint8_t buf[SPOOL_ACK_FILE];
	unsigned slot = 1;
	int fd = spool_file_open(s->dir, ACK, O_RDONLY);
	ssize_t n;

	s->acked = 0;
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd == SPOOL_FILE_FOREIGN) {
		set_ack_aside(s);
		return 0;
	}
	if (fd < 0 || (n = read(fd, buf, sizeof buf)) < 0) {
		fprintf(stderr, "ehsyslog export: cannot read %s/%s: %s\n", s->path, ACK,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (!spool_ack_decode(buf, (size_t)n, &s->acked, &slot))
		fprintf(stderr, "ehsyslog export: %s/%s: damaged: every record in %s is sent again\n",
			s->path, ACK, s->path);
	s->ack_slot = slot ^ 1;
	return 0;
}

/* Writes all of buf to fd (a regular file's) at offset off. */
static int write_all_at(int fd, const void *buf, size_t len, off_t off)
{
	ssize_t n;

	while ((n = pwrite(fd, buf, len, off)) < 0 && errno == EINTR)
		;
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = ENOSPC;	/* what a short write to a file means */
		return -1;
	}
	return 0;
}

/* fsync or fdatasync of fd, saying the first failure of a run. */
static void sync_fd(struct spool *s, int fd, bool data, const char *name, bool *unsynced)
{
	if ((data ? fdatasync(fd) : fsync(fd)) == 0) {
		*unsynced = false;
		return;
	}
	if (!s->told_sync)
		fprintf(stderr, "ehsyslog export: cannot sync %s/%s: %s\n", s->path, name,
			strerror(errno));
	s->told_sync = true;
}

/* Forgets the segment of that base, if one is listed. */
static void forget_base(struct spool *s, uint64_t base)
{
	for (size_t i = 0; i < s->nsegs; i++)
		if (s->segs[i].base == base) {
			forget_segment(s, i);
			return;
		}
}

/* Creates the file of the segment at *base, its name into name.  What
 * is in the way (an empty file a crash left just after creating it, a
 * directory, a FIFO, a link) is said and set aside, or when it cannot be,
 * skipped: the segment starts at the next base, any number after the
 * last position serving.  -1 after saying why. */
static int create_segment(struct spool *s, uint64_t *base, char name[SPOOL_NAME_SIZE])
{
	char aside[SPOOL_NAME_SIZE + 16];
	int fd;

	for (int tries = 0; tries < 8; tries++) {
		spool_segment_name(name, *base);
		fd = spool_file_open(s->dir, name, O_WRONLY | O_CREAT | O_EXCL | O_APPEND);
		if (fd >= 0 || fd == SPOOL_FILE_FOREIGN || errno != EEXIST)
			break;
		if (spool_set_aside(s->dir, name, aside, sizeof aside) == 0) {
			fprintf(stderr, "ehsyslog export: %s/%s: in the way of a new segment: set "
				"aside as %s\n", s->path, name, aside);
			forget_base(s, *base);
			s->unsynced_dir = true;
			continue;
		}
		fprintf(stderr, "ehsyslog export: %s/%s: in the way of a new segment, cannot be set "
			"aside: %s: skipped\n", s->path, name, strerror(errno));
		++*base;
	}
	if (fd < 0)
		fprintf(stderr, "ehsyslog export: cannot create %s/%s: %s\n", s->path, name,
			strerror(fd == SPOOL_FILE_FOREIGN ? EEXIST : errno));
	return fd;
}

/* Starts segment base as the one written; the last one is synced and
 * closed.  -1 after saying why, nothing left of the new one and the last
 * one still written. */
static int start_segment(struct spool *s, uint64_t base)
{
	uint8_t header[SPOOL_SEGMENT_HEADER];
	char name[SPOOL_NAME_SIZE], last[SPOOL_NAME_SIZE];
	int fd = create_segment(s, &base, name);

	if (fd < 0)
		return -1;
	spool_segment_header(header, base);
	/* A new file: its start is its end, where O_APPEND writes. */
	if (write_all_at(fd, header, sizeof header, 0) < 0 ||
	    add_segment(s, base, sizeof header) < 0) {
		fprintf(stderr, "ehsyslog export: cannot write %s/%s: %s\n", s->path, name,
			strerror(errno));
		close(fd);
		/* Best effort: a file left has nothing to send, and the
		 * next run removes it (or once what follows it is sent). */
		unlinkat(s->dir, name, 0);
		return -1;
	}
	if (s->fd >= 0) {
		/* The segment left is complete on disk before it is closed. */
		spool_segment_name(last, s->segs[s->nsegs - 2].base);
		if (s->unsynced_data)
			sync_fd(s, s->fd, true, last, &s->unsynced_data);
		close(s->fd);
	}
	s->fd = fd;
	s->unsynced_data = s->unsynced_dir = true;
	s->has_resource = false;	/* a segment is read on its own */
	return 0;
}

/* Removes segment i, its file and its entry; a file that cannot be
 * removed is said and kept, counted, for the next try. */
static void remove_segment(struct spool *s, size_t i)
{
	char name[SPOOL_NAME_SIZE];

	spool_segment_name(name, s->segs[i].base);
	if (unlinkat(s->dir, name, 0) < 0 && errno != ENOENT) {
		fprintf(stderr, "ehsyslog export: cannot remove %s/%s: %s\n", s->path, name,
			strerror(errno));
		return;
	}
	forget_segment(s, i);
	s->unsynced_dir = true;
}

static int replay(struct spool *s, spool_each *each, void *ctx)
{
	uint64_t next = s->acked;
	size_t i = 0;

	while (i < s->nsegs) {
		struct spool_segment g = s->segs[i];
		size_t before = s->nsegs;

		if (g.base + g.size > next)
			next = g.base + g.size;
		if (!spool_replay_segment(s, &g, each, ctx))
			remove_segment(s, i);
		if (s->nsegs == before)
			i++;	/* kept, or could not be removed (said) */
	}
	return start_segment(s, next);
}

int spool_open(struct spool *s, const char *path, uint64_t max_bytes, spool_each *each,
	       void *ctx)
{
	*s = (struct spool){ .dir = -1, .fd = -1, .ack_fd = -1, .path = path,
			     .max_bytes = max_bytes };
	s->segment_bytes = max_bytes / 8 > 4096 ? max_bytes / 8 : 4096;
	s->dir = spool_dir_open(path);
	if (s->dir < 0)
		return -1;
	if (flock(s->dir, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			fprintf(stderr, "ehsyslog export: the queue's directory %s is in use by another export\n",
				path);
		else
			fprintf(stderr, "ehsyslog export: cannot lock the queue's directory %s: %s\n",
				path, strerror(errno));
		spool_close(s);
		return -1;
	}
	if (read_ack(s) < 0 || list_segments(s) < 0) {
		spool_close(s);
		return -1;
	}
	check_ack_in_queue(s);
	if (replay(s, each, ctx) < 0) {
		spool_close(s);
		return -1;
	}
	return 0;
}

/* Room for n more bytes of frames in s->pending; false when memory
 * runs out. */
static bool pending_room(struct spool *s, size_t n)
{
	size_t cap = s->pending_cap ? s->pending_cap : 64 * 1024;
	uint8_t *p;

	if (n <= s->pending_cap - s->pending_len)
		return true;
	while (cap - s->pending_len < n) {
		if (cap > SIZE_MAX / 2)
			return false;
		cap *= 2;
	}
	p = realloc(s->pending, cap);
	if (p == NULL)
		return false;
	s->pending = p;
	s->pending_cap = cap;
	return true;
}

/* Whether the last frame appended to this segment had that resource. */
static bool same_resource(const struct spool *s, const uint8_t *resource, size_t resource_len)
{
	return s->has_resource && s->resource_len == resource_len &&
	       (resource_len == 0 || memcmp(s->resource, resource, resource_len) == 0);
}

/* Keeps a copy of the resource just framed in full, for the next frames
 * to refer to; when memory runs out, none is kept: the next is framed in
 * full too. */
static void keep_resource(struct spool *s, const uint8_t *resource, size_t resource_len)
{
	if (resource_len > s->resource_cap) {
		uint8_t *p = realloc(s->resource, resource_len);

		if (p == NULL) {
			s->has_resource = false;
			return;
		}
		s->resource = p;
		s->resource_cap = resource_len;
	}
	if (resource_len > 0)	/* resource may be NULL then */
		memcpy(s->resource, resource, resource_len);
	s->resource_len = resource_len;
	s->has_resource = true;
}

/* Frames a record at p: of the resource before when same, in full
 * otherwise. */
static void frame(struct spool *s, uint8_t *p, bool same, const uint8_t *resource,
		  size_t resource_len, const uint8_t *record, size_t record_len)
{
	if (same) {
		spool_frame_header_same(p, record, record_len);
		memcpy(p + SPOOL_FRAME_HEADER, record, record_len);
		return;
	}
	spool_frame_header(p, resource, resource_len, record, record_len);
	memcpy(p + SPOOL_FRAME_HEADER, resource, resource_len);
	memcpy(p + SPOOL_FRAME_HEADER + resource_len, record, record_len);
	keep_resource(s, resource, resource_len);
}

bool spool_append(struct spool *s, const uint8_t *resource, size_t resource_len,
		  const uint8_t *record, size_t record_len, uint64_t *end)
{
	struct spool_segment *g = &s->segs[s->nsegs - 1];
	/* A batch is written whole into one segment: a new one is started
	 * before a batch, never inside one. */
	bool rotate = s->pending_len == 0 && g->size >= s->segment_bytes;
	bool same = !rotate && same_resource(s, resource, resource_len);
	uint64_t n = SPOOL_FRAME_HEADER + (same ? 0 : (uint64_t)resource_len) + record_len;
	uint8_t *p;

	if (resource_len > UINT32_MAX || record_len > UINT32_MAX || n > SIZE_MAX ||
	    s->bytes + s->pending_len + n + (rotate ? SPOOL_SEGMENT_HEADER : 0) > s->max_bytes ||
	    !pending_room(s, (size_t)n))
		return false;
	if (rotate) {
		if (start_segment(s, g->base + g->size) < 0)
			return false;
		g = &s->segs[s->nsegs - 1];
	}
	p = s->pending + s->pending_len;
	frame(s, p, same, resource, resource_len, record, record_len);
	s->pending_len += (size_t)n;
	*end = g->base + g->size + s->pending_len;
	return true;
}

bool spool_commit(struct spool *s)
{
	struct spool_segment *g = &s->segs[s->nsegs - 1];
	char name[SPOOL_NAME_SIZE];
	size_t done = 0;
	ssize_t w = 0;

	while (done < s->pending_len) {
		w = write(s->fd, s->pending + done, s->pending_len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (done < s->pending_len) {
		int err = w < 0 ? errno : ENOSPC;	/* 0 bytes: what a full file system gives */

		spool_segment_name(name, g->base);
		/* The part written is taken back; if it cannot be, it stays,
		 * counted, for the next run's check to skip. */
		if (done > 0 && ftruncate(s->fd, (off_t)g->size) < 0) {
			g->size += done;
			s->bytes += done;
		}
		if (!s->told_write)
			fprintf(stderr, "ehsyslog export: cannot write %s/%s: %s: records are dropped until it can\n",
				s->path, name, strerror(err));
		s->told_write = true;
		s->pending_len = 0;
		/* The resource kept may be the dropped batch's, and what was
		 * written of the batch stays if it could not be taken back:
		 * the next frame is framed in full, whatever is before it. */
		s->has_resource = false;
		return false;
	}
	g->size += done;
	s->bytes += done;
	if (done > 0) {
		s->unsynced_data = true;
		s->told_write = false;
	}
	s->pending_len = 0;
	return true;
}

/* Writes position into the slot of "ack" written next, and makes the
 * other slot the next: one pwrite, no file made or renamed.  A write cut
 * short (a power loss) damages only the slot being written; the other
 * keeps the position before, which sends again, never loses.  32 bytes
 * apart, in one sector: sectors of their own would not be guaranteed
 * anyway (the file system places the bytes), but two distinct records
 * are enough for a torn write to damage only one. */
static int write_ack(struct spool *s, uint64_t position)
{
	uint8_t buf[SPOOL_ACK_SIZE];

	if (s->ack_fd < 0) {
		s->ack_fd = spool_file_open(s->dir, ACK, O_WRONLY | O_CREAT);
		if (s->ack_fd == SPOOL_FILE_FOREIGN)
			errno = EEXIST;	/* put there since read_ack set the last aside */
		if (s->ack_fd < 0) {
			s->ack_fd = -1;
			return -1;
		}
		s->unsynced_dir = true;	/* it may be new */
	}
	spool_ack_encode(buf, position);
	if (write_all_at(s->ack_fd, buf, sizeof buf, (off_t)s->ack_slot * SPOOL_ACK_SLOT) < 0)
		return -1;
	/* Not after a failure: the slot it may have damaged is the one
	 * to write again, the other holding the last good position. */
	s->ack_slot ^= 1;
	return 0;
}

void spool_ack(struct spool *s, uint64_t end)
{
	if (end <= s->acked)
		return;
	s->acked = end;
	if (write_ack(s, end) < 0) {
		if (!s->told_ack)
			fprintf(stderr, "ehsyslog export: cannot write %s/%s: %s: a new run would send "
				"again what was sent\n", s->path, ACK, strerror(errno));
		s->told_ack = true;
	} else {
		s->told_ack = false;
		s->unsynced_ack = true;
	}
	while (s->nsegs > 1 && s->segs[0].base + s->segs[0].size <= s->acked) {
		size_t before = s->nsegs;

		remove_segment(s, 0);
		if (s->nsegs == before)
			break;	/* said; tried again at the next */
	}
}

void spool_sync(struct spool *s)
{
	char name[SPOOL_NAME_SIZE];

	if (s->unsynced_data && s->fd >= 0) {
		spool_segment_name(name, s->segs[s->nsegs - 1].base);
		sync_fd(s, s->fd, true, name, &s->unsynced_data);
	}
	if (s->unsynced_ack && s->ack_fd >= 0)
		sync_fd(s, s->ack_fd, false, ACK, &s->unsynced_ack);
	if (s->unsynced_dir)
		sync_fd(s, s->dir, false, ".", &s->unsynced_dir);
	if (!s->unsynced_data && !s->unsynced_ack && !s->unsynced_dir)
		s->told_sync = false;
}

void spool_close(struct spool *s)
{
	if (s->dir >= 0 && s->fd >= 0) {
		spool_commit(s);
		spool_sync(s);
	}
	free(s->pending);
	free(s->resource);
	if (s->fd >= 0)
		close(s->fd);
	if (s->ack_fd >= 0)
		close(s->ack_fd);
	if (s->dir >= 0)
		close(s->dir);
	free(s->segs);
	*s = (struct spool){ .dir = -1, .fd = -1, .ack_fd = -1 };
}
