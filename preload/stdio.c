/* SPDX-License-Identifier: MIT */
/*
 * C's stdio output calls, for standard output and error when they are a
 * log (bridge/output/output.h).  glibc's stdio writes through its own
 * write(), which the write() wrapper never sees, so each call that writes
 * to a stream is watched here: the real call first, untouched (stdio's
 * buffering, locking, return value and errno stay its own), then, only
 * when it succeeded on a watched descriptor, its bytes to the bridge.
 *
 * What every call costs: the real function's pointer, then one load (a
 * stream is watched?) and a branch.  In a process whose output is a log,
 * whether a line is traced is read before the call (a tracer that starts
 * during it sees the next line), and while none is, the call's
 * descriptor and whether its text ended a line are all that is kept:
 * no copy of the arguments, no errno saved.
 *
 * The formatted forms' text is formatted again by the bridge from a copy
 * of the arguments, the same conversions; %n among them would store the
 * same count a second time.  Built without the sanitizers, as socket.c:
 * printf runs in other libraries' constructors too.
 *
 * Replace mode (ehs_output_replace's rules): a call whose text is whole
 * lines after whole lines is answered here, before it is made, with
 * what the call returns on success, errno untouched, and its bytes
 * never reach the stream's buffer; any other call is made.  The
 * character forms are always made: a character is at most an empty
 * line.
 */
#include "config.h"

#undef _FORTIFY_SOURCE

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <wchar.h>

#include "bridge/output/output.h"
#include "preload/next.h"
#include "preload/real.h"

typedef int (*vfprintf_fn)(FILE *, const char *, va_list);
typedef int (*vfprintf_chk_fn)(FILE *, int, const char *, va_list);
typedef int (*vdprintf_fn)(int, const char *, va_list);
typedef int (*vdprintf_chk_fn)(int, int, const char *, va_list);
typedef int (*fputs_fn)(const char *, FILE *);
typedef int (*puts_fn)(const char *);
typedef size_t (*fwrite_fn)(const void *, size_t, size_t, FILE *);
typedef int (*fputc_fn)(int, FILE *);
typedef int (*putchar_fn)(int);
typedef void (*perror_fn)(const char *);

static void *real_on_file, *real_on_file_chk, *real_on_fd, *real_on_fd_chk,
	*real_fputs, *real_fputs_unlocked, *real_puts, *real_fwrite, *real_fwrite_unlocked,
	*real_fputc, *real_fputc_unlocked, *real_putc, *real_putc_unlocked, *real__IO_putc,
	*real_putchar, *real_putchar_unlocked, *real_perror;

/* glibc's, which <stdio.h> does not declare. */
int __dprintf_chk(int fd, int flag, const char *fmt, ...);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
int _IO_putc(int c, FILE *f);

/* Where the real function is missing (the library loaded after libc,
 * out of RTLD_NEXT's reach, which no program that calls ours does). */
#define MISSING(ret) do { errno = ENOSYS; return ret; } while (0)

/* After a formatted call on fd returned r, errno at the call saved. */
static int printed(int fd, int saved, int r, const char *fmt, va_list ap)
{
	if (r > 0)
		ehs_output_printed(fd, saved, (size_t)r, fmt, ap);
	return r;
}

/* f's descriptor, or -1 for a stream on none (fmemopen's, a cookie's):
 * glibc's FILE keeps it in _fileno (<bits/types/struct_FILE.h>, part
 * of its ABI), read here without fileno_unlocked's call, which would
 * also set errno for those. */
static int stream_fd(FILE *f)
{
	return f->_fileno;
}

/* glibc's _IO_NO_WRITES (libio.h, not installed): a FILE opened for
 * reading only, on which every output call fails with EBADF. */
#define FILE_NO_WRITES 0x0008

/* In replace mode, a stdio call on f about to be made: f's descriptor
 * when the library may answer it instead (a watched stream, f one that
 * can write bytes), else -1.  orient: f made byte-oriented first, as the
 * call makes it (a wide one's byte calls fail: never answered). */
static int instead_fd(FILE *f, bool orient)
{
	int fd = stream_fd(f);
	if (!ehs_sock_is_output(fd) || (f->_flags & FILE_NO_WRITES) || fwide(f, orient ? -1 : 0) > 0)
		return -1;
	return fd;
}

/* The same for a call on a descriptor. */
static int instead_on_fd(int fd)
{
	return ehs_sock_is_output(fd) ? fd : -1;
}

/* Whether an unformatted call may be answered here (replace mode, a
 * stream watched): the mode's one load once a stream is. */
static inline bool replacing_output(void)
{
	return ehs_output_any() && __builtin_expect(ehs_config_replacing(), 0);
}

/* Replace mode's answer of a formatted call on fd (-1: none) in *r. */
static bool printed_instead(int fd, int flag, const char *fmt, va_list ap, int *r)
{
	return fd >= 0 && ehs_output_print_instead(fd, flag, errno, fmt, ap, r);
}

/* Replace mode's answer of the bytes iov[0..n) on fd (-1: none). */
static bool put_instead(int fd, const struct iovec *iov, size_t n)
{
	size_t taken;
	return fd >= 0 && ehs_output_replace(fd, iov, n, &taken);
}

/* name: a va_list form's path (vfprintf, __vfprintf_chk, vdprintf,
 * __vdprintf_chk, and what calls each): the real call, then its text,
 * from a copy of the arguments, for the descriptor fd_of gives. */
#define FORMATTED(name, fn_type, symbol, params, args, fd_of, instead, flag) \
	static int name params \
	{ \
		NEXT(fn_type, real, real_##name, symbol); \
		if (!real) \
			MISSING(-1); \
		if (__builtin_expect(!ehs_output_any(), 1)) \
			return real args; \
		int answer; \
		if (__builtin_expect(ehs_config_replacing(), 0) && \
		    printed_instead(instead, flag, fmt, ap, &answer)) \
			return answer; \
		if (__builtin_expect(!ehs_output_lines_traced(), 1)) { \
			int r = real args; \
			if (r > 0) \
				ehs_output_printed_untraced(fd_of, fmt); \
			return r; \
		} \
		int saved = errno; \
		va_list copy; \
		va_copy(copy, ap); \
		int r = printed(fd_of, saved, real args, fmt, copy); \
		va_end(copy); \
		return r; \
	}

FORMATTED(on_file, vfprintf_fn, "vfprintf", (FILE *f, const char *fmt, va_list ap),
	  (f, fmt, ap), stream_fd(f), instead_fd(f, true), -1)
FORMATTED(on_file_chk, vfprintf_chk_fn, "__vfprintf_chk",
	  (FILE *f, int flag, const char *fmt, va_list ap), (f, flag, fmt, ap), stream_fd(f),
	  instead_fd(f, true), flag)
FORMATTED(on_fd, vdprintf_fn, "vdprintf", (int fd, const char *fmt, va_list ap), (fd, fmt, ap),
	  fd, instead_on_fd(fd), -1)
FORMATTED(on_fd_chk, vdprintf_chk_fn, "__vdprintf_chk",
	  (int fd, int flag, const char *fmt, va_list ap), (fd, flag, fmt, ap), fd,
	  instead_on_fd(fd), flag)

/* The variadic forms, each through its va_list form's path. */
#define VARIADIC(decl, last, call) \
	EHS_INTERPOSE int decl \
	{ \
		va_list ap; \
		va_start(ap, last); \
		int r = call; \
		va_end(ap); \
		return r; \
	}

VARIADIC(printf(const char *fmt, ...), fmt, on_file(stdout, fmt, ap))
VARIADIC(fprintf(FILE *f, const char *fmt, ...), fmt, on_file(f, fmt, ap))
VARIADIC(dprintf(int fd, const char *fmt, ...), fmt, on_fd(fd, fmt, ap))
VARIADIC(__printf_chk(int flag, const char *fmt, ...), fmt, on_file_chk(stdout, flag, fmt, ap))
VARIADIC(__fprintf_chk(FILE *f, int flag, const char *fmt, ...), fmt,
	 on_file_chk(f, flag, fmt, ap))
VARIADIC(__dprintf_chk(int fd, int flag, const char *fmt, ...), fmt, on_fd_chk(fd, flag, fmt, ap))

EHS_INTERPOSE int vprintf(const char *fmt, va_list ap)
{
	return on_file(stdout, fmt, ap);
}

EHS_INTERPOSE int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	return on_file(f, fmt, ap);
}

EHS_INTERPOSE int vdprintf(int fd, const char *fmt, va_list ap)
{
	return on_fd(fd, fmt, ap);
}

EHS_INTERPOSE int __vprintf_chk(int flag, const char *fmt, va_list ap)
{
	return on_file_chk(stdout, flag, fmt, ap);
}

EHS_INTERPOSE int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
	return on_file_chk(f, flag, fmt, ap);
}

EHS_INTERPOSE int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap)
{
	return on_fd_chk(fd, flag, fmt, ap);
}

/* The unformatted forms: the bytes they were given, once written. */
static void put(FILE *f, const void *p, size_t len)
{
	int fd = stream_fd(f);
	if (!len || !ehs_sock_is_output(fd))
		return;
	if (__builtin_expect(!ehs_output_lines_traced(), 1)) {
		ehs_output_idle_sent(fd, ((const char *)p)[len - 1]);
		return;
	}
	int after = errno;
	ehs_output_put(fd, p, len);
	errno = after;
}

static int put_string(fputs_fn real, const char *s, FILE *f)
{
	if (!real)
		MISSING(EOF);
	if (replacing_output()) {
		struct iovec text = { (void *)s, strlen(s) };
		if (put_instead(instead_fd(f, true), &text, 1))
			return 1;	/* glibc's fputs' success */
	}
	int r = real(s, f);
	if (r != EOF && ehs_output_any())
		put(f, s, strlen(s));
	return r;
}

EHS_INTERPOSE int fputs(const char *s, FILE *f)
{
	NEXT(fputs_fn, real, real_fputs, "fputs");
	return put_string(real, s, f);
}

EHS_INTERPOSE int fputs_unlocked(const char *s, FILE *f)
{
	NEXT(fputs_fn, real, real_fputs_unlocked, "fputs_unlocked");
	return put_string(real, s, f);
}

EHS_INTERPOSE int puts(const char *s)
{
	NEXT(puts_fn, real, real_puts, "puts");
	if (!real)
		MISSING(EOF);
	if (replacing_output()) {
		size_t len = strlen(s);
		struct iovec line[2] = { { (void *)s, len }, { "\n", 1 } };
		if (put_instead(instead_fd(stdout, true), line, 2))
			return len < INT_MAX ? (int)len + 1 : INT_MAX;	/* glibc's puts' */
	}
	int r = real(s);
	if (r != EOF && ehs_output_any()) {
		if (ehs_output_lines_traced())	/* else only the line's end counts */
			put(stdout, s, strlen(s));
		put(stdout, "\n", 1);
	}
	return r;
}

static size_t put_items(fwrite_fn real, const void *p, size_t size, size_t n, FILE *f)
{
	if (!real)
		MISSING(0);
	if (replacing_output() && size && n <= SIZE_MAX / size) {
		struct iovec items = { (void *)p, size * n };
		if (put_instead(instead_fd(f, true), &items, 1))
			return n;
	}
	size_t r = real(p, size, n, f);
	if (r && ehs_output_any())
		put(f, p, r * size);	/* r <= n: the product does not overflow */
	return r;
}

EHS_INTERPOSE size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	NEXT(fwrite_fn, real, real_fwrite, "fwrite");
	return put_items(real, p, size, n, f);
}

EHS_INTERPOSE size_t (fwrite_unlocked)(const void *p, size_t size, size_t n, FILE *f)
{
	NEXT(fwrite_fn, real, real_fwrite_unlocked, "fwrite_unlocked");
	return put_items(real, p, size, n, f);
}

/* After a character form wrote c to f and returned r. */
static int char_put(FILE *f, int c, int r)
{
	if (r != EOF && ehs_output_any()) {
		unsigned char b = (unsigned char)c;
		put(f, &b, 1);
	}
	return r;
}

/* fputc's forms, and putchar's (fputc on stdout). */
#define PUT_CHAR(name, symbol) \
	EHS_INTERPOSE int name(int c, FILE *f) \
	{ \
		NEXT(fputc_fn, real, real_##name, symbol); \
		if (!real) \
			MISSING(EOF); \
		return char_put(f, c, real(c, f)); \
	}
PUT_CHAR(fputc, "fputc")
PUT_CHAR(fputc_unlocked, "fputc_unlocked")
PUT_CHAR(putc, "putc")
PUT_CHAR(putc_unlocked, "putc_unlocked")
PUT_CHAR(_IO_putc, "_IO_putc")

#define PUT_STDOUT_CHAR(name, symbol) \
	EHS_INTERPOSE int name(int c) \
	{ \
		NEXT(putchar_fn, real, real_##name, symbol); \
		if (!real) \
			MISSING(EOF); \
		return char_put(stdout, c, real(c)); \
	}
PUT_STDOUT_CHAR(putchar, "putchar")
PUT_STDOUT_CHAR(putchar_unlocked, "putchar_unlocked")

/* perror(s): "s: " unless s is NULL or empty, strerror(errno), "\n", on
 * stderr; it says nothing of whether that was written.  Its pieces, as
 * puts' are. */
EHS_INTERPOSE void perror(const char *s)
{
	NEXT(perror_fn, real, real_perror, "perror");
	int err = errno;
	if (!ehs_output_any()) {
		if (real)
			real(s);
		return;
	}
	bool prefix = s && *s;
	const char *text = strerror(err);
	errno = err;
	struct iovec line[] = {
		{ (void *)(prefix ? s : ""), prefix ? strlen(s) : 0 },
		{ ": ", prefix ? 2 : 0 },
		{ (void *)text, strlen(text) },
		{ "\n", 1 },
	};
	/* glibc's perror leaves standard error's orientation as it was. */
	if (__builtin_expect(ehs_config_replacing(), 0) && put_instead(instead_fd(stderr, false), line, 4))
		return;
	if (real)
		real(s);
	int after = errno;
	for (size_t i = 0; i < sizeof line / sizeof line[0]; i++)
		put(stderr, line[i].iov_base, line[i].iov_len);
	errno = after;
}
