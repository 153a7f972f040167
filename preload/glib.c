/* SPDX-License-Identifier: MIT */
/*
 * GLib's logging calls: g_log and g_logv (behind g_message, g_warning,
 * g_critical, g_info, g_debug and g_error), g_log_structured_standard
 * (behind the same macros under G_LOG_USE_STRUCTURED), g_log_structured
 * and g_log_structured_array.  Each call becomes its event first
 * (src/bridge/api/glib.c maps it), then goes on to GLib, in every mode: a
 * GLib call does more than write a line (log handlers, writer functions,
 * fatal masks, the abort of G_LOG_LEVEL_ERROR), so replace mode does not
 * apply to it.  Inside
 * GLib these functions call each other directly, not through the PLT,
 * so a call is seen once, where the program (or another library) made
 * it.  GLib runs with ehs_busy raised: what its journald writer sends
 * (socket.c) is that call's, already an event.
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
#include <string.h>

#include "bridge/api/glib.h"
#include "preload/glib.h"
#include "preload/real.h"

/* GLib's own limits in g_log_structured: 16 fields on the stack, a
 * 1025-byte message buffer under G_LOG_FLAG_RECURSION. */
#define GLIB_STACK_FIELDS 16
#define GLIB_RECURSION_BUFFER 1025
/* Fields g_log_structured forwards on our stack, as many as GLib's own
 * g_log_structured keeps on its stack (a signal handler may log: the
 * call takes no more stack than GLib's own); more go to g_malloc_n, as
 * GLib's own go to a GArray. */
#define FORWARD_STACK_FIELDS GLIB_STACK_FIELDS

EHS_INTERPOSE void g_logv(const char *domain, int level, const char *fmt, va_list ap)
{
	int saved = errno;
	if (ehs_glib_wanted(level))
		ehs_glib_logv(domain, level, saved, fmt, ap);
	ehs_g_logv_fn real = EHS_REAL(glib.logv);
	errno = saved;
	if (real) {
		ehs_busy++;	/* GLib's own journald writer: no second event */
		real(domain, level, fmt, ap);
		ehs_busy--;
	}
}
EHS_HIDDEN_ALIAS(g_logv, ehs_g_logv);

EHS_INTERPOSE void g_log(const char *domain, int level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ehs_g_logv(domain, level, fmt, ap);
	va_end(ap);
}

EHS_INTERPOSE void g_log_structured_array(int level, const struct ehs_glog_field *fields,
					  size_t n)
{
	int saved = errno;
	/* GLib writes nothing for no fields. */
	if (n && ehs_glib_wanted(level))
		ehs_glib_structured(level, saved, fields, n, NULL, NULL);
	ehs_g_log_structured_array_fn real = EHS_REAL(glib.log_structured_array);
	errno = saved;
	if (real) {
		ehs_busy++;
		real(level, fields, n);
		ehs_busy--;
	}
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

/* GLib's g_log_structured_array with fields[msg_at] set to GLib's
 * formatting of fmt and ap; out of line, so that its message buffer is
 * not on the stack below the events. */
static __attribute__((noinline)) void pass_structured(ehs_g_log_structured_array_fn real,
						      int level, int saved,
						      struct ehs_glog_field *fields, size_t n,
						      size_t msg_at, const char *fmt, va_list ap)
{
	char buffer[GLIB_RECURSION_BUFFER];
	char *allocated = glib_message(level, saved, fmt, ap, buffer,
				       (const char **)&fields[msg_at].value);
	errno = saved;
	ehs_busy++;
	real(level, fields, n);
	ehs_busy--;
	glib_free(allocated);
}

/*
 * What both variadic structured calls end with: the events, then GLib's
 * g_log_structured_array with fields[msg_at] set to GLib's formatting
 * of fmt and *ap (which the events leave unconsumed).
 */
static void forward_structured(int level, int saved, struct ehs_glog_field *fields, size_t n,
			       size_t msg_at, const char *fmt, va_list *ap)
{
	if (ehs_glib_wanted(level))
		ehs_glib_structured(level, saved, fields, n, fmt, ap);
	ehs_g_log_structured_array_fn real = EHS_REAL(glib.log_structured_array);
	if (real)
		pass_structured(real, level, saved, fields, n, msg_at, fmt, *ap);
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
