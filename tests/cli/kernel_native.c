/* SPDX-License-Identifier: MIT */
/*
 * Writes one native event from a few call sites, for kernel_native.sh to
 * decode: through EHS_EVENT twice at LOG_INFO (the first call fills the
 * call site's cache, the second uses it), through ehs_event once,
 * through EHS_EMIT three times at LOG_INFO (the first call fills the
 * site, the second copies the writer's channel, the third writes through
 * that copy), and once at LOG_WARNING, which nobody traces at the user
 * facility; then after openlog moved the default facility to local0 (the
 * caches' tracepoint and the copy no longer the right ones) through
 * EHS_EVENT once and EHS_EMIT three times at LOG_INFO and EHS_EMIT at
 * LOG_WARNING again (traced at local0: the site must find its new
 * tracepoint although its old one stayed untraced), through both at
 * LOG_LOCAL1 | LOG_WARNING, and last twice each at LOG_DEBUG, which
 * nobody traces: those must write nothing and return 0.  Linked
 * with the library, not preloaded.  Exits 1 if a call did not return
 * what it should.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <syslog.h>

#include <ehsyslog.h>

enum how { EVENT, CACHED, EMIT };

#define EMIT_REQUEST(priority) \
	EHS_EMIT(priority, "request", EHS_STRING("path", "/index.html"), \
		 EHS_UINT8("status", 200), EHS_INT64("ms", -12), EHS_BOOL("tls", 1), \
		 EHS_ERRNO("error", ENOENT))

static int request(enum how how, int priority)
{
	struct ehs_field f[] = {
		EHS_STRING("path", "/index.html"),
		EHS_UINT8("status", 200),
		EHS_INT64("ms", -12),
		EHS_BOOL("tls", 1),
		EHS_ERRNO("error", ENOENT),
	};
	if (how == EVENT)
		return ehs_event(priority, "request", f, 5);
	if (how == CACHED)
		return EHS_EVENT(priority, "request", f, 5);
	/* EHS_EMIT's priority is a constant: one call site each. */
	switch (priority) {
	case LOG_INFO:
		return EMIT_REQUEST(LOG_INFO);
	case LOG_WARNING:
		return EMIT_REQUEST(LOG_WARNING);
	case LOG_LOCAL1 | LOG_WARNING:
		return EMIT_REQUEST(LOG_LOCAL1 | LOG_WARNING);
	case LOG_DEBUG:
		return EMIT_REQUEST(LOG_DEBUG);
	}
	return -1;
}

int main(void)
{
	static const struct {
		enum how how;
		int priority, written;
	} calls[] = {
		{ CACHED, LOG_INFO, 1 }, { CACHED, LOG_INFO, 1 }, { EVENT, LOG_INFO, 1 },
		{ EMIT, LOG_INFO, 1 }, { EMIT, LOG_INFO, 1 }, { EMIT, LOG_INFO, 1 },
		{ EMIT, LOG_WARNING, 0 },
		/* openlog(LOG_LOCAL0) here */
		{ CACHED, LOG_INFO, 1 }, { EMIT, LOG_INFO, 1 }, { EMIT, LOG_INFO, 1 },
		{ EMIT, LOG_INFO, 1 }, { EMIT, LOG_WARNING, 1 },
		{ CACHED, LOG_LOCAL1 | LOG_WARNING, 1 }, { EMIT, LOG_LOCAL1 | LOG_WARNING, 1 },
		{ CACHED, LOG_DEBUG, 0 }, { CACHED, LOG_DEBUG, 0 },
		{ EMIT, LOG_DEBUG, 0 }, { EMIT, LOG_DEBUG, 0 },
	};
	for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		if (i == 7)
			openlog(NULL, 0, LOG_LOCAL0);
		int r = request(calls[i].how, calls[i].priority);
		if (r != calls[i].written) {
			fprintf(stderr, "kernel_native: event %u: %d (errno %d)\n", i + 1, r, errno);
			return 1;
		}
	}
	return 0;
}
