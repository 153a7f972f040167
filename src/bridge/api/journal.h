/* SPDX-License-Identifier: MIT */
/*
 * libsystemd's journal fields as one event: the "KEY=value" fields an
 * sd_journal_* call hands to journald, taken apart into the schema's
 * fields and extra string fields.  The rules follow what journald does
 * with the same fields (systemd 252's journald-native.c), so the event
 * says what the journal records:
 *
 *   MESSAGE=            the message, bytes as they are
 *   PRIORITY=0..7       the severity (one digit); LOG_INFO without
 *   SYSLOG_FACILITY=N   the facility, one or two digits; openlog's without
 *   SYSLOG_IDENTIFIER=  the event name when not empty; the program's
 *                       short name without (what libsystemd sends then)
 *   CODE_FILE=          the file field (up to EHS_JOURNAL_FILE_MAX bytes,
 *                       no NUL byte)
 *   CODE_LINE=N         the line field (decimal, 32 bits)
 *   ERRNO=N             the errno field (decimal, 31 bits); errno at the
 *                       call without
 *
 * Of a key given twice, the last value the rule accepts counts.  A value
 * a rule refuses (PRIORITY=9, CODE_LINE=x) stays an extra field of that
 * name.  Every other field is an extra string field named by its key, in
 * call order, CODE_FUNC among them.  Keys journald drops are dropped too:
 * longer than 64 bytes, starting with a digit or '_', or with any byte
 * outside A-Z, 0-9 and '_'.  Extras go in while they fit
 * EHS_EXTRA_BYTES (bridge/record.h), at most EHS_JOURNAL_EXTRA_MAX of
 * them; the first one that does not and all after it are left out.
 */
#ifndef EHS_BRIDGE_JOURNAL_H
#define EHS_BRIDGE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <syslog.h>

#include "bridge/ident.h"
#include "bridge/record.h"

void ehs_journal_init(struct ehs_journal *j);

/* A record's facility (-1: openlog's) as the tracepoint's. */
static inline unsigned ehs_journal_facility(int facility)
{
	return facility >= 0 ? (unsigned)facility : (unsigned)LOG_FAC(ehs_ident_facility());
}

/*
 * One field of len bytes as sd_journal_sendv takes it: "KEY=value", the
 * value any bytes (newlines and NUL bytes too).  Returns -1 for a field
 * libsystemd refuses, and with it the whole call (-EINVAL): NULL, shorter
 * than 2 bytes, no '=', an empty key, a newline in the key.
 */
int ehs_journal_add(struct ehs_journal *j, const void *field, size_t len);

/* The same with the key (1 byte or more, no '=') and value apart. */
void ehs_journal_put(struct ehs_journal *j, const char *key, size_t key_len,
		     const char *value, size_t value_len);

/* Whether journald keeps a field named k[0..n) (its
 * journal_field_valid(), protected fields refused): the rule above. */
bool ehs_journal_key_valid(const char *k, size_t n);

/* One extra string field named key[0..key_len) (1 byte or more, no NUL
 * and no ';'), not checked against journald's rule: for fields that are
 * not the journal's (syslog datagrams' structured data).  Returns
 * whether it went in, by the rule above. */
bool ehs_journal_extra(struct ehs_journal *j, const char *key, size_t key_len,
		       const char *value, size_t value_len);

/* Whether libsystemd's sd_journal_sendv takes iov[0..n) (else it
 * returns -EINVAL and sends nothing): n > 0 and each field passes
 * ehs_journal_add's check. */
bool ehs_journal_valid(const struct iovec *iov, int n);

/* The severity and facility (-1: openlog's) the fields give, as the
 * rules above read them, without taking anything else apart: which
 * tracepoint the call's event would go to. */
void ehs_journal_level(const struct iovec *iov, int n, int *severity, int *facility);

/* ehs_journal_level's reading of one field: sets *severity or *facility
 * when the field is a valid PRIORITY or SYSLOG_FACILITY. */
void ehs_journal_level_field(const char *key, size_t key_len, const char *value,
			     size_t value_len, int *severity, int *facility);

/* The event for j (if its tracepoint is traced); saved_errno is errno
 * at the call.  Whether it could be written, as ehs_log says. */
bool ehs_journal_log(const struct ehs_journal *j, int saved_errno);

#endif
