/* SPDX-License-Identifier: MIT */
/*
 * One event as an OTLP LogRecord and the Resource it comes from, after
 * the OpenTelemetry logs data model (specification/logs/data-model.md
 * and its appendix's RFC5424 mapping) and the semantic conventions:
 *   body               the message, whole (split messages reassembled);
 *   severity           severity.h;
 *   time_unix_nano     the kernel's time of the event, on the wall clock;
 *   observed_time...   when export read it;
 *   attributes         thread.id, eventheader.provider and
 *                      eventheader.event_name, then the event's fields:
 *                      syslog.facility, errno, code.file.path and
 *                      code.line.number (file, line), code.function.name
 *                      (CODE_FUNC), and every other field (journal, GLib,
 *                      structured data) under its own name;
 *   resource           host.name, service.name (the event name: the
 *                      ident), process.pid and process.executable.name
 *                      (thread_process.h), systemd.unit.name (the unit
 *                      field), then the user's --resource pairs.
 * Keys are unique: the first given wins, so an event's field cannot
 * replace what export says (thread.id, say); a --resource pair replaces
 * the built-in one of its key, and the last one given of a key wins.
 * Both are packed here, so the queue holds bytes, not object trees.
 */
#ifndef EHSYSLOG_CLI_EXPORT_RECORD_H
#define EHSYSLOG_CLI_EXPORT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "cli/tail/thread_process.h"
#include "cli/output/fields.h"
#include "cli/output/output.h"

/* A KEY=VALUE the user adds to every resource. */
struct record_pair {
	const char *key, *value;
};

struct record_context {
	const char *host;
	const struct record_pair *extra;
	size_t extra_count;
};

/* The resource's key for the event's unit field: no semantic convention
 * names a systemd unit, so it takes the conventions' form. */
#define RECORD_UNIT_KEY "systemd.unit.name"

/* What a resource is packed from, as bytes, when they fit here: a unit
 * (255 bytes) among them. */
#define RECORD_RESOURCE_KEY_MAX 1024

/* Packed bytes, reused from record to record.  The resource is packed
 * again only when what it is packed from changes (resource_key): one
 * process's records come in runs. */
struct record_bytes {
	uint8_t *record, *resource;
	size_t record_len, resource_len;
	size_t record_cap, resource_cap;
	uint8_t resource_key[RECORD_RESOURCE_KEY_MAX];
	size_t resource_key_len;	/* 0: none kept */
};

/* Packs ev (its fields f, f NULL or incomplete for an event that is not
 * syslog's: then no severity) with body msg into out.  proc is the
 * process of the thread that logged, NULL when unknown (the thread was
 * gone): then the resource has no process.pid nor
 * process.executable.name.  0, or -1 when out of memory. */
int record_pack(const struct record_context *ctx, const struct read_event *ev,
		const struct syslog_fields *f, const void *msg, size_t msg_len,
		const struct thread_process *proc, uint64_t observed_ns, struct record_bytes *out);

/* A record of export's own (the count of dropped records, say) with the
 * resource service.name "ehsyslog-export" and export's own pid. */
int record_pack_own(const struct record_context *ctx, unsigned severity, const char *msg,
		    uint64_t now_ns, struct record_bytes *out);

void record_bytes_free(struct record_bytes *b);

/* True when s[0..n) is UTF-8 (RFC 3629) without NUL: what a protobuf
 * string may hold; anything else goes as bytes. */
bool record_utf8(const uint8_t *s, size_t n);

#endif
