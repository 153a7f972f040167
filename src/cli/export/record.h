/* SPDX-License-Identifier: MIT */
/*
 * One event as an OTLP LogRecord and the Resource it comes from, after
 * the OpenTelemetry logs data model (specification/logs/data-model.md
 * and its appendix's RFC5424 and systemd-journald mappings):
 *   body               the message, whole (split messages reassembled);
 *   severity           severity.h;
 *   time_unix_nano     the kernel's time of the event, on the wall clock;
 *   observed_time...   when export read it;
 *   attributes         syslog.facility.code and .name, errno,
 *                      code.file.path and code.line.number (file, line),
 *                      thread.id, eventheader.provider and
 *                      eventheader.event_name, and every other field of
 *                      the event (journal, GLib, structured data) under
 *                      its own name;
 *   resource           host.name, service.name (the event name: the
 *                      ident), process.pid, process.executable.name
 *                      (/proc/PID/comm, as the appendix maps journald's
 *                      _COMM), then the user's --resource pairs.
 * Both are packed here, so the queue holds bytes, not object trees.
 */
#ifndef EHSYSLOG_CLI_EXPORT_RECORD_H
#define EHSYSLOG_CLI_EXPORT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "cli/read/fields.h"
#include "cli/read/output.h"

/* A KEY=VALUE the user adds to every resource. */
struct record_pair {
	const char *key, *value;
};

struct record_context {
	const char *host;
	const struct record_pair *extra;
	size_t extra_count;
};

/* Packed bytes, reused from record to record. */
struct record_bytes {
	uint8_t *record, *resource;
	size_t record_len, resource_len;
	size_t record_cap, resource_cap;
};

/* Packs ev (its fields f, f NULL or incomplete for an event that is not
 * syslog's: then no severity) with body msg into out.  executable is
 * the process's name, NULL when unknown.  0, or -1 when out of memory. */
int record_pack(const struct record_context *ctx, const struct read_event *ev,
		const struct syslog_fields *f, const void *msg, size_t msg_len,
		const char *executable, uint64_t observed_ns, struct record_bytes *out);

/* A record of export's own (the count of dropped records, say) with the
 * resource service.name "ehsyslog-export" and export's own pid. */
int record_pack_own(const struct record_context *ctx, unsigned severity, const char *msg,
		    uint64_t now_ns, struct record_bytes *out);

void record_bytes_free(struct record_bytes *b);

/* True when s[0..n) is UTF-8 (RFC 3629) without NUL: what a protobuf
 * string may hold; anything else goes as bytes. */
bool record_utf8(const uint8_t *s, size_t n);

#endif
