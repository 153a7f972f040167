/* SPDX-License-Identifier: MIT */
/*
 * sd_journal_send's argument list made into the iovecs it sends.  The
 * call has no va_list form to hand on, so its fields are formatted here
 * exactly as libsystemd 252 does (journal-send.c): each format with
 * vsnprintf (errno as at the call, for %m), then its own arguments
 * skipped by their types (glibc's parse_printf_format), then trailing
 * " \t\n\r" stripped, until a NULL format.  Without malloc: on the stack,
 * or for a long list in pages mapped for this call.
 */
#ifndef EHS_BRIDGE_JOURNAL_FORMAT_H
#define EHS_BRIDGE_JOURNAL_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/uio.h>

#define EHS_JOURNAL_IOV_STACK 32
#define EHS_JOURNAL_TEXT_STACK 4096

struct ehs_journal_fields {
	struct iovec *iov;	/* n of them */
	int n;
	void *map;		/* pages mapped for this call, or NULL */
	size_t map_len;
	struct iovec iov_stack[EHS_JOURNAL_IOV_STACK];
	char text_stack[EHS_JOURNAL_TEXT_STACK];
};

/*
 * Formats the list that starts with format.  With func set (the
 * _with_location form), iov[0] and iov[1] are left for the caller's
 * file and line strings and iov[2] is "CODE_FUNC=" func, as
 * sd_journal_send_with_location puts them first.  Returns 0, or a
 * negative errno as libsystemd would return it (-ENOMEM: a field
 * vsnprintf cannot format; -E2BIG: a format with more than 128
 * arguments, where libsystemd aborts); then nothing needs freeing.
 */
int ehs_journal_format(struct ehs_journal_fields *f, int saved_errno, const char *func,
		       const char *format, va_list ap);

void ehs_journal_format_free(struct ehs_journal_fields *f);

#endif
