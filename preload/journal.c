/* SPDX-License-Identifier: MIT */
/*
 * libsystemd's sd_journal_print, _printv, _send, _sendv and _perror, and
 * their _with_location forms (what sd-journal.h's macros call unless
 * SD_JOURNAL_SUPPRESS_LOCATION is defined).  Each call's event is made
 * from the "KEY=value" fields libsystemd would send (bridge/journal.h has
 * the rules), then the call goes on to libsystemd, which sends journald
 * exactly what it did without the library.  Replace mode applies as to
 * syslog: journald is a log daemon like /dev/log's, so the call only
 * makes the event and returns what libsystemd returns when no journald
 * listens (0), or -EINVAL for arguments it refuses.
 *
 * The library does not link libsystemd: the prototypes are our own
 * (sd_journal.h), the real functions found with dlsym.  A program without
 * libsystemd never calls these.
 *
 * libsystemd calls its own entry points through the PLT (print calls
 * printv, everything ends in sendv), so the real function runs with
 * ehs_busy raised and a journal call made while it is raised makes no
 * event and passes straight through.  (A journal call from a signal
 * handler that interrupted a logging call is one of those too.)
 */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "bridge/journal.h"
#include "bridge/journal_format.h"
#include "bridge/scratch.h"
#include "bridge/text.h"
#include "preload/real.h"
#include "preload/sd_journal.h"

/* libsystemd as a dependency of a plugin loaded with dlopen (RTLD_LOCAL,
 * the default) is out of RTLD_NEXT's reach: ask the loaded copy for the
 * symbol, never loading one (RTLD_NOLOAD).  Not kept: the plugin may be
 * unloaded, and libsystemd with it. */
static void *loaded_libsystemd_sym(const char *name)
{
	void *h = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		return NULL;
	void *p = dlsym(h, name);
	dlclose(h);	/* only the reference RTLD_NOLOAD added */
	return p;
}

/* var = the real function.  Where libsystemd came after the first
 * logging call resolved everything, look again (RTLD_GLOBAL), then in a
 * plugin's copy; only a call that would fail otherwise pays for it. */
#define JOURNAL_REAL(var, field, name) do { \
	var = EHS_REAL(field); \
	if (!var) { \
		ehs_real_resolve(); \
		var = EHS_REAL(field); \
	} \
	if (!var) { \
		void *p_ = loaded_libsystemd_sym(name); \
		__builtin_memcpy(&var, &p_, sizeof p_); \
	} \
} while (0)

/* libsystemd's LONG_LINE_MAX: a longer printed message is refused. */
#define LONG_LINE_MAX (1024 * 1024)

/* A _with_location call's location strings ("CODE_FILE=...",
 * "CODE_LINE=...", the bare function name). */
struct location {
	bool given;
	const char *file, *line, *func;
};

static const struct location none = { false, NULL, NULL, NULL };

/* True when the call should make its event at (severity, facility; -1:
 * openlog's): not nested, and traced or the configuration still unread
 * (the full path reads it). */
static bool wants_event(int severity, int facility)
{
	if (ehs_busy)
		return false;
	if (ehs_config_mode() == EHS_MODE_UNREAD) {
		ehs_real_init();
		return true;
	}
	unsigned fac = facility >= 0 ? (unsigned)facility : (unsigned)LOG_FAC(ehs_ident_facility());
	return !ehs_idle(ehs_tracepoint(severity, fac));
}

/* Whether the real function is called for an entry at (severity 0..7,
 * else libsystemd refuses it; facility -1: openlog's): always when nested
 * (libsystemd's own calls), else unless in replace mode, where only an
 * entry whose event cannot be written goes on (one libsystemd would
 * refuse gets its answer here). */
static bool pass_on(int severity, int facility)
{
	if (ehs_busy || ehs_passthrough())
		return true;
	if (severity < 0 || severity > 7)
		return false;
	unsigned fac = facility >= 0 ? (unsigned)facility : (unsigned)LOG_FAC(ehs_ident_facility());
	return !ehs_deliverable(severity, fac);
}

/* pass_on for an entry of fields iov[0..n). */
static bool fields_pass_on(const struct iovec *iov, int n)
{
	if (ehs_busy || ehs_passthrough())
		return true;
	if (!ehs_journal_valid(iov, n))
		return false;
	int severity, facility;
	ehs_journal_level(iov, n, &severity, &facility);
	return pass_on(severity, facility);
}

/* Adds a location's three fields, in libsystemd's order.  -1 when
 * libsystemd would refuse them. */
static int add_location(struct ehs_journal *j, const struct location *loc)
{
	if (!loc->given)
		return 0;
	if (!loc->file || !loc->line || !loc->func ||
	    ehs_journal_add(j, loc->file, strlen(loc->file)) < 0 ||
	    ehs_journal_add(j, loc->line, strlen(loc->line)) < 0)
		return -1;
	ehs_journal_put(j, "CODE_FUNC", 9, loc->func, strlen(loc->func));
	return 0;
}

/*
 * Where an event's text and record are made: over 8 KiB together, in
 * scratch slots (bridge/scratch.h) rather than on the stack, so that a
 * signal handler's call takes little more than libsystemd's own.  With
 * no slot free they are on the stack as before, in a frame only that
 * case makes.
 */
struct room {
	char *text;		/* EHS_TEXT_STACK bytes */
	struct ehs_journal *j;
};

/* Slots for both, or for neither (false). */
static bool room_take(struct room *r)
{
	r->text = ehs_scratch_take();
	r->j = r->text ? ehs_scratch_take() : NULL;
	if (!r->j)
		ehs_scratch_give(r->text);
	return r->j != NULL;
}

static void room_give(struct room *r)
{
	ehs_scratch_give(r->j);
	ehs_scratch_give(r->text);
}

/* sd_journal_printv's fields: MESSAGE= the text (a C string, trailing
 * whitespace stripped), PRIORITY=, then the location's. */
static void print_event_in(const struct room *r, int saved, int priority,
			   const struct location *loc, const char *format, va_list ap)
{
	struct ehs_text t;
	va_list copy;
	va_copy(copy, ap);
	int rc = ehs_text_vformat(&t, r->text, saved, -1, format, copy);
	va_end(copy);
	if (rc < 0)
		return;
	size_t len = strlen(t.p);
	while (len && strchr(" \t\n\r", t.p[len - 1]))
		len--;
	/* Too long, or empty: libsystemd sends nothing. */
	if (t.len < LONG_LINE_MAX - 8 && len) {
		struct ehs_journal *j = r->j;
		char digit = (char)('0' + priority);
		ehs_journal_init(j);
		ehs_journal_put(j, "MESSAGE", 7, t.p, len);
		ehs_journal_put(j, "PRIORITY", 8, &digit, 1);
		if (add_location(j, loc) == 0)
			ehs_journal_log(j, saved);
	}
	ehs_text_free(&t);
}

static __attribute__((noinline)) void print_event_on_stack(int saved, int priority,
							   const struct location *loc,
							   const char *format, va_list ap)
{
	char text[EHS_TEXT_STACK];
	struct ehs_journal j;
	const struct room r = { text, &j };
	print_event_in(&r, saved, priority, loc, format, ap);
}

static void print_event(int saved, int priority, const struct location *loc,
			const char *format, va_list ap)
{
	struct room r;
	if (!room_take(&r)) {
		print_event_on_stack(saved, priority, loc, format, ap);
		return;
	}
	print_event_in(&r, saved, priority, loc, format, ap);
	room_give(&r);
}

/* The whole untraced print in replace mode, as syslog's (syslog.c):
 * no errno access, no call. */
static inline bool print_replaced_and_idle(int priority)
{
	if (ehs_config_mode() != EHS_MODE_REPLACE || priority < 0 || priority > 7)
		return false;
	unsigned facility = (unsigned)LOG_FAC(ehs_ident_facility());
	return ehs_idle(ehs_tracepoint(priority, facility)) && ehs_deliverable(priority, facility);
}

static int print_common(int priority, const struct location *loc, const char *format,
			va_list ap)
{
	int saved = errno;
	bool valid = priority >= 0 && priority <= 7 && format;
	if (valid && wants_event(priority, -1)) {
		ehs_busy++;
		print_event(saved, priority, loc, format, ap);
		ehs_busy--;
	}
	int r = valid ? 0 : -EINVAL;
	if (pass_on(priority, -1)) {
		errno = saved;
		ehs_busy++;
		if (loc->given) {
			ehs_sd_printv_loc_fn real;
			JOURNAL_REAL(real, sd_printv_loc, "sd_journal_printv_with_location");
			r = real ? real(priority, loc->file, loc->line, loc->func, format, ap) : -ENOSYS;
		} else {
			ehs_sd_printv_fn real;
			JOURNAL_REAL(real, sd_printv, "sd_journal_printv");
			r = real ? real(priority, format, ap) : -ENOSYS;
		}
		ehs_busy--;
	}
	errno = saved;
	return r;
}

EHS_INTERPOSE int sd_journal_print(int priority, const char *format, ...)
{
	if (print_replaced_and_idle(priority))
		return format ? 0 : -EINVAL;
	va_list ap;
	va_start(ap, format);
	int r = print_common(priority, &none, format, ap);
	va_end(ap);
	return r;
}

EHS_INTERPOSE int sd_journal_printv(int priority, const char *format, va_list ap)
{
	if (print_replaced_and_idle(priority))
		return format ? 0 : -EINVAL;
	return print_common(priority, &none, format, ap);
}

EHS_INTERPOSE int sd_journal_print_with_location(int priority, const char *file,
						 const char *line, const char *func,
						 const char *format, ...)
{
	if (print_replaced_and_idle(priority))
		return format ? 0 : -EINVAL;
	const struct location loc = { true, file, line, func };
	va_list ap;
	va_start(ap, format);
	int r = print_common(priority, &loc, format, ap);
	va_end(ap);
	return r;
}

EHS_INTERPOSE int sd_journal_printv_with_location(int priority, const char *file,
						  const char *line, const char *func,
						  const char *format, va_list ap)
{
	if (print_replaced_and_idle(priority))
		return format ? 0 : -EINVAL;
	const struct location loc = { true, file, line, func };
	return print_common(priority, &loc, format, ap);
}

/* The event of fields iov[0..n) followed by loc's, its record built in
 * j. */
static void fields_log(struct ehs_journal *j, int saved, const struct iovec *iov, int n,
		       const struct location *loc)
{
	ehs_journal_init(j);
	for (int i = 0; i < n; i++)
		ehs_journal_add(j, iov[i].iov_base, iov[i].iov_len);
	if (add_location(j, loc) == 0)
		ehs_journal_log(j, saved);
}

/* fields_log when no scratch slot is free: the record on the stack, in
 * a frame only then made. */
static __attribute__((noinline)) void fields_log_on_stack(int saved, const struct iovec *iov,
							  int n, const struct location *loc)
{
	struct ehs_journal j;
	fields_log(&j, saved, iov, n, loc);
}

/* The event of fields iov[0..n) followed by loc's (sendv_with_location
 * puts them last), if they are traced. */
static void fields_event(int saved, const struct iovec *iov, int n, const struct location *loc)
{
	int severity, facility;
	/* Nested (libsystemd's own sendv): not even a look at the fields. */
	if (ehs_busy)
		return;
	ehs_journal_level(iov, n, &severity, &facility);
	if (!wants_event(severity, facility) || !ehs_journal_valid(iov, n))
		return;
	ehs_busy++;
	struct ehs_journal *j = ehs_scratch_take();
	if (j) {
		fields_log(j, saved, iov, n, loc);
		ehs_scratch_give(j);
	} else {
		fields_log_on_stack(saved, iov, n, loc);
	}
	ehs_busy--;
}

static int sendv_common(const struct location *loc, const struct iovec *iov, int n)
{
	int saved = errno;
	fields_event(saved, iov, n, loc);
	int r;
	if (!fields_pass_on(iov, n)) {
		r = ehs_journal_valid(iov, n) ? 0 : -EINVAL;
	} else {
		errno = saved;
		ehs_busy++;
		if (loc->given) {
			ehs_sd_sendv_loc_fn real;
			JOURNAL_REAL(real, sd_sendv_loc, "sd_journal_sendv_with_location");
			r = real ? real(loc->file, loc->line, loc->func, iov, n) : -ENOSYS;
		} else {
			ehs_sd_sendv_fn real;
			JOURNAL_REAL(real, sd_sendv, "sd_journal_sendv");
			r = real ? real(iov, n) : -ENOSYS;
		}
		ehs_busy--;
	}
	errno = saved;
	return r;
}

EHS_INTERPOSE int sd_journal_sendv(const struct iovec *iov, int n)
{
	return sendv_common(&none, iov, n);
}

EHS_INTERPOSE int sd_journal_sendv_with_location(const char *file, const char *line,
						 const char *func, const struct iovec *iov, int n)
{
	const struct location loc = { true, file, line, func };
	return sendv_common(&loc, iov, n);
}

/* send has no va_list form to hand on: its fields are formatted here as
 * libsystemd would (journal_format.h), into f, and go to the real sendv,
 * which is what libsystemd's send calls with them.  The location comes
 * first. */
static int send_in(struct ehs_journal_fields *f, const struct location *loc,
		   const char *format, va_list ap)
{
	int saved = errno;
	int r = ehs_journal_format(f, saved, loc->given ? (loc->func ? loc->func : "") : NULL,
				   format, ap);
	if (r < 0) {
		errno = saved;
		return r;
	}
	if (loc->given) {
		/* Unlike libsystemd, no crash on a NULL string: an invalid
		 * field, so -EINVAL. */
		f->iov[0] = loc->file ? (struct iovec){ (void *)loc->file, strlen(loc->file) }
				      : (struct iovec){ NULL, 0 };
		f->iov[1] = loc->line ? (struct iovec){ (void *)loc->line, strlen(loc->line) }
				      : (struct iovec){ NULL, 0 };
	}
	fields_event(saved, f->iov, f->n, &none);
	if (!fields_pass_on(f->iov, f->n)) {
		r = ehs_journal_valid(f->iov, f->n) ? 0 : -EINVAL;
	} else {
		errno = saved;
		ehs_busy++;
		ehs_sd_sendv_fn real;
		JOURNAL_REAL(real, sd_sendv, "sd_journal_sendv");
		r = real ? real(f->iov, f->n) : -ENOSYS;
		ehs_busy--;
	}
	ehs_journal_format_free(f);
	errno = saved;
	return r;
}

_Static_assert(sizeof(struct ehs_journal_fields) <= EHS_SCRATCH_SIZE, "a send's fields in a slot");

/* send_in with the fields on the stack, for a call that found no
 * scratch slot: its frame only then. */
static __attribute__((noinline)) int send_on_stack(const struct location *loc,
						   const char *format, va_list ap)
{
	struct ehs_journal_fields f;
	return send_in(&f, loc, format, ap);
}

/* The fields (over 4 KiB) in a scratch slot: a signal handler's call
 * takes little more stack than libsystemd's own send. */
static int send_common(const struct location *loc, const char *format, va_list ap)
{
	struct ehs_journal_fields *f = ehs_scratch_take();
	if (!f)
		return send_on_stack(loc, format, ap);
	int r = send_in(f, loc, format, ap);
	ehs_scratch_give(f);
	return r;
}

EHS_INTERPOSE int sd_journal_send(const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	int r = send_common(&none, format, ap);
	va_end(ap);
	return r;
}

EHS_INTERPOSE int sd_journal_send_with_location(const char *file, const char *line,
						const char *func, const char *format, ...)
{
	const struct location loc = { true, file, line, func };
	va_list ap;
	va_start(ap, format);
	int r = send_common(&loc, format, ap);
	va_end(ap);
	return r;
}

static int text_of(struct ehs_text *t, char *buf, int saved, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = ehs_text_vformat(t, buf, saved, saved, fmt, ap);
	va_end(ap);
	return rc;
}

/* sd_journal_perror's fields: the location's first, then PRIORITY=3,
 * MESSAGE= "message: " (unless empty) and strerror(errno), ERRNO=. */
static void perror_event_in(const struct room *r, int saved, const struct location *loc,
			    const char *message)
{
	struct ehs_text t;
	if (text_of(&t, r->text, saved, message && *message ? "%s" : NULL, message) < 0)
		return;
	struct ehs_journal *j = r->j;
	char err[16];
	int n = snprintf(err, sizeof err, "%d", saved);
	ehs_journal_init(j);
	if (add_location(j, loc) == 0) {
		ehs_journal_put(j, "PRIORITY", 8, "3", 1);
		ehs_journal_put(j, "MESSAGE", 7, t.p, strlen(t.p));
		ehs_journal_put(j, "ERRNO", 5, err, (size_t)n);
		ehs_journal_log(j, saved);
	}
	ehs_text_free(&t);
}

static __attribute__((noinline)) void perror_event_on_stack(int saved,
							    const struct location *loc,
							    const char *message)
{
	char text[EHS_TEXT_STACK];
	struct ehs_journal j;
	const struct room r = { text, &j };
	perror_event_in(&r, saved, loc, message);
}

static void perror_event(int saved, const struct location *loc, const char *message)
{
	struct room r;
	if (!room_take(&r)) {
		perror_event_on_stack(saved, loc, message);
		return;
	}
	perror_event_in(&r, saved, loc, message);
	room_give(&r);
}

static int perror_common(const struct location *loc, const char *message)
{
	int saved = errno;
	if (wants_event(LOG_ERR, -1)) {
		ehs_busy++;
		perror_event(saved, loc, message);
		ehs_busy--;
	}
	int r = 0;
	if (pass_on(LOG_ERR, -1)) {
		errno = saved;
		ehs_busy++;
		if (loc->given) {
			ehs_sd_perror_loc_fn real;
			JOURNAL_REAL(real, sd_perror_loc, "sd_journal_perror_with_location");
			r = real ? real(loc->file, loc->line, loc->func, message) : -ENOSYS;
		} else {
			ehs_sd_perror_fn real;
			JOURNAL_REAL(real, sd_perror, "sd_journal_perror");
			r = real ? real(message) : -ENOSYS;
		}
		ehs_busy--;
	}
	errno = saved;
	return r;
}

EHS_INTERPOSE int sd_journal_perror(const char *message)
{
	return perror_common(&none, message);
}

EHS_INTERPOSE int sd_journal_perror_with_location(const char *file, const char *line,
						  const char *func, const char *message)
{
	const struct location loc = { true, file, line, func };
	return perror_common(&loc, message);
}
