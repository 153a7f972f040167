/* SPDX-License-Identifier: MIT */
/*
 * A captured event taken apart by its own metadata, for the tests that
 * check fields by name (the journal's and GLib's calls).  Understands
 * what the bridge writes: 8-, 16-, 32- and 64-bit values and counted
 * strings and binaries, with or without a format byte.
 */
#ifndef EHS_TESTS_EVENT_FIELDS_H
#define EHS_TESTS_EVENT_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "../bridge/capture.h"

#define EVF_FIELDS_MAX 80

struct evf_field {
	char name[80];
	unsigned enc;		/* the encoding, flags masked off */
	const uint8_t *value;	/* points into the event */
	size_t len;
};

struct evf_event {
	char name[300];
	unsigned level;
	unsigned n;
	struct evf_field f[EVF_FIELDS_MAX];
};

/* Fills ev from the len bytes at e; a Check failure if they are not an
 * event of that shape, or do not end with the last field. */
void evf_decode(const uint8_t *e, size_t len, struct evf_event *ev);

/* evf_decode of the i-th event cap holds (a Check failure without one). */
void evf_decode_captured(const struct capture *cap, unsigned i, struct evf_event *ev);

/* The field called name, or NULL. */
const struct evf_field *evf_field(const struct evf_event *ev, const char *name);

/* The value of the 1-, 2- or 4-byte field called name (a Check failure
 * without one). */
uint32_t evf_num(const struct evf_event *ev, const char *name);

/* A Check failure unless the field called name holds exactly want[0..len)
 * with encoding enc (a counted string or binary). */
void evf_bytes_eq(const struct evf_event *ev, const char *name, unsigned enc,
		  const void *want, size_t len);

/* The same for a NUL-terminated string s, as a counted string. */
void evf_str_eq(const struct evf_event *ev, const char *name, const char *s);

#endif
