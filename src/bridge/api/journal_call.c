/* SPDX-License-Identifier: MIT */
/*
 * libsystemd's journal calls as events (journal_call.h).  A call's text
 * and record are over 8 KiB together: each takes a scratch slot, else
 * the stack in a frame of its own (ehs_scratch_run), so that a signal
 * handler's call takes little more stack than libsystemd's own.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bridge/api/journal.h"
#include "bridge/api/journal_call.h"
#include "bridge/api/journal_format.h"
#include "bridge/format/text.h"
#include "bridge/scratch.h"

/* libsystemd's LONG_LINE_MAX: a longer printed message is refused. */
#define LONG_LINE_MAX (1024 * 1024)

_Static_assert(sizeof(struct ehs_journal) <= EHS_SCRATCH_SIZE, "a record in a slot");
_Static_assert(sizeof(struct ehs_journal_fields) <= EHS_SCRATCH_SIZE, "a send's fields in a slot");

/* Whether the call makes its event at (severity, facility; -1: openlog's):
 * not nested, and traced or the configuration still unread (the full
 * path reads it). */
static bool wants_event(int severity, int facility)
{
	if (ehs_busy)
		return false;
	if (ehs_config_mode() == EHS_MODE_UNREAD)
		return true;
	return !ehs_idle(ehs_tracepoint(severity, ehs_journal_facility(facility)));
}

bool ehs_journal_pass_on(int severity, int facility)
{
	if (ehs_busy || ehs_passthrough())
		return true;
	if (severity < 0 || severity > 7)
		return false;
	return !ehs_deliverable(severity, ehs_journal_facility(facility));
}

/* ehs_journal_pass_on for an entry of fields iov[0..n). */
static bool fields_pass_on(const struct iovec *iov, int n)
{
	if (ehs_busy || ehs_passthrough())
		return true;
	if (!ehs_journal_valid(iov, n))
		return false;
	int severity, facility;
	ehs_journal_level(iov, n, &severity, &facility);
	return ehs_journal_pass_on(severity, facility);
}

/* Adds a location's three fields, in libsystemd's order.  -1 when
 * libsystemd would refuse them. */
static int add_location(struct ehs_journal *j, const struct ehs_journal_location *loc)
{
	if (!loc)
		return 0;
	if (!loc->file || !loc->line || !loc->func ||
	    ehs_journal_add(j, loc->file, strlen(loc->file)) < 0 ||
	    ehs_journal_add(j, loc->line, strlen(loc->line)) < 0)
		return -1;
	ehs_journal_put(j, "CODE_FUNC", 9, loc->func, strlen(loc->func));
	return 0;
}

/* A print's or perror's call, on its way to a text buffer and a record. */
struct text_call {
	int saved;
	int priority;
	const struct ehs_journal_location *loc;
	const char *format;	/* print: the format; perror: the message */
	va_list *ap;
	struct ehs_text t;
};

static int print_log(void *buf, void *ctx)
{
	struct text_call *c = ctx;
	struct ehs_journal *j = buf;
	size_t len = strlen(c->t.p);
	while (len && strchr(" \t\n\r", c->t.p[len - 1]))
		len--;
	/* Too long, or empty: libsystemd sends nothing. */
	if (c->t.len >= LONG_LINE_MAX - 8 || !len)
		return 0;
	char digit = (char)('0' + c->priority);
	ehs_journal_init(j);
	ehs_journal_put(j, "MESSAGE", 7, c->t.p, len);
	ehs_journal_put(j, "PRIORITY", 8, &digit, 1);
	if (add_location(j, c->loc) == 0)
		ehs_journal_log(j, c->saved);
	return 0;
}

static int print_format(void *buf, void *ctx)
{
	struct text_call *c = ctx;
	va_list copy;
	va_copy(copy, *c->ap);
	int rc = ehs_text_vformat(&c->t, buf, c->saved, -1, c->format, copy);
	va_end(copy);
	if (rc < 0)
		return 0;
	ehs_scratch_run(sizeof(struct ehs_journal), print_log, c);
	ehs_text_free(&c->t);
	return 0;
}

void ehs_journal_print_event(int saved, int priority, const struct ehs_journal_location *loc,
			     const char *format, va_list ap)
{
	if (priority < 0 || priority > 7 || !format || !wants_event(priority, -1))
		return;
	va_list copy;
	va_copy(copy, ap);
	struct text_call c = { saved, priority, loc, format, &copy, { 0 } };
	ehs_busy++;
	ehs_scratch_run(EHS_TEXT_STACK, print_format, &c);
	ehs_busy--;
	va_end(copy);
}

static int text_of(struct ehs_text *t, char *buf, int saved, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = ehs_text_vformat(t, buf, saved, saved, fmt, ap);
	va_end(ap);
	return rc;
}

static int perror_log(void *buf, void *ctx)
{
	struct text_call *c = ctx;
	struct ehs_journal *j = buf;
	char err[16];
	int n = snprintf(err, sizeof err, "%d", c->saved);
	ehs_journal_init(j);
	if (add_location(j, c->loc) == 0) {
		ehs_journal_put(j, "PRIORITY", 8, "3", 1);
		ehs_journal_put(j, "MESSAGE", 7, c->t.p, strlen(c->t.p));
		ehs_journal_put(j, "ERRNO", 5, err, (size_t)n);
		ehs_journal_log(j, c->saved);
	}
	return 0;
}

static int perror_format(void *buf, void *ctx)
{
	struct text_call *c = ctx;
	const char *message = c->format;
	if (text_of(&c->t, buf, c->saved, message && *message ? "%s" : NULL, message) < 0)
		return 0;
	ehs_scratch_run(sizeof(struct ehs_journal), perror_log, c);
	ehs_text_free(&c->t);
	return 0;
}

void ehs_journal_perror_event(int saved, const struct ehs_journal_location *loc,
			      const char *message)
{
	if (!wants_event(LOG_ERR, -1))
		return;
	struct text_call c = { saved, LOG_ERR, loc, message, NULL, { 0 } };
	ehs_busy++;
	ehs_scratch_run(EHS_TEXT_STACK, perror_format, &c);
	ehs_busy--;
}

/* A sendv's fields iov[0..n) and the location that follows them. */
struct fields_call {
	int saved;
	const struct iovec *iov;
	int n;
	const struct ehs_journal_location *loc;
};

static int fields_log(void *buf, void *ctx)
{
	const struct fields_call *c = ctx;
	struct ehs_journal *j = buf;
	ehs_journal_init(j);
	for (int i = 0; i < c->n; i++)
		ehs_journal_add(j, c->iov[i].iov_base, c->iov[i].iov_len);
	if (add_location(j, c->loc) == 0)
		ehs_journal_log(j, c->saved);
	return 0;
}

/* The event of fields iov[0..n) followed by loc's (sendv_with_location
 * puts them last), if they are traced. */
static void fields_event(int saved, const struct iovec *iov, int n,
			 const struct ehs_journal_location *loc)
{
	int severity, facility;
	/* Nested (libsystemd's own sendv): not even a look at the fields. */
	if (ehs_busy)
		return;
	ehs_journal_level(iov, n, &severity, &facility);
	if (!wants_event(severity, facility) || !ehs_journal_valid(iov, n))
		return;
	const struct fields_call c = { saved, iov, n, loc };
	ehs_busy++;
	ehs_scratch_run(sizeof(struct ehs_journal), fields_log, (void *)&c);
	ehs_busy--;
}

/* The event of iov[0..n) and loc's fields, then the call's answer:
 * sendv's, or libsystemd's own when the call stays here. */
static int sendv_with(int saved, const struct iovec *iov, int n,
		      const struct ehs_journal_location *loc, ehs_journal_sendv_fn *sendv)
{
	fields_event(saved, iov, n, loc);
	if (!fields_pass_on(iov, n))
		return ehs_journal_valid(iov, n) ? 0 : -EINVAL;
	errno = saved;
	ehs_busy++;
	int r = sendv(iov, n, loc);
	ehs_busy--;
	return r;
}

int ehs_journal_sendv(const struct iovec *iov, int n, const struct ehs_journal_location *loc,
		      ehs_journal_sendv_fn *sendv)
{
	int saved = errno;
	int r = sendv_with(saved, iov, n, loc, sendv);
	errno = saved;
	return r;
}

/* A send's list, on its way to the fields it formats into. */
struct send_call {
	int saved;
	const struct ehs_journal_location *loc;
	const char *format;
	va_list *ap;
	ehs_journal_sendv_fn *sendv;
};

static int send_in(void *buf, void *ctx)
{
	const struct send_call *c = ctx;
	struct ehs_journal_fields *f = buf;
	const struct ehs_journal_location *loc = c->loc;
	int saved = c->saved;
	int r = ehs_journal_format(f, saved, loc ? (loc->func ? loc->func : "") : NULL,
				   c->format, *c->ap);
	if (r < 0)
		return r;
	if (loc) {
		/* Unlike libsystemd, no crash on a NULL string: an invalid
		 * field, so -EINVAL. */
		f->iov[0] = loc->file ? (struct iovec){ (void *)loc->file, strlen(loc->file) }
				      : (struct iovec){ NULL, 0 };
		f->iov[1] = loc->line ? (struct iovec){ (void *)loc->line, strlen(loc->line) }
				      : (struct iovec){ NULL, 0 };
	}
	r = sendv_with(saved, f->iov, f->n, NULL, c->sendv);
	ehs_journal_format_free(f);
	return r;
}

int ehs_journal_send(const struct ehs_journal_location *loc, const char *format, va_list ap,
		     ehs_journal_sendv_fn *sendv)
{
	int saved = errno;
	va_list copy;
	va_copy(copy, ap);
	struct send_call c = { saved, loc, format, &copy, sendv };
	int r = ehs_scratch_run(sizeof(struct ehs_journal_fields), send_in, &c);
	va_end(copy);
	errno = saved;
	return r;
}
