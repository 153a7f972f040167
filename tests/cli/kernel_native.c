/* SPDX-License-Identifier: MIT */
/*
 * Writes one native event five times from one call site, for
 * kernel_native.sh to decode: through EHS_EVENT twice at LOG_INFO (the
 * first call fills the call site's cache, the second uses it), through
 * ehs_event once, then through EHS_EVENT again after openlog moved the
 * default facility to local0 (the cache's tracepoint no longer the
 * right one), and at LOG_LOCAL1 | LOG_WARNING (another tracepoint and
 * level than the cache was filled for), and last twice at LOG_DEBUG,
 * which nobody traces: those must write nothing and return 0.  Linked
 * with the library, not preloaded.  Exits 1 if a call did not return
 * what it should.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <syslog.h>

#include <ehsyslog.h>

static int request(int cached, int priority)
{
	struct ehs_field f[] = {
		EHS_STRING("path", "/index.html"),
		EHS_UINT8("status", 200),
		EHS_INT64("ms", -12),
		EHS_BOOL("tls", 1),
		EHS_ERRNO("error", ENOENT),
	};
	return cached ? EHS_EVENT(priority, "request", f, 5) : ehs_event(priority, "request", f, 5);
}

int main(void)
{
	static const struct {
		int cached, priority, written;
	} calls[] = {
		{ 1, LOG_INFO, 1 }, { 1, LOG_INFO, 1 }, { 0, LOG_INFO, 1 },
		{ 1, LOG_INFO, 1 }, { 1, LOG_LOCAL1 | LOG_WARNING, 1 },
		{ 1, LOG_DEBUG, 0 }, { 1, LOG_DEBUG, 0 },
	};
	for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		if (i == 3)
			openlog(NULL, 0, LOG_LOCAL0);
		int r = request(calls[i].cached, calls[i].priority);
		if (r != calls[i].written) {
			fprintf(stderr, "kernel_native: event %u: %d (errno %d)\n", i + 1, r, errno);
			return 1;
		}
	}
	return 0;
}
