/* SPDX-License-Identifier: MIT */
/*
 * What a running `ehsyslog export` tells `ehsyslog status`: its counters,
 * published about once a second as a small text file,
 * DIR/export-<pid>.state, written to a temporary name and renamed over
 * it, so that a reader sees the last state or the one before, never half
 * of one.  A clean exit removes the file; one that stays behind a
 * process that is gone (SIGKILL) is stale: a running export holds a lock
 * on it (reader_alive.h), seen in every PID namespace that shares the
 * directory; one not locked is stale when the pid and start time in it
 * name no process (an older export's, which holds no lock).  A reader trusts nothing in it: the size is bounded, every
 * line parsed, and a file that breaks the format is reported, not used.
 *
 * The format, one "key value" per line, the first line first:
 *
 *   ehsyslog-export-state 1
 *   pid 1234                   the process
 *   start 5678                 its start time: /proc/<pid>/stat field 22
 *   endpoint http://...        the URL posted to
 *   sent 10                    records the collector took
 *   dropped 0                  records dropped (queue full, or refused)
 *   unsent 0                   records queued, not yet taken
 *   lost 0                     events the trace buffer lost
 *   collector ok               ok, failing (retrying), dropping (every batch
 *                              since the last one taken was dropped), or idle
 *                              (no answer yet)
 *   error ...                  the last failure, or empty when none came
 *   answer 401                 the last answer's HTTP status; 0: none came
 *   answer_time 1764328926     when it came or failed (Unix time); 0: no try yet
 *   message ...                the collector's, in its last error answer
 *   queue_full 0               of dropped: found the queue full
 *   refused 0                  of dropped: in a batch an answer refused
 *   rejected 0                 of dropped: a partial success rejected them
 *   given_up 0                 of dropped: in a batch retried too long
 *   drop ...                   the last batch dropped: how many, why
 *   drop_time 0                when (Unix time); 0: none was
 *
 * Unknown keys are skipped (a newer export's); a missing one makes the
 * file bad, but for those from answer on, which an older export did not
 * write: they are then 0 or empty.
 */
#ifndef EHSYSLOG_CLI_EXPORT_STATE_H
#define EHSYSLOG_CLI_EXPORT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A state file is at most this big; a text field at most this long. */
#define EXPORT_STATE_MAX 4096
#define EXPORT_STATE_TEXT 512

struct export_state {
	long pid;
	uintmax_t start;
	char endpoint[EXPORT_STATE_TEXT];
	unsigned long long sent, dropped, unsent, lost;
	char collector[16];	/* "ok", "failing", "dropping" or "idle" */
	char error[EXPORT_STATE_TEXT];
	unsigned long long answer;	/* HTTP status */
	unsigned long long answer_time, drop_time;	/* Unix time */
	char message[EXPORT_STATE_TEXT];
	unsigned long long queue_full, refused, rejected, given_up;	/* of dropped */
	char drop[EXPORT_STATE_TEXT];
};

/* This process's publishing: a file in dir, named for its pid. */
struct export_state_file {
	char path[4096], tmp[4096 + 8];
	int fd;	/* the file published last, locked (reader_alive.h); or -1 */
	bool warned;	/* a failure was said once on stderr */
};

/* url into s->endpoint, without the user and password it may hold
 * (http://user:password@host/): the file is readable by others. */
void export_state_endpoint(struct export_state *s, const char *url);

/* Prepares publishing into dir (made if missing) for this process, and
 * fills s->pid and s->start.  0, or -errno (said on stderr): export then
 * goes on without. */
int export_state_open(struct export_state_file *f, const char *dir, struct export_state *s);

/* Replaces the file with s.  0, or -errno; the first failure is said on
 * stderr, later ones are not, and the next call tries again. */
int export_state_publish(struct export_state_file *f, const struct export_state *s);

/* Removes the file (a clean exit). */
void export_state_close(struct export_state_file *f);

/* s as the file's text into buf (EXPORT_STATE_MAX bytes); newlines and
 * other control characters of the text fields become spaces.  Returns
 * the length. */
size_t export_state_format(const struct export_state *s, char *buf);

/* Parses text[0..len) into *s.  NULL, or why it is not a state file
 * (text valid until the next call). */
const char *export_state_parse(const char *text, size_t len, struct export_state *s);

enum export_state_kind {
	EXPORT_STATE_RUNNING,	/* its process runs */
	EXPORT_STATE_STALE,	/* its process is gone */
	EXPORT_STATE_BAD,	/* unreadable or not in the format: why says */
};

/* Called for each file export-<pid>.state of the directory, by pid; s
 * is NULL for a bad one. */
typedef void export_state_fn(void *ctx, const char *path, enum export_state_kind kind,
			     const struct export_state *s, const char *why);

/* Reads every state file in dir.  Returns how many there were, or
 * -errno when dir cannot be read (-ENOENT: no export ever ran). */
int export_state_each(const char *dir, export_state_fn *fn, void *ctx);

#endif
