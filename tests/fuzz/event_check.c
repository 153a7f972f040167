/* SPDX-License-Identifier: MIT */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "event_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge/emit.h"
#include "eventheader/eventheader.h"

unsigned long fuzz_events;

static uint8_t event[EHS_EVENT_MAX];
static char json[1 << 16];
static const struct eh_record_info no_info;

int fuzz_event_sink(void *ctx, struct iovec *iov, int iovcnt)
{
	size_t len = 0;
	char name[64];

	(void)ctx;
	for (int i = 1; i < iovcnt; i++) {
		if (iov[i].iov_len > sizeof event - len)
			abort();	/* larger than one event may be */
		memcpy(event + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
	}
	if (len < 8)
		abort();
	/* The level byte names the tracepoint the decoder checks it against. */
	snprintf(name, sizeof name, "Syslog_L%uK2", event[7]);
	if (eh_decode_json(name, event, len, &no_info, EH_DECODE_DEFAULT, json, sizeof json) < 0)
		abort();
	fuzz_events++;
	return 0;
}

char *fuzz_copy(const uint8_t *data, size_t size)
{
	char *s = malloc(size ? size : 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	return s;
}

void fuzz_within(const char *p, size_t n, const char *start, size_t len)
{
	if (p < start || n > len || (size_t)(p - start) > len - n)
		abort();
}
