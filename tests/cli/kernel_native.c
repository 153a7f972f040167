/* SPDX-License-Identifier: MIT */
/*
 * Writes one native event three times, for kernel_native.sh to decode:
 * through EHS_EVENT twice (the first call fills the call site's cache,
 * the second uses it) and through ehs_event once.  Linked with the
 * library, not preloaded.  Exits 1 if a call did not write its event.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <syslog.h>

#include <ehsyslog.h>

static int request(int cached)
{
	struct ehs_field f[] = {
		EHS_STRING("path", "/index.html"),
		EHS_UINT8("status", 200),
		EHS_INT64("ms", -12),
		EHS_BOOL("tls", 1),
		EHS_ERRNO("error", ENOENT),
	};
	return cached ? EHS_EVENT(LOG_INFO, "request", f, 5) : ehs_event(LOG_INFO, "request", f, 5);
}

int main(void)
{
	for (int i = 0; i < 3; i++) {
		int r = request(i < 2);
		if (r != 1) {
			fprintf(stderr, "kernel_native: event %d: %d (errno %d)\n", i + 1, r, errno);
			return 1;
		}
	}
	return 0;
}
