/* SPDX-License-Identifier: MIT */
/*
 * libehsyslog: syslog(3), err(3), warn(3) and error(3) calls become
 * EventHeader events on Linux user_events tracepoints.
 *
 * Bridged API: link with -lehsyslog (or preload the library) and keep
 * calling syslog(), vsyslog(), openlog(), closelog(), setlogmask(),
 * err()/errx()/verr()/verrx()/warn()/warnx()/vwarn()/vwarnx(), error(),
 * error_at_line() and libbsd's errc()/verrc()/warnc()/vwarnc() as
 * declared in <syslog.h>, <err.h>, <error.h> and <bsd/err.h>.  Each call
 * becomes one event named after openlog's ident, on the tracepoint
 * "<provider>_L<level>K<1 << facility>", with the fields message,
 * severity, facility and errno (libehsyslog(7) has the tables).
 *
 * Native API: for new code that wants its own fields.  The event goes to
 * the same tracepoint a syslog call with the same priority would use.
 * ehs_event builds the event's metadata (its name and the fields' names
 * and types) on every call; ehs_event_cached and EHS_EVENT keep it built,
 * so that a traced call only writes the values; EHS_EMIT, whose priority,
 * name and field types are fixed where it is written, also checks its
 * tracepoint and encodes the values inline, at the call site.
 *
 * C and C++ (C++11 to C++23) alike, with GCC and Clang: the same names,
 * C linkage, the same bytes.  EHS_EVENT and EHS_EMIT are GNU statement
 * expressions (__extension__: no -pedantic warning), usable inside a
 * function only; their statics are constant-initialised (no C++ guard, no
 * lock) and there is one per place in the source (an inline function's
 * one, each template instantiation and lambda its own).  In C++ the
 * field macros are inline calls, not constants, and EHS_EMIT keeps the
 * values' temporaries alive until the event is written.  libehsyslog(7)
 * has the details.
 */
#ifndef EHSYSLOG_H
#define EHSYSLOG_H

#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef EHS_API
#define EHS_API __attribute__((visibility("default")))
#endif

enum ehs_field_type {
	EHS_FIELD_STRING = 1,	/* UTF-8 text, NUL-terminated */
	EHS_FIELD_INT64,	/* signed 64-bit */
	EHS_FIELD_UINT64,	/* unsigned 64-bit */
	EHS_FIELD_ERRNO,	/* an errno value, decoded as its name */
	EHS_FIELD_BOOL,		/* 0 or 1 */
	EHS_FIELD_UINT8,	/* unsigned 8-bit: v.u, 0..255 */
};

struct ehs_field {
	const char *name;	/* not NULL, not "", no ';' */
	enum ehs_field_type type;
	union {
		const char *s;
		int64_t i;
		uint64_t u;
	} v;
};

/*
 * One field: its name and value, for an array of fields or EHS_EMIT.
 * In C a compound literal; in C++, which has neither compound literals
 * nor nested designators, a call of an inline function returning the
 * same struct ehs_field (its value converted as the C initialiser
 * converts it), so not a constant expression there.
 */
#ifndef __cplusplus
#define EHS_STRING(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_STRING, .v.s = (val) })
#define EHS_INT64(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_INT64, .v.i = (val) })
#define EHS_UINT64(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_UINT64, .v.u = (val) })
#define EHS_ERRNO(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_ERRNO, .v.i = (val) })
#define EHS_BOOL(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_BOOL, .v.u = !!(val) })
#define EHS_UINT8(n, val) ((struct ehs_field){ .name = (n), .type = EHS_FIELD_UINT8, .v.u = (uint8_t)(val) })
#else
#define EHS_STRING(n, val) ehs_field_s_((n), (val))
#define EHS_INT64(n, val) ehs_field_i_((n), EHS_FIELD_INT64, (val))
#define EHS_UINT64(n, val) ehs_field_u_((n), EHS_FIELD_UINT64, (val))
#define EHS_ERRNO(n, val) ehs_field_i_((n), EHS_FIELD_ERRNO, (val))
#define EHS_BOOL(n, val) ehs_field_u_((n), EHS_FIELD_BOOL, !!(val))
#define EHS_UINT8(n, val) ehs_field_u_((n), EHS_FIELD_UINT8, static_cast<uint8_t>(val))

/* The C++ forms' struct ehs_field: each parameter's type is the member
 * the C form initialises, so that a value converts as it does in C. */
static inline __attribute__((always_inline))
struct ehs_field ehs_field_s_(const char *name, const char *s)
{
	/* v.s: the union's first member, the one a braced list sets. */
	struct ehs_field f = { name, EHS_FIELD_STRING, { s } };
	return f;
}

static inline __attribute__((always_inline))
struct ehs_field ehs_field_u_(const char *name, enum ehs_field_type type, uint64_t u)
{
	struct ehs_field f;
	f.name = name;
	f.type = type;
	f.v.u = u;
	return f;
}

/* v.i's bytes are i converted to uint64_t (two's complement). */
static inline __attribute__((always_inline))
struct ehs_field ehs_field_i_(const char *name, enum ehs_field_type type, int64_t i)
{
	return ehs_field_u_(name, type, static_cast<uint64_t>(i));
}
#endif

/* Most fields one native event may carry. */
#define EHS_FIELDS_MAX 32

/*
 * Whether a tracer records events of priority (LOG_xxx severity, or-ed
 * with a facility; none means openlog's) right now.  Cheap: call it
 * before computing expensive field values.
 */
EHS_API bool ehs_enabled(int priority);

/*
 * Writes one event named event_name (sanitised like an ident; NULL or ""
 * means the program's name) with the given fields, at priority.  Returns
 * 1 if written, 0 if nobody traces it (or the library is disabled, or the
 * call comes from inside the library: a signal handler interrupting it), -1
 * with errno EINVAL for bad arguments (a field's name or type, a UINT8
 * value over 255, a string over 65535 bytes) or E2BIG when the event
 * exceeds what its transport carries (4064 bytes; 1536 while a uprobe
 * is on the level's probe site; no splitting here).  errno is otherwise
 * preserved.
 */
EHS_API int ehs_event(int priority, const char *event_name,
		      const struct ehs_field *fields, unsigned nfields);

/*
 * Where ehs_event_cached keeps one event's metadata.  It must start
 * zeroed (a static one does) and is the library's alone after that.
 */
struct ehs_event_cache {
	uint64_t opaque[64];
};

/*
 * ehs_event, writing the same bytes, with the metadata kept in cache.
 * The first traced call fills the cache with its event_name and fields'
 * names and types, compared by address (the strings are not read again:
 * use string literals, or strings that never change).  Later calls with
 * the same addresses and types in the same order only write the values;
 * calls with others are written as ehs_event writes them, and the cache
 * keeps the first.  Calls at any priority, before or after openlog, use
 * the same cache.  The cache holds 480 bytes: 16 a field, the 12-byte
 * prefix and the metadata (the name, and each field's name and 2 or 3
 * bytes); an event needing more is never kept.  Safe from any thread and
 * from signal handlers: it never locks, never allocates, and a call that
 * finds the cache being filled writes its event as ehs_event does.
 * cache NULL is ehs_event.
 */
EHS_API int ehs_event_cached(struct ehs_event_cache *cache, int priority,
			     const char *event_name, const struct ehs_field *fields,
			     unsigned nfields);

/*
 * ehs_event_cached with a cache of this call site's own (GCC and Clang):
 *
 *   struct ehs_field f[] = { EHS_STRING("path", path), EHS_UINT8("code", 200) };
 *   EHS_EVENT(LOG_INFO, "request", f, 2);
 */
#define EHS_EVENT(priority, event_name, fields, nfields) __extension__ ({ \
	static struct ehs_event_cache ehs_event_cache_; \
	ehs_event_cached(&ehs_event_cache_, (priority), (event_name), (fields), (nfields)); })

/*
 * Where EHS_EMIT keeps one call site's state.  The call site reads
 * enabled and the byte it points at: while that byte has EHS_SITE_CALL,
 * the call goes to the library.  enabled starts at the site's own
 * priv_unarmed (EHS_SITE_CALL), so that the first call does; from then
 * on the library points it at a byte of its own that says whether the
 * site's tracepoint is traced (or that the library must see the call:
 * openlog moved the facility, say).  Initialised by EHS_EMIT; the
 * library's after that.
 */
struct ehs_event_site {
	const uint8_t *enabled;		/* read inline: the site's enable byte */
	uint8_t priv_unarmed;		/* private: EHS_SITE_CALL */
	unsigned long priv_epoch;	/* private: the facility's epoch when found */
	void *priv_tp;			/* private: the tracepoint */
	struct iovec priv_head;		/* private: the head, in cache */
	size_t priv_room;		/* private: the most bytes of values */
	uint64_t priv_channel;		/* private: the writer's channel, copied */
	struct ehs_event_cache cache;	/* private */
};

/* The bit of a site's enable byte that sends the call to the library. */
#define EHS_SITE_CALL 0x80

/* A site's first state, as a static initialiser of site itself (constant
 * initialisation in C++: no guard). */
#define EHS_EVENT_SITE_INIT_(site) \
	{ &(site).priv_unarmed, EHS_SITE_CALL, 0, NULL, { NULL, 0 }, 0, 0, { { 0 } } }

/* Most iovecs of an EHS_EMIT event with n fields: the writer's, the
 * head, for each string the bytes before it and the string, the bytes
 * after the last. */
#define EHS_SITE_IOV_N(n) (3 + 2 * (n))
#define EHS_SITE_IOV EHS_SITE_IOV_N(EHS_FIELDS_MAX)

/* What ehs_site_write returns when the site needs ehs_site_event. */
#define EHS_SITE_FULL (-2)

/*
 * EHS_EMIT's call into the library, made only when the site's tracepoint
 * may be traced.  iov[2..iovcnt) are the values as ehs_emit_values_
 * encoded them, size bytes in all; iov[0] and iov[1] are the library's
 * (the write index, the site's head).  Returns what ehs_event returns,
 * or EHS_SITE_FULL when the site has no head yet, openlog moved the
 * facility since it was found, its tracepoint is registering, or the
 * values do not fit (ehs_site_event then tells
 * E2BIG from a string over 65535 bytes): then ehs_site_event writes, or
 * refuses, the call.
 */
EHS_API int ehs_site_write(struct ehs_event_site *site, struct iovec *iov,
			   unsigned long iovcnt, size_t size);

/* The call written as ehs_event_cached writes it, and the site pointed
 * at its tracepoint, head and enable byte (again).  Returns what
 * ehs_event returns. */
EHS_API int ehs_site_event(struct ehs_event_site *site, int priority, const char *event_name,
			   const struct ehs_field *fields, unsigned nfields);

/* Where ehs_emit_field_ is in encoding one event's values. */
struct ehs_values_ {
	uint8_t *p;		/* the next byte of buf */
	uint8_t *from;		/* buf's bytes not yet in an iovec */
	struct iovec *io;	/* the next iovec */
	size_t text;		/* the strings' bytes */
};

/* v's low size bytes at *p, little-endian; *p moves past them. */
static inline __attribute__((always_inline))
void ehs_put_le_(uint8_t **p, uint64_t v, size_t size)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);	/* its bytes in memory: v little-endian */
#endif
	memcpy(*p, &v, size);
	*p += size;
}

/* The bytes of buf a field's value takes: a string's, its 16-bit length. */
static inline __attribute__((always_inline))
size_t ehs_field_bytes_(enum ehs_field_type type)
{
	switch (type) {
	case EHS_FIELD_STRING: return 2;
	case EHS_FIELD_INT64:
	case EHS_FIELD_UINT64: return 8;
	case EHS_FIELD_ERRNO: return 4;
	case EHS_FIELD_BOOL:
	case EHS_FIELD_UINT8: return 1;
	}
	return 0;
}

/*
 * A string field as ehs_event writes it: its 16-bit length at w->p, then
 * two iovecs, for the bytes of buf before it and for the string in
 * place.  -1 for a string over 65535 bytes, unless sized_later says the
 * caller refuses values over EHS_EVENT_MAX bytes anyway.
 */
static inline __attribute__((always_inline))
int ehs_emit_string_(struct ehs_values_ *w, const struct ehs_field *f, bool sized_later)
{
	const char *s = f->v.s ? f->v.s : "";
	size_t len = strlen(s);
	if (!sized_later && len > 0xffff)
		return -1;
	ehs_put_le_(&w->p, len, 2);
	w->io[0].iov_base = w->from;
	w->io[0].iov_len = (size_t)(w->p - w->from);
	w->io[1].iov_base = (void *)s;
	w->io[1].iov_len = len;
	w->io += 2;
	w->from = w->p;
	w->text += len;
	return 0;
}

/*
 * Any other field's value as ehs_event writes it, little-endian, at
 * w->p.  -1 for a value ehs_event refuses (a UINT8 over 255) or an
 * unknown type (never, when checked says the type is valid).
 */
static inline __attribute__((always_inline))
int ehs_emit_scalar_(struct ehs_values_ *w, const struct ehs_field *f, bool checked)
{
	uint64_t v = f->v.u;	/* INT64, ERRNO: v.i's bytes */

	switch (f->type) {
	case EHS_FIELD_STRING:
		break;
	case EHS_FIELD_INT64:
	case EHS_FIELD_UINT64:
	case EHS_FIELD_ERRNO:
		ehs_put_le_(&w->p, v, ehs_field_bytes_(f->type));
		return 0;
	case EHS_FIELD_BOOL:
		*w->p++ = v != 0;
		return 0;
	case EHS_FIELD_UINT8:
		if (v > 0xff)
			return -1;
		*w->p++ = (uint8_t)v;
		return 0;
	}
	if (checked)
		__builtin_unreachable();
	return -1;
}

/*
 * One field's value as ehs_event writes it: ehs_emit_string_ or
 * ehs_emit_scalar_.  Inline, so that where the type is a constant
 * (EHS_EMIT) it compiles to the stores alone; every native call of the
 * library uses it too.
 */
static inline __attribute__((always_inline))
int ehs_emit_field_(struct ehs_values_ *w, const struct ehs_field *f, bool checked,
		    bool sized_later)
{
	if (f->type == EHS_FIELD_STRING)
		return ehs_emit_string_(w, f, sized_later);
	return ehs_emit_scalar_(w, f, checked);
}

/* Ends the values begun at iov and buf: the last iovec, for buf's bytes
 * after the last string, if any (none after a string that ends the
 * fields: known where the types are, EHS_EMIT).  Returns how many iovecs
 * they take, with *size their length. */
static inline __attribute__((always_inline))
int ehs_emit_end_(struct ehs_values_ *w, const struct iovec *iov, const uint8_t *buf,
		  size_t *size)
{
	*size = w->text + (size_t)(w->p - buf);
	if (w->p == w->from)
		return (int)(w->io - iov);
	w->io->iov_base = w->from;
	w->io->iov_len = (size_t)(w->p - w->from);
	return (int)(w->io + 1 - iov);
}

/* A field's name and type, as ehs_event_cached keeps them (the
 * library's: for ehs_emit_values_). */
struct ehs_field_key {
	const char *name;
	unsigned long type;
};

/*
 * The fields' values, ehs_emit_field_ each, into iov (2 * strings + 1
 * of them) and buf (8 * nfields bytes).  Returns how many iovecs, with
 * *size the values' length; -1 for a value ehs_event refuses; -2 when
 * keys (if not NULL: valid types) are not these fields' names and types.
 */
static inline __attribute__((always_inline))
int ehs_emit_values_(const struct ehs_field *fields, unsigned nfields,
		     const struct ehs_field_key *keys, struct iovec *iov, uint8_t *buf,
		     size_t *size)
{
	struct ehs_values_ w = { buf, buf, iov, 0 };

	for (unsigned i = 0; i < nfields; i++) {
		if (keys && (fields[i].name != keys[i].name ||
			     (unsigned long)fields[i].type != keys[i].type))
			return -2;
		if (ehs_emit_field_(&w, &fields[i], keys != NULL, false) < 0)
			return -1;
	}
	return ehs_emit_end_(&w, iov, buf, size);
}

/*
 * The fields again, in copy, with their values read back from where
 * ehs_emit_field_ encoded them (iov from the third, buf): the same event
 * for ehs_site_event.  So that no value needs keeping across the call to
 * ehs_site_write, in a register the call site would save and restore.
 */
static inline __attribute__((always_inline))
void ehs_emit_reread_(struct ehs_field *copy, const struct ehs_field *fields,
		      unsigned nfields, const struct iovec *iov, const uint8_t *buf)
{
	const uint8_t *p = buf;
	int64_t i64;
	int32_t i32;

#pragma GCC unroll 32
	for (unsigned i = 0; i < nfields; i++) {
		copy[i] = fields[i];
		switch (fields[i].type) {
		case EHS_FIELD_STRING:
			copy[i].v.s = (const char *)iov[1].iov_base;
			iov += 2;
			p += 2;
			break;
		case EHS_FIELD_INT64:
		case EHS_FIELD_UINT64:
			memcpy(&i64, p, 8);
			copy[i].v.i = i64;
			p += 8;
			break;
		case EHS_FIELD_ERRNO:
			memcpy(&i32, p, 4);
			copy[i].v.i = i32;
			p += 4;
			break;
		case EHS_FIELD_BOOL:
		case EHS_FIELD_UINT8:
			copy[i].v.u = *p++;
			break;
		}
	}
}

/*
 * EHS_EMIT's traced path: the values encoded here, each field's code
 * unrolled for its type, into iov (EHS_SITE_IOV_N(nfields) of them) and
 * buf (8 * nfields bytes), the rest in the library.  The caller's arrays
 * are sized for its fields, so that an untraced call sets up no large
 * frame.  A site the library must see first (its first call, a facility
 * moved) goes to ehs_site_event with copy, the fields read back from the
 * encoded values; a value to refuse, with a copy of the fields as they
 * came.  The fields escape only on those paths, and the compiler keeps
 * them in registers, or nowhere, on the other.
 */
static inline __attribute__((always_inline))
int ehs_emit_(struct ehs_event_site *site, int priority, const char *event_name,
	      const struct ehs_field *fields, unsigned nfields, struct iovec *iov, uint8_t *buf,
	      struct ehs_field *copy)
{
	struct ehs_values_ w = { buf, buf, iov + 2, 0 };
	size_t size;
	bool refused = false;

	/* The other values first, the strings' lengths after: no value
	 * then waits in a register across a strlen call. */
#pragma GCC unroll 32
	for (unsigned i = 0; i < nfields; i++) {
		if (fields[i].type == EHS_FIELD_STRING)
			w.p += ehs_field_bytes_(EHS_FIELD_STRING);
		else if (ehs_emit_scalar_(&w, &fields[i], false) < 0)
			refused = true;
	}
	w.p = buf;
#pragma GCC unroll 32
	for (unsigned i = 0; i < nfields; i++) {
		if (fields[i].type == EHS_FIELD_STRING)
			ehs_emit_string_(&w, &fields[i], true);
		else
			w.p += ehs_field_bytes_(fields[i].type);
	}
	if (__builtin_expect(refused, 0)) {
		memcpy(copy, fields, nfields * sizeof copy[0]);
		return ehs_site_event(site, priority, event_name, copy, nfields);
	}
	int n = ehs_emit_end_(&w, iov + 2, buf, &size);
	int r = ehs_site_write(site, iov, (unsigned long)n + 2, size);
	if (__builtin_expect(r == EHS_SITE_FULL, 0)) {
		ehs_emit_reread_(copy, fields, nfields, iov + 2, buf);
		r = ehs_site_event(site, priority, event_name, copy, nfields);
	}
	return r;
}

/*
 * EHS_EMIT's traced call, r = ehs_emit_(...) with the fields in an array
 * of their own.  In C the array is declared just before the call.  In
 * C++ it is a braced list bound to
 * ehs_emit_fields_'s parameter within the call's own full-expression,
 * so that temporaries the values point into (std::to_string(n).c_str())
 * live until the event is written, as for any function call; the
 * template counts the fields.
 */
#ifndef __cplusplus
#define EHS_EMIT_CALL_(r, site, priority, event_name, ...) \
		const struct ehs_field ehs_emit_f_[] = { __VA_ARGS__ }; \
		enum { ehs_emit_n_ = sizeof ehs_emit_f_ / sizeof ehs_emit_f_[0] }; \
		_Static_assert(ehs_emit_n_ <= EHS_FIELDS_MAX, \
			       "EHS_EMIT: more than EHS_FIELDS_MAX fields"); \
		struct iovec ehs_emit_iov_[EHS_SITE_IOV_N(ehs_emit_n_)]; \
		uint8_t ehs_emit_buf_[8 * ehs_emit_n_]; \
		struct ehs_field ehs_emit_copy_[ehs_emit_n_]; \
		r = ehs_emit_(&site, priority, event_name, ehs_emit_f_, ehs_emit_n_, \
			      ehs_emit_iov_, ehs_emit_buf_, ehs_emit_copy_);
#else
#define EHS_EMIT_CALL_(r, site, priority, event_name, ...) \
		r = ehs_emit_fields_(&site, priority, event_name, { __VA_ARGS__ });
#endif

/*
 * One event whose priority (a constant), name (a string literal) and
 * fields (EHS_STRING... with string-literal names, one at least, in the
 * same order on every call) are fixed where it is written (GCC and
 * Clang):
 *
 *   EHS_EMIT(LOG_INFO, "request", EHS_STRING("path", path),
 *            EHS_UINT8("code", 200));
 *
 * Writes the bytes ehs_event writes and returns what it returns.  An
 * untraced call loads the site's enable byte (two loads, one test) and
 * evaluates no field; a traced one encodes the values inline and hands
 * them to the library, which adds the head it keeps for the site.  The
 * library never reads the field names again: they must not change.
 */
#define EHS_EMIT(priority, event_name, ...) __extension__ ({ \
	enum { ehs_emit_priority_ = (priority) }; \
	static struct ehs_event_site ehs_emit_site_ = EHS_EVENT_SITE_INIT_(ehs_emit_site_); \
	int ehs_emit_r_ = 0; \
	if (__builtin_expect(__atomic_load_n(__atomic_load_n(&ehs_emit_site_.enabled, \
							     __ATOMIC_RELAXED), \
					     __ATOMIC_RELAXED) & EHS_SITE_CALL, 0)) { \
		EHS_EMIT_CALL_(ehs_emit_r_, ehs_emit_site_, ehs_emit_priority_, "" event_name, \
			       __VA_ARGS__) \
	} \
	ehs_emit_r_; })

#ifdef __cplusplus
}

/* EHS_EMIT's fields in C++: n of them, in a braced list.  extern "C++":
 * a template, even where the header is included inside extern "C". */
extern "C++" {
template <size_t n>
static inline __attribute__((always_inline))
int ehs_emit_fields_(struct ehs_event_site *site, int priority, const char *event_name,
		     const struct ehs_field (&fields)[n])
{
	static_assert(n <= EHS_FIELDS_MAX, "EHS_EMIT: more than EHS_FIELDS_MAX fields");
	struct iovec iov[EHS_SITE_IOV_N(n)];
	uint8_t buf[8 * n];
	struct ehs_field copy[n];
	return ehs_emit_(site, priority, event_name, fields, n, iov, buf, copy);
}
}
#endif

#endif
