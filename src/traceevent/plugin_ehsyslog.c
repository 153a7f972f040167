/* SPDX-License-Identifier: MIT */
/*
 * plugin_ehsyslog.so: a libtraceevent plugin that makes `trace-cmd report`
 * and `perf script` print every EventHeader user_event field by field, as
 * the project's decoder prints it (eh_decode_text, the line of `ehsyslog
 * decode --fields` after its time):
 *
 *   Syslog:demo message="started" severity=6 facility=3 errno=ERRNO(0) [cpu=0 pid=7 tid=7 level=4 keyword=0x8]
 *
 * How it attaches to events it cannot name: EventHeader tracepoints are
 * named at run time (Syslog_L4K2, any provider), and a plugin gets no
 * call when an event format is parsed.  trace-cmd 3.1 (tracecmd_alloc_fd)
 * and perf 6.1 (trace_report) both load plugins right after tep_alloc(),
 * before they parse any format, so walking tep_get_events() at load time
 * finds nothing; perf, which carries its own copy of libtraceevent,
 * exports only a few tep_* functions to plugins in any case (not
 * tep_get_events).  What both do: tep_register_event_handler() keeps a
 * handler for an event not parsed yet on a pending list, and the first
 * event parsed later that matches its id, system and name takes it (each
 * entry once).  An event id is the u16 common_type, so one entry per id,
 * system "user_events" and any name covers every user_events event; an
 * entry whose id goes to another system's event is never taken.  Where a
 * program loads plugins after parsing, registering by id finds the event
 * and attaches at once.  The price is 65536 small allocations per tep
 * handle (a few MB, a few ms), freed by tep_free() or the unloader.
 *
 * The library's uprobe events, where the kernel has no user_events
 * (traceevent/uprobe_record.h), print the same: the EventHeader event
 * their event field carries, under the tracepoint name user_events would
 * have given it.  They are registered by system and name, for the
 * installed library's group "ehsyslog" only: another copy's group
 * (ehsyslog_HASH) cannot be named before its format is seen, and those
 * print as the kernel formats them.
 *
 * The plugin uses only what perf 6.1 exports to plugins (tep_find_field,
 * tep_find_any_field, tep_read_number_field, tep_(un)register_event_handler,
 * trace_seq_puts) and is not linked to libtraceevent.so: its tep_*
 * calls bind to the copy of the program that loads it.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>

#include <event-parse.h>
#include <trace-seq.h>

#include <eventheader/eventheader.h>

#include "traceevent/payload.h"
#include "traceevent/uprobe_group.h"
#include "traceevent/uprobe_record.h"

/* Event ids are the u16 common_type of the trace records. */
#define EVENT_ID_COUNT 65536
/* Largest line tried: far above what one event (at most 64 KiB) decodes to. */
#define LINE_MAX_BYTES (16u << 20)

int TEP_PLUGIN_LOADER(struct tep_handle *tep);
int TEP_PLUGIN_UNLOADER(struct tep_handle *tep);

/* The record's thread id (common_pid), as `ehsyslog decode` reads it. */
static int record_tid(struct tep_event *event, struct tep_record *record, uint32_t *tid)
{
	struct tep_format_field *f = tep_find_any_field(event, "common_pid");
	unsigned long long v;

	if (f == NULL || f->offset < 0 || f->size <= 0 ||
	    record->size < f->offset + f->size ||
	    tep_read_number_field(f, record->data, &v) != 0)
		return -1;
	*tid = (uint32_t)v;
	return 0;
}

/* The event through eh_decode_text into a buffer grown as needed: the
 * text to free, or NULL with *why set to the reason. */
static char *decode_line(const char *tracepoint, const uint8_t *data, size_t len,
			 const struct eh_record_info *info, const char **why)
{
	size_t cap = 4096;
	char *buf = NULL, *p;
	long n;

	for (;;) {
		p = realloc(buf, cap);
		if (p == NULL) {
			free(buf);
			*why = "out of memory";
			return NULL;
		}
		buf = p;
		n = eh_decode_text(tracepoint, data, len, info, EH_DECODE_DEFAULT, buf, cap);
		if (n >= 0)
			return buf;
		if (n != EH_E_NOSPACE || cap >= LINE_MAX_BYTES)
			break;
		cap *= 2;
	}
	free(buf);
	*why = eh_strerror((int)n);
	return NULL;
}

/* The EventHeader event data[0..len) of tracepoint, recorded as record
 * of event, as the decoder's line. */
static void print_decoded(struct trace_seq *s, struct tep_record *record,
			  struct tep_event *event, const char *tracepoint,
			  const uint8_t *data, size_t len)
{
	struct eh_record_info info = { 0 };
	const char *why;
	char *line;

	info.cpu = record->cpu;
	info.has_cpu = true;
	/* ftrace and perf record the thread id only. */
	info.has_pid = record_tid(event, record, &info.tid) == 0;
	info.pid = info.tid;
	line = decode_line(tracepoint, data, len, &info, &why);
	if (line == NULL) {
		/* The decoder's reason, never the bytes of a bad event. */
		trace_seq_puts(s, "EventHeader decode error: ");
		trace_seq_puts(s, why);
		return;
	}
	trace_seq_puts(s, line);
	free(line);
}

/* Returns 0: the line is ours; 1: libtraceevent prints the event as it
 * would have without the plugin (a user_event that is not EventHeader). */
static int print_eventheader(struct trace_seq *s, struct tep_record *record,
			     struct tep_event *event, void *context)
{
	const uint8_t *data;
	size_t len;

	(void)context;
	if (!eh_tep_payload(event, record, &data, &len))
		return 1;
	print_decoded(s, record, event, event->name, data, len);
	return 0;
}

/* The same for one of the library's uprobe events; 1 for a record that
 * is not one (its fields are not the library's). */
static int print_uprobe(struct trace_seq *s, struct tep_record *record, struct tep_event *event,
			void *context)
{
	struct uprobe_scratch scratch = { 0 };
	const char *tracepoint;
	const uint8_t *data;
	size_t len;
	int r;

	(void)context;
	r = uprobe_tep_record(event, record, &scratch, &tracepoint, &data, &len);
	if (r == 0)
		return 1;
	if (r < 0)
		trace_seq_puts(s, "EventHeader decode error: out of memory");
	else if (len == 0)
		/* The kernel cut the event field: what is left is no event. */
		trace_seq_puts(s, "EventHeader decode error: the event field is cut short");
	else
		print_decoded(s, record, event, tracepoint, data, len);
	uprobe_scratch_free(&scratch);
	return 0;
}

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++)
		if (tep_register_event_handler(tep, -1, EHS_UPROBE_GROUP,
					       ehs_uprobe_event_name(level), print_uprobe,
					       NULL) < 0)
			return -1;
	for (int id = EVENT_ID_COUNT - 1; id >= 0; id--)
		if (tep_register_event_handler(tep, id, "user_events", NULL,
					       print_eventheader, NULL) < 0)
			return -1;
	return 0;
}

int TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	/* Registered downwards, so the pending list runs upwards from its
	 * head: removing upwards finds each entry first, one step each. */
	for (int id = 0; id < EVENT_ID_COUNT; id++)
		tep_unregister_event_handler(tep, id, "user_events", NULL,
					     print_eventheader, NULL);
	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++)
		tep_unregister_event_handler(tep, -1, EHS_UPROBE_GROUP, ehs_uprobe_event_name(level),
					     print_uprobe, NULL);
	return 0;
}
