/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/api/glib.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <syslog.h>

#include <ehsyslog/schema.h>

#include "bridge/bridge.h"
#include "bridge/scratch.h"

/* Extra fields one event takes from a structured call at most;
 * bridge/record.h's byte budget may leave out more. */
#define EXTRA_MAX 32

/* The events of a call: the message formatted from fmt and *ap (left
 * unconsumed: GLib formats it next), or text[0..len) when fmt is NULL. */
static void write_events(int level, int saved, const struct ehs_source *src,
			 const char *fmt, va_list *ap, const char *text, size_t len)
{
	unsigned fac = ehs_glib_facility();
	ehs_busy++;
	EHS_G_FOR_EACH_LEVEL(bit, level) {
		int severity = ehs_glib_severity(1u << bit);
		if (fmt) {
			va_list copy;
			va_copy(copy, *ap);
			ehs_vlog(severity, fac, saved, src, fmt, copy);
			va_end(copy);
		} else {
			ehs_log(severity, fac, saved, src, text, len);
		}
	}
	ehs_busy--;
}

/* What a structured call's fields give the event. */
struct glib_event {
	struct ehs_source src;
	struct ehs_extra extra[EXTRA_MAX];
	const char *msg;
	size_t msg_len;
	char name[EHS_EVENT_NAME_MAX + 1];	/* the domain, NUL-terminated */
	char file[1024];			/* CODE_FILE, NUL-terminated */
};

/* Valid UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
 * U+10FFFF) without NUL bytes: what the event can carry as text. */
static bool is_text(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i], more;
		uint32_t cp;
		if (c == 0)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			more = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			more = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			more = 3, cp = c & 0x07;
		else
			return false;
		if (n - i <= more)
			return false;
		for (unsigned k = 1; k <= more; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((more == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (more == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		i += more + 1;
	}
	return true;
}

/* Copies a value into out (cap bytes) as a C string, cut to fit. */
static void copy_string(char *out, size_t cap, const char *v, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(out, v, n);
	out[n] = '\0';
}

/*
 * Takes a structured call's fields apart: MESSAGE is the message,
 * PRIORITY is left out (the level says it), and so is a field of one of
 * the schema's names (it would shadow the schema's own in a decoder's
 * output), GLIB_DOMAIN names the event
 * and stays a field, CODE_FILE and CODE_LINE go to the schema's file and
 * line, every other field (CODE_FUNC among them) becomes an extra field,
 * a string when its value is text, else binary.  A field without a key
 * or value is skipped.
 */
static void take_fields(struct glib_event *ev, const struct ehs_glog_field *fields, size_t n)
{
	const char *line = NULL;
	size_t line_len = 0;
	unsigned nextra = 0;

	memset(&ev->src, 0, sizeof ev->src);
	ev->msg = "";
	ev->msg_len = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ehs_glog_field *f = &fields[i];
		if (!f->key || !f->value)
			continue;
		const char *v = f->value;
		size_t len = f->length < 0 ? strlen(v) : (size_t)f->length;
		bool text = f->length < 0 || is_text((const unsigned char *)v, len);

		if (strcmp(f->key, "MESSAGE") == 0) {
			ev->msg = v;
			ev->msg_len = len;
			continue;
		}
		if (strcmp(f->key, "PRIORITY") == 0 || ehs_schema_find(f->key) >= 0)
			continue;
		if (strcmp(f->key, "GLIB_DOMAIN") == 0 && text && len) {
			copy_string(ev->name, sizeof ev->name, v, len);
			ev->src.name = ev->name;
		} else if (strcmp(f->key, "CODE_FILE") == 0 && text) {
			copy_string(ev->file, sizeof ev->file, v, len);
			ev->src.file = ev->file;
			continue;
		} else if (strcmp(f->key, "CODE_LINE") == 0 && text && !line) {
			line = v;
			line_len = len;
			continue;
		}
		if (nextra < EXTRA_MAX)
			ev->extra[nextra++] = (struct ehs_extra){ f->key, v, len, !text };
	}
	/* The line only with a file: the schema carries them as a pair. */
	long long num = line && ev->src.file ? ehs_decimal(line, line_len, UINT32_MAX) : -1;
	if (num >= 0) {
		ev->src.line = (unsigned)num;
		line = NULL;
	}
	if (line && nextra < EXTRA_MAX)
		ev->extra[nextra++] = (struct ehs_extra){ "CODE_LINE", line, line_len, false };
	ev->src.extra = ev->extra;
	ev->src.nextra = nextra;
}

/* No domain leaves the name to the ident's rule. */
void ehs_glib_logv(const char *domain, int level, int saved, const char *fmt, va_list ap)
{
	struct ehs_extra extra = { "GLIB_DOMAIN", domain, domain ? strlen(domain) : 0, false };
	struct ehs_source src = { 0 };
	if (domain) {
		src.name = *domain ? domain : NULL;
		src.extra = &extra;
		src.nextra = 1;
	}
	va_list copy;
	va_copy(copy, ap);
	write_events(level, saved, &src, fmt, &copy, NULL, 0);
	va_end(copy);
}


struct structured_call {
	int level;
	int saved;
	const struct ehs_glog_field *fields;
	size_t n;
	const char *fmt;
	va_list *ap;
};

static int structured_in(void *buf, void *ctx)
{
	const struct structured_call *c = ctx;
	struct glib_event *ev = buf;
	take_fields(ev, c->fields, c->n);
	write_events(c->level, c->saved, &ev->src, c->fmt, c->ap, ev->msg, ev->msg_len);
	return 0;
}

_Static_assert(sizeof(struct glib_event) <= EHS_SCRATCH_SIZE, "a call's fields in a slot");

/* The fields taken apart (2.5 KiB) in a scratch slot (bridge/scratch.h), not
 * on the stack: a signal handler may log. */
void ehs_glib_structured(int level, int saved, const struct ehs_glog_field *fields, size_t n,
			 const char *fmt, va_list *ap)
{
	struct structured_call c = { level, saved, fields, n, fmt, ap };
	ehs_scratch_run(sizeof(struct glib_event), structured_in, &c);
}
