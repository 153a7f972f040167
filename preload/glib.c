/* SPDX-License-Identifier: MIT */
/*
 * GLib's logging calls: g_log and g_logv (behind g_message, g_warning,
 * g_critical, g_info, g_debug and g_error), g_log_structured_standard
 * (behind the same macros under G_LOG_USE_STRUCTURED), g_log_structured
 * and g_log_structured_array.  Each call becomes its event first, then
 * goes on to GLib, in every mode: a GLib call does more than write a
 * line (log handlers, writer functions, fatal masks, the abort of
 * G_LOG_LEVEL_ERROR), so replace mode does not apply to it.  Inside
 * GLib these functions call each other directly, not through the PLT,
 * so a call is seen once, where the program (or another library) made
 * it.
 *
 * g_log_structured and g_log_structured_standard have no va_list form
 * to forward to.  They are forwarded the way GLib implements them: the
 * MESSAGE format formatted by GLib's own g_strdup_vprintf (g_vsnprintf
 * into 1025 bytes under G_LOG_FLAG_RECURSION), GLib's field array in
 * GLib's order, handed to the real g_log_structured_array.
 *
 * g_log_variant is not caught: its fields are a GVariant, which only a
 * dozen more GLib calls could take apart.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "preload/glib.h"
#include "preload/real.h"

/* Extra fields one event takes from a structured call at most; emit.h's
 * byte budget may leave out more. */
#define EXTRA_MAX 32
/* GLib's own limits in g_log_structured: 16 fields on the stack, a
 * 1025-byte message buffer under G_LOG_FLAG_RECURSION. */
#define GLIB_STACK_FIELDS 16
#define GLIB_RECURSION_BUFFER 1025
/* Fields g_log_structured forwards on our stack; more go to g_malloc_n,
 * as GLib's own array would. */
#define FORWARD_STACK_FIELDS 64

/* The syslog severity of one GLib level.  User-defined levels (bit 8
 * and up) are NOTICE, as GLib's journald writer has them. */
static int severity_of(unsigned level)
{
	if (level & EHS_G_LOG_LEVEL_ERROR)
		return LOG_CRIT;
	if (level & EHS_G_LOG_LEVEL_CRITICAL)
		return LOG_ERR;
	if (level & EHS_G_LOG_LEVEL_WARNING)
		return LOG_WARNING;
	if (level & EHS_G_LOG_LEVEL_MESSAGE)
		return LOG_NOTICE;
	if (level & EHS_G_LOG_LEVEL_INFO)
		return LOG_INFO;
	if (level & EHS_G_LOG_LEVEL_DEBUG)
		return LOG_DEBUG;
	return LOG_NOTICE;
}

static unsigned facility(void)
{
	return (unsigned)LOG_FAC(ehs_ident_facility());
}

/*
 * g_logv writes a message once per level bit, from the highest bit
 * down; so do the events.  The flag bits (recursion, fatal) only change
 * what GLib does after writing.  Levels without any level bit make no
 * event, as GLib writes nothing for them.
 */
#define FOR_EACH_LEVEL(bit, level) \
	for (unsigned m_ = (unsigned)(level) & EHS_G_LOG_LEVEL_MASK, bit; \
	     m_ && (bit = 31 - (unsigned)__builtin_clz(m_), 1); m_ &= ~(1u << bit))

/* True when one of the call's events is traced.  Untraced, this is one
 * load per level bit (a single one in every call the macros make). */
static bool wanted(int level)
{
	if (ehs_busy)
		return false;
	unsigned fac = facility();
	FOR_EACH_LEVEL(bit, level)
		if (!ehs_idle(ehs_tracepoint(severity_of(1u << bit), fac)))
			return true;
	return false;
}

/* The events of a call: the message formatted from fmt and *ap (left
 * unconsumed: GLib formats it next), or text[0..len) when fmt is NULL. */
static void write_events(int level, int saved, const struct ehs_source *src,
			 const char *fmt, va_list *ap, const char *text, size_t len)
{
	unsigned fac = facility();
	ehs_busy++;
	FOR_EACH_LEVEL(bit, level) {
		int severity = severity_of(1u << bit);
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

/* The schema's own field names: an extra of the same name would shadow
 * one of them in a decoder's output, so such a field is left out. */
static bool schema_name(const char *key)
{
	static const char *const names[] = {
		"message", "severity", "facility", "errno", "file", "line", "part", "parts",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(key, names[i]) == 0)
			return true;
	return false;
}

/*
 * Takes a structured call's fields apart: MESSAGE is the message,
 * PRIORITY is left out (the level says it), GLIB_DOMAIN names the event
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
		if (strcmp(f->key, "PRIORITY") == 0 || schema_name(f->key))
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

/* g_log and g_logv: the domain names the event and is the GLIB_DOMAIN
 * field; no domain leaves the name to the ident's rule. */
static void logv_event(const char *domain, int level, int saved, const char *fmt, va_list ap)
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

EHS_INTERPOSE void g_logv(const char *domain, int level, const char *fmt, va_list ap)
{
	int saved = errno;
	if (wanted(level))
		logv_event(domain, level, saved, fmt, ap);
	ehs_g_logv_fn real = EHS_REAL(glib.logv);
	errno = saved;
	if (real)
		real(domain, level, fmt, ap);
}

EHS_INTERPOSE void g_log(const char *domain, int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_logv(domain, level, fmt, ap);
	va_end(ap);
}

EHS_INTERPOSE void g_log_structured_array(int level, const struct ehs_glog_field *fields,
					  size_t n)
{
	int saved = errno;
	/* GLib writes nothing for no fields. */
	if (n && wanted(level)) {
		struct glib_event ev;
		take_fields(&ev, fields, n);
		write_events(level, saved, &ev.src, NULL, NULL, ev.msg, ev.msg_len);
	}
	ehs_g_log_structured_array_fn real = EHS_REAL(glib.log_structured_array);
	errno = saved;
	if (real)
		real(level, fields, n);
}

/* GLib's PRIORITY value for a level (its log_level_to_priority). */
static const char *glib_priority(unsigned level)
{
	if (level & EHS_G_LOG_LEVEL_ERROR)
		return "3";
	if (level & (EHS_G_LOG_LEVEL_CRITICAL | EHS_G_LOG_LEVEL_WARNING))
		return "4";
	if (level & EHS_G_LOG_LEVEL_MESSAGE)
		return "5";
	if (level & EHS_G_LOG_LEVEL_INFO)
		return "6";
	if (level & EHS_G_LOG_LEVEL_DEBUG)
		return "7";
	return "5";
}

/*
 * The MESSAGE field's value as GLib makes it, in *out: under
 * G_LOG_FLAG_RECURSION in buffer (cut to 1024 bytes), else allocated by
 * GLib (also returned, for g_free).  With errno as at the call, for %m.
 */
static char *glib_message(int level, int saved, const char *fmt, va_list ap,
			  char buffer[GLIB_RECURSION_BUFFER], const char **out)
{
	errno = saved;
	if (level & EHS_G_LOG_FLAG_RECURSION) {
		ehs_g_vsnprintf_fn f = EHS_REAL(glib.vsnprintf);
		buffer[0] = '\0';
		if (f)
			f(buffer, GLIB_RECURSION_BUFFER, fmt, ap);
		*out = buffer;
		return NULL;
	}
	ehs_g_strdup_vprintf_fn f = EHS_REAL(glib.strdup_vprintf);
	char *s = f ? f(fmt, ap) : NULL;
	*out = s;
	return s;
}

static void glib_free(void *p)
{
	ehs_g_free_fn f = EHS_REAL(glib.free);
	if (p && f)
		f(p);
}

/*
 * What both variadic structured calls end with: the events, then GLib's
 * g_log_structured_array with fields[msg_at] set to GLib's formatting
 * of fmt and *ap (which the events leave unconsumed).
 */
static void forward_structured(int level, int saved, struct ehs_glog_field *fields, size_t n,
			       size_t msg_at, const char *fmt, va_list *ap)
{
	if (wanted(level)) {
		struct glib_event ev;
		take_fields(&ev, fields, n);
		write_events(level, saved, &ev.src, fmt, ap, NULL, 0);
	}
	ehs_g_log_structured_array_fn real = EHS_REAL(glib.log_structured_array);
	if (real) {
		char buffer[GLIB_RECURSION_BUFFER];
		char *allocated = glib_message(level, saved, fmt, *ap, buffer,
					       (const char **)&fields[msg_at].value);
		errno = saved;
		real(level, fields, n);
		glib_free(allocated);
	}
	errno = saved;
}

EHS_INTERPOSE void g_log_structured_standard(const char *domain, int level, const char *file,
					     const char *line, const char *func,
					     const char *fmt, ...)
{
	int saved = errno;
	/* GLib's field array for this call, in GLib's order. */
	struct ehs_glog_field fields[] = {
		{ "PRIORITY", glib_priority((unsigned)level), -1 },
		{ "CODE_FILE", file, -1 },
		{ "CODE_LINE", line, -1 },
		{ "CODE_FUNC", func, -1 },
		{ "MESSAGE", NULL, -1 },
		{ "GLIB_DOMAIN", domain, -1 },
	};
	size_t n = sizeof fields / sizeof fields[0] - (domain ? 0 : 1);
	va_list ap;
	va_start(ap, fmt);
	forward_structured(level, saved, fields, n, 4, fmt, &ap);
	va_end(ap);
}

/*
 * g_log_structured: key and value pairs (both strings) up to the key
 * "MESSAGE", whose value is the format for the arguments after it.
 * GLib's array: MESSAGE, PRIORITY, GLIB_DOMAIN when there is a domain,
 * then the pairs in order; under G_LOG_FLAG_RECURSION only what fits in
 * 16 fields.
 */
EHS_INTERPOSE void g_log_structured(const char *domain, int level, ...)
{
	int saved = errno;
	struct ehs_glog_field stack[FORWARD_STACK_FIELDS], *fields = stack;
	size_t n = domain ? 3 : 2, pairs = 0, cap = FORWARD_STACK_FIELDS;
	va_list ap, count;
	const char *key;

	va_start(ap, level);
	va_copy(count, ap);
	while ((key = va_arg(count, const char *)) && strcmp(key, "MESSAGE") != 0) {
		(void)va_arg(count, const void *);
		pairs++;
	}
	va_end(count);
	/* No MESSAGE before a NULL key: GLib would read past the pairs and
	 * crash.  Nothing is logged or forwarded. */
	if (!key) {
		va_end(ap);
		errno = saved;
		return;
	}
	if (n + pairs > cap && !(level & EHS_G_LOG_FLAG_RECURSION)) {
		ehs_g_malloc_n_fn m = EHS_REAL(glib.malloc_n);
		fields = m ? m(n + pairs, sizeof *fields) : NULL;
		if (!fields) {
			fields = stack;
		} else {
			cap = n + pairs;
		}
	}
	if (level & EHS_G_LOG_FLAG_RECURSION && cap > GLIB_STACK_FIELDS)
		cap = GLIB_STACK_FIELDS;
	for (size_t i = 0; i < pairs; i++) {
		const char *k = va_arg(ap, const char *);
		const void *v = va_arg(ap, const void *);
		if (n < cap)
			fields[n++] = (struct ehs_glog_field){ k, v, -1 };
	}
	(void)va_arg(ap, const char *);	/* "MESSAGE" */
	const char *fmt = va_arg(ap, const char *);
	fields[0] = (struct ehs_glog_field){ "MESSAGE", NULL, -1 };
	fields[1] = (struct ehs_glog_field){ "PRIORITY", glib_priority((unsigned)level), -1 };
	if (domain)
		fields[2] = (struct ehs_glog_field){ "GLIB_DOMAIN", domain, -1 };

	forward_structured(level, saved, fields, n, 0, fmt, &ap);
	if (fields != stack)
		glib_free(fields);
	va_end(ap);
	errno = saved;
}
