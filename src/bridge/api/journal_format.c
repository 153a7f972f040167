/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/api/journal_format.h"

#include <errno.h>
#include <printf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <wchar.h>

/* libsystemd's VA_FORMAT_ADVANCE keeps 128 argument types. */
#define ARGS_MAX 128

/* Steps *ap past format's arguments.  -1 for more than ARGS_MAX. */
static int skip_args(const char *format, va_list *ap)
{
	int types[ARGS_MAX];
	size_t k = parse_printf_format(format, ARGS_MAX, types);
	if (k >= ARGS_MAX)
		return -1;
	for (size_t i = 0; i < k; i++) {
		int t = types[i];
		if (t & PA_FLAG_PTR) {
			(void)va_arg(*ap, void *);
			continue;
		}
		switch (t & ~PA_FLAG_MASK) {
		case PA_INT:
		case PA_CHAR:
			if (t & PA_FLAG_LONG_LONG)
				(void)va_arg(*ap, long long);
			else if (t & PA_FLAG_LONG)
				(void)va_arg(*ap, long);
			else
				(void)va_arg(*ap, int);
			break;
		case PA_WCHAR:
			(void)va_arg(*ap, wint_t);
			break;
		case PA_FLOAT:
		case PA_DOUBLE:
			if (t & PA_FLAG_LONG_DOUBLE)
				(void)va_arg(*ap, long double);
			else
				(void)va_arg(*ap, double);
			break;
		default:	/* PA_STRING, PA_WSTRING, PA_POINTER */
			(void)va_arg(*ap, void *);
			break;
		}
	}
	return 0;
}

/* Where the fields go: iov_cap iovecs, then text_cap bytes. */
struct room {
	struct iovec *iov;
	size_t iov_cap;
	char *text;
	size_t text_cap;
};

/* One pass over the list: fills room while it fits and counts what the
 * whole list needs.  Returns 0 or a negative errno. */
static int pass(struct room *r, size_t *iov_need, size_t *text_need, int saved_errno,
		const char *func, const char *format, va_list ap)
{
	size_t n = 0, at = 0;
	va_list cur;
	va_copy(cur, ap);
	if (func) {
		size_t len = 10 + strlen(func);
		n = 3;
		if (n <= r->iov_cap && len + 1 <= r->text_cap) {
			memcpy(r->text, "CODE_FUNC=", 10);
			memcpy(r->text + 10, func, len - 10 + 1);
			r->iov[2] = (struct iovec){ r->text, len };
		}
		at = len + 1;
	}
	int rc = 0;
	for (; format; format = va_arg(cur, const char *), n++) {
		va_list args;
		va_copy(args, cur);
		char *dst = at < r->text_cap ? r->text + at : NULL;
		errno = saved_errno;
		int len = vsnprintf(dst, dst ? r->text_cap - at : 0, format, args);
		va_end(args);
		if (len < 0) {
			rc = -ENOMEM;	/* libsystemd's vasprintf fails the same */
			break;
		}
		if (skip_args(format, &cur) < 0) {
			rc = -E2BIG;
			break;
		}
		if (n < r->iov_cap && dst && (size_t)len < r->text_cap - at) {
			/* libsystemd's field is the C string: a NUL byte
			 * from %c ends it. */
			size_t kept = strlen(dst);
			while (kept && strchr(" \t\n\r", dst[kept - 1]))
				kept--;
			r->iov[n] = (struct iovec){ dst, kept };
		}
		at += (size_t)len + 1;
	}
	va_end(cur);
	*iov_need = n;
	*text_need = at;
	return rc;
}

int ehs_journal_format(struct ehs_journal_fields *f, int saved_errno, const char *func,
		       const char *format, va_list ap)
{
	struct room r = { f->iov_stack, EHS_JOURNAL_IOV_STACK,
			  f->text_stack, sizeof f->text_stack };
	size_t iov_need, text_need;
	f->map = NULL;
	f->map_len = 0;
	f->iov = f->iov_stack;
	f->n = 0;
	int rc = pass(&r, &iov_need, &text_need, saved_errno, func, format, ap);
	if (rc < 0)
		return rc;
	if (iov_need > INT32_MAX || text_need > SIZE_MAX / 2)
		return -ENOMEM;
	if (iov_need > r.iov_cap || text_need > r.text_cap) {
		size_t iov_bytes = iov_need * sizeof(struct iovec);
		size_t len = iov_bytes + text_need;
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return -ENOMEM;
		f->map = m;
		f->map_len = len;
		r = (struct room){ m, iov_need, (char *)m + iov_bytes, text_need };
		rc = pass(&r, &iov_need, &text_need, saved_errno, func, format, ap);
		if (rc < 0) {
			ehs_journal_format_free(f);
			return rc;
		}
		f->iov = m;
	}
	f->n = (int)iov_need;
	return 0;
}

void ehs_journal_format_free(struct ehs_journal_fields *f)
{
	if (f->map)
		munmap(f->map, f->map_len);
	f->map = NULL;
}
