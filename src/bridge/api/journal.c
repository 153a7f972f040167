/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/api/journal.h"

#include <errno.h>
#include <string.h>
#include <syslog.h>

#include "bridge/bridge.h"
#include "bridge/ident.h"

void ehs_journal_init(struct ehs_journal *j)
{
	j->severity = LOG_INFO;	/* journald's for an entry without PRIORITY= */
	j->facility = -1;
	j->msg = "";
	j->msg_len = 0;
	j->ident = NULL;
	j->ident_len = 0;
	j->has_file = j->has_line = j->has_errno = false;
	j->line = 0;
	j->err = 0;
	j->full = false;
	j->nextra = 0;
	j->extra_bytes = 0;
	j->names_len = 0;
}

bool ehs_journal_key_valid(const char *k, size_t n)
{
	if (n == 0 || n > EHS_JOURNAL_KEY_MAX || k[0] == '_' || (k[0] >= '0' && k[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((k[i] >= 'A' && k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
			return false;
	return true;
}

static bool key_is(const char *k, size_t n, const char *name)
{
	return strlen(name) == n && memcmp(k, name, n) == 0;
}

/* journald's: exactly one digit, here 0..7 (it would add 8 and 9 to
 * the facility bits). */
static int priority_value(const char *v, size_t n)
{
	return n == 1 && v[0] >= '0' && v[0] <= '7' ? v[0] - '0' : -1;
}

/* journald's: one or two digits. */
static int facility_value(const char *v, size_t n)
{
	return n >= 1 && n <= 2 ? (int)ehs_decimal(v, n, 99) : -1;
}

bool ehs_journal_extra(struct ehs_journal *j, const char *key, size_t key_len,
		       const char *value, size_t value_len)
{
	/* bridge/record.h's rule: name, NUL, encoding byte, 16-bit count, value. */
	size_t need = key_len + 2 + 2 + value_len;
	if (j->full || j->nextra == EHS_JOURNAL_EXTRA_MAX || value_len > EHS_EXTRA_BYTES ||
	    need > EHS_EXTRA_BYTES - j->extra_bytes) {
		j->full = true;
		return false;
	}
	char *name = j->names + j->names_len;
	memcpy(name, key, key_len);
	name[key_len] = '\0';
	j->names_len += key_len + 1;
	j->extra_bytes += need;
	j->extra[j->nextra++] = (struct ehs_extra){ .name = name, .value = value, .value_len = value_len };
	return true;
}

void ehs_journal_put(struct ehs_journal *j, const char *key, size_t key_len,
		     const char *value, size_t value_len)
{
	if (!ehs_journal_key_valid(key, key_len))
		return;
	if (key_is(key, key_len, "MESSAGE")) {
		j->msg = value;
		j->msg_len = value_len;
		return;
	}
	if (key_is(key, key_len, "PRIORITY")) {
		int v = priority_value(value, value_len);
		if (v >= 0) {
			j->severity = v;
			return;
		}
	} else if (key_is(key, key_len, "SYSLOG_FACILITY")) {
		int v = facility_value(value, value_len);
		if (v >= 0) {
			j->facility = v;
			return;
		}
	} else if (key_is(key, key_len, "SYSLOG_IDENTIFIER")) {
		if (value_len) {
			j->ident = value;
			j->ident_len = value_len;
			return;
		}
	} else if (key_is(key, key_len, "CODE_FILE")) {
		if (value_len <= EHS_JOURNAL_FILE_MAX && !memchr(value, '\0', value_len)) {
			memcpy(j->file, value, value_len);
			j->file[value_len] = '\0';
			j->has_file = true;
			return;
		}
	} else if (key_is(key, key_len, "CODE_LINE")) {
		long long v = ehs_decimal(value, value_len, UINT32_MAX);
		if (v >= 0) {
			j->line = (uint32_t)v;
			j->has_line = true;
			return;
		}
	} else if (key_is(key, key_len, "ERRNO")) {
		long long v = ehs_decimal(value, value_len, INT32_MAX);
		if (v >= 0) {
			j->err = (int32_t)v;
			j->has_errno = true;
			return;
		}
	}
	ehs_journal_extra(j, key, key_len, value, value_len);
}

/* Where the key of a field ends ('=' at eq), or NULL when libsystemd's
 * sd_journal_sendv refuses the field. */
static const char *split(const void *field, size_t len)
{
	if (!field || len <= 1)
		return NULL;
	const char *eq = memchr(field, '=', len);
	if (!eq || eq == field || memchr(field, '\n', (size_t)(eq - (const char *)field)))
		return NULL;
	return eq;
}

int ehs_journal_add(struct ehs_journal *j, const void *field, size_t len)
{
	const char *eq = split(field, len);
	if (!eq)
		return -1;
	const char *key = field;
	size_t key_len = (size_t)(eq - key);
	ehs_journal_put(j, key, key_len, eq + 1, len - key_len - 1);
	return 0;
}

bool ehs_journal_valid(const struct iovec *iov, int n)
{
	if (!iov || n <= 0)
		return false;
	for (int i = 0; i < n; i++)
		if (!split(iov[i].iov_base, iov[i].iov_len))
			return false;
	return true;
}

void ehs_journal_level_field(const char *key, size_t key_len, const char *value,
			     size_t value_len, int *severity, int *facility)
{
	int v;
	if (key_is(key, key_len, "PRIORITY") && (v = priority_value(value, value_len)) >= 0)
		*severity = v;
	else if (key_is(key, key_len, "SYSLOG_FACILITY") &&
		 (v = facility_value(value, value_len)) >= 0)
		*facility = v;
}

void ehs_journal_level(const struct iovec *iov, int n, int *severity, int *facility)
{
	*severity = LOG_INFO;
	*facility = -1;
	for (int i = 0; iov && i < n; i++) {
		const char *eq = split(iov[i].iov_base, iov[i].iov_len);
		if (!eq)
			continue;
		const char *key = iov[i].iov_base;
		size_t key_len = (size_t)(eq - key);
		ehs_journal_level_field(key, key_len, eq + 1, iov[i].iov_len - key_len - 1, severity,
					facility);
	}
}

bool ehs_journal_log(const struct ehs_journal *j, int saved_errno)
{
	struct ehs_source src = {
		/* libsystemd sends the program's short name when the call
		 * gives no identifier; openlog's ident is syslog's only. */
		.name = program_invocation_short_name,
		.extra = j->extra,
		.nextra = j->nextra,
	};
	if (j->ident && j->ident_len) {
		/* Its bytes, cleaned where the event is made: no copy of
		 * the name on this frame too. */
		src.name = j->ident;
		src.name_len = j->ident_len;
	}
	if (j->has_file || j->has_line) {
		src.file = j->has_file ? j->file : "";
		src.line = j->line;
	}
	return ehs_log(j->severity, ehs_journal_facility(j->facility), j->has_errno ? j->err : saved_errno, &src,
		       j->msg, j->msg_len);
}
