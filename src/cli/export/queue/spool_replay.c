/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/export/queue/spool_file.h"
#include "cli/export/queue/spool_frame.h"
#include "cli/export/queue/spool_replay.h"

/* Says what a segment's replay skipped: damaged bytes (how many in all,
 * from where), a frame cut short at its end. */
static void tell_skipped(const struct spool *s, const char *name, size_t damaged,
			 size_t damaged_at, size_t cut, size_t cut_at)
{
	if (damaged > 0)
		fprintf(stderr, "ehsyslog export: %s/%s: damaged records skipped: %zu bytes from byte %zu\n",
			s->path, name, damaged, damaged_at);
	if (cut > 0)
		fprintf(stderr, "ehsyslog export: %s/%s: a record cut short skipped: %zu bytes from byte %zu\n",
			s->path, name, cut, cut_at);
}

/* The first size bytes of the file fd, read: a map would let whoever
 * truncates the file kill export with SIGBUS.  Fewer into *size when
 * the file has fewer now.  NULL with errno. */
static uint8_t *read_segment(int fd, size_t *size)
{
	uint8_t *p = malloc(*size);
	size_t done = 0;
	ssize_t n;

	if (p == NULL)
		return NULL;
	while (done < *size) {
		n = pread(fd, p + done, *size - done, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(p);
			return NULL;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	*size = done;
	return p;
}

bool spool_replay_segment(const struct spool *s, const struct spool_segment *g,
			  spool_each *each, void *ctx)
{
	size_t size = (size_t)g->size, pos = SPOOL_SEGMENT_HEADER;
	size_t damaged = 0, damaged_at = 0, cut = 0, cut_at = 0, last_len = 0;
	const uint8_t *resource = NULL;	/* the last one framed, if no damage since */
	char name[SPOOL_NAME_SIZE];
	bool live = false;
	uint8_t *p;
	int fd;

	spool_segment_name(name, g->base);
	if (g->size < SPOOL_SEGMENT_HEADER) {
		fprintf(stderr, "ehsyslog export: %s/%s: not a queue segment (its size): skipped\n",
			s->path, name);
		return true;
	}
	fd = spool_file_open(s->dir, name, O_RDONLY);
	if (fd == SPOOL_FILE_FOREIGN) {
		fprintf(stderr, "ehsyslog export: %s/%s: not a regular file of export's user: "
			"skipped\n", s->path, name);
		return true;
	}
	if (fd < 0) {
		fprintf(stderr, "ehsyslog export: cannot read %s/%s: %s: skipped\n", s->path, name,
			strerror(errno));
		return true;
	}
	p = read_segment(fd, &size);
	close(fd);
	if (p == NULL) {
		fprintf(stderr, "ehsyslog export: cannot read %s/%s: %s: skipped\n", s->path, name,
			strerror(errno));
		return true;
	}
	if (!spool_segment_header_ok(p, size, g->base)) {
		fprintf(stderr, "ehsyslog export: %s/%s: not a queue segment (its header): skipped\n",
			s->path, name);
		free(p);
		return true;
	}
	while (pos < size) {
		size_t resource_len, next;
		bool same;
		size_t n = spool_frame_check(p + pos, size - pos, &resource_len, &same);

		if (n > 0 && !(same && resource == NULL)) {
			if (!same) {
				resource = p + pos + SPOOL_FRAME_HEADER;
				last_len = resource_len;
			}
			if (g->base + pos + n > s->acked) {
				each(ctx, resource, last_len, p + pos + SPOOL_FRAME_HEADER + resource_len,
				     n - SPOOL_FRAME_HEADER - resource_len, g->base + pos + n);
				live = true;
			}
			pos += n;
			continue;
		}
		/* Damage: a frame that fails its check, and what follows up
		 * to the next that passes; or a whole frame of the resource
		 * before with none known (the segment's first, or after
		 * damage, which may have held another): skipped rather than
		 * given a resource that may not be its own. */
		next = n > 0 ? pos + n : spool_frame_next(p, size, pos + 1);
		resource = NULL;
		/* What is acknowledged was sent: its damage is no loss. */
		if (g->base + next > s->acked) {
			if (next == size && spool_frame_cut_short(p + pos, size - pos)) {
				cut = size - pos;
				cut_at = pos;
			} else {
				if (damaged == 0)
					damaged_at = pos;
				damaged += next - pos;
			}
		}
		pos = next;
	}
	free(p);
	tell_skipped(s, name, damaged, damaged_at, cut, cut_at);
	return live || damaged > 0 || cut > 0;
}
