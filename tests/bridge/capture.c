/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "capture.h"

#include <string.h>

int capture_sink(void *ctx, struct iovec *iov, int iovcnt)
{
	struct capture *c = ctx;
	if (c->count >= CAPTURE_MAX_EVENTS)
		return -1;
	size_t n = 0;
	/* iov[0] belongs to the writer and must arrive empty. */
	if (iov[0].iov_len != 0)
		return -1;
	for (int i = 1; i < iovcnt; i++) {
		if (n + iov[i].iov_len > CAPTURE_EVENT_MAX)
			return -1;
		if (iov[i].iov_len == 0)	/* its base may be NULL */
			continue;
		memcpy(c->data[c->count] + n, iov[i].iov_base, iov[i].iov_len);
		n += iov[i].iov_len;
	}
	c->len[c->count++] = n;
	return 0;
}

struct ue_tracepoint capture_tp = UE_TRACEPOINT_INIT("Capture_L4K1");

int capture_emit(struct capture *c, const struct ehs_record *r, size_t limit)
{
	ue_double_trace(capture_sink, c);
	int n = ehs_emit(r, limit, &capture_tp);
	ue_double_trace(NULL, NULL);
	return n;
}

int capture_which(const struct capture *want, const struct iovec *iov, int iovcnt)
{
	uint8_t ev[512];
	size_t n = 0;
	for (int i = 1; i < iovcnt; i++) {
		if (n + iov[i].iov_len > sizeof ev)
			return -1;
		memcpy(ev + n, iov[i].iov_base, iov[i].iov_len);
		n += iov[i].iov_len;
	}
	for (unsigned k = 0; k < want->count; k++)
		if (n == want->len[k] && memcmp(ev, want->data[k], n) == 0)
			return (int)k;
	return -1;
}
