/* SPDX-License-Identifier: MIT */
/* The USDT transport's hand-off (transport.h). */
#include "config.h"

#include "bridge/transport.h"

#include <string.h>
#include <syslog.h>

#include "bridge/ident.h"
#include "bridge/scratch.h"

_Static_assert(USDT_STRINGS_MAX <= EHS_SCRATCH_SIZE, "a site's strings in a slot");

struct usdt_call {
	const struct usdt_fields *f;
	const struct iovec *iov;
	int iovcnt;
};

static int usdt_write_in(void *buf, void *ctx)
{
	const struct usdt_call *c = ctx;
	usdt_write(c->f, c->iov, c->iovcnt, buf);
	return 0;
}

void ehs_transport_usdt(const struct ue_tracepoint *tp, const struct ehs_outgoing *ev)
{
	/* The provider is the tracepoint's name before "_L<level>K<keyword>",
	 * which has no other '_'. */
	const char *tail = tp->name ? strrchr(tp->name, '_') : NULL;
	int severity = ev->severity, facility = ev->facility;
	if (facility == EHS_FACILITY_OF_PRIORITY) {
		facility = (int)ehs_priority_facility(severity);
		severity &= LOG_PRIMASK;
	}
	const struct usdt_fields f = {
		.level = ev->level,
		.provider = tp->name,
		.provider_len = tail ? (size_t)(tail - tp->name) : 0,
		.name = ev->name,
		.message = ev->msg,
		.message_len = ev->msg_len,
		.severity = severity,
		.facility = facility,
		.err = ev->err,
	};
	/* The site's strings (3.75 KiB) in a scratch slot, not on the
	 * stack of a call that may be a signal handler's. */
	struct usdt_call c = { &f, ev->iov + 1, (int)ev->iovcnt - 1 };
	ehs_scratch_run(USDT_STRINGS_MAX, usdt_write_in, &c);
}
