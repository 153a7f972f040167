/* SPDX-License-Identifier: MIT */
/*
 * The records a logging call is read into before its events are made:
 * the extra string fields after the schema's, and the journal's record,
 * which an sd_journal_* call (api/journal.h) and the bytes a program
 * sends a syslog socket (input/) both become.
 */
#ifndef EHS_BRIDGE_RECORD_H
#define EHS_BRIDGE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A string field after the schema's own: a journal field of
 * sd_journal_send, GLib's domain.  name is NUL-terminated and used as
 * given.  An event holds its extras, in order, while their names,
 * values and value lengths fit in EHS_EXTRA_BYTES; the first one that
 * does not fit and all after it are left out.  The message is always
 * written whole.
 */
struct ehs_extra {
	const char *name;
	const char *value;
	size_t value_len;
	bool binary;	/* bytes, not text: a counted binary field, which
			 * decoders show as hex */
};

#define EHS_EXTRA_BYTES 1536

/* The journal's record: one entry's fields as api/journal.h reads them,
 * within journald's bounds. */
#define EHS_JOURNAL_EXTRA_MAX 64
#define EHS_JOURNAL_FILE_MAX 1024
/* journald's limit on a field name. */
#define EHS_JOURNAL_KEY_MAX 64

struct ehs_journal {
	int severity;
	int facility;		/* -1: openlog's */
	const char *msg;	/* the caller's bytes, not NUL-terminated */
	size_t msg_len;
	const char *ident;	/* the caller's bytes, or NULL */
	size_t ident_len;
	bool has_file, has_line, has_errno;
	uint32_t line;
	int32_t err;
	bool full;		/* an extra was left out: no more go in */
	unsigned nextra;
	size_t extra_bytes;	/* what they take of EHS_EXTRA_BYTES */
	size_t names_len;
	struct ehs_extra extra[EHS_JOURNAL_EXTRA_MAX];	/* values: the caller's */
	char names[EHS_EXTRA_BYTES];	/* the extras' names, NUL-terminated */
	char file[EHS_JOURNAL_FILE_MAX + 1];
};

#endif
