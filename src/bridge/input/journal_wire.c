/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/input/journal_wire.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <syslog.h>

#include "bridge/api/journal.h"

/* The length of a binary field: 64 bits, little-endian, unaligned. */
#define LEN_BYTES 8

static uint64_t le64(const char *p)
{
	uint64_t v = 0;
	for (int i = LEN_BYTES - 1; i >= 0; i--)
		v = v << 8 | (unsigned char)p[i];
	return v;
}

/* journald's check before it takes a field of size bytes (name, '=' and
 * value) as the n+1st: the data, a separator each and a trailer. */
static bool entry_fits(uint64_t entry, uint64_t size, uint64_t n)
{
	return entry + size + n + 1 <= EHS_JOURNAL_WIRE_ENTRY_MAX;
}

/* Calls field(ctx, ...) for each field journald keeps of bytes[0..len),
 * in order; the entry's verdict as ehs_journal_wire_parse gives it. */
typedef void field_fn(void *ctx, const char *key, size_t key_len, const char *value,
		      size_t value_len);

static int walk(const char *bytes, size_t len, field_fn *field, void *ctx)
{
	if (!bytes)
		return -1;
	const char *p = bytes, *end = bytes + len;
	/* As journald counts them: fields kept, and their bytes. */
	uint64_t n = 0, entry = 0;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e || e == p)
			break;
		if (*p == '.' || *p == '#') {
			p = e + 1;
			continue;
		}
		if (n > EHS_JOURNAL_WIRE_FIELDS_MAX)
			return -1;
		size_t key_len = (size_t)(e - p);
		const char *eq = memchr(p, '=', key_len);
		if (eq) {
			key_len = (size_t)(eq - p);
			if (ehs_journal_key_valid(p, key_len)) {
				uint64_t size = (uint64_t)(e - p);
				if (size > EHS_JOURNAL_WIRE_DATA_MAX || !entry_fits(entry, size, n))
					return -1;
				field(ctx, p, key_len, eq + 1, (size_t)(e - eq - 1));
				n++;
				entry += size;
			}
			p = e + 1;
			continue;
		}
		/* Binary: the length, value and '\n' after the name's '\n';
		 * journald weighs the length before it looks for the bytes. */
		size_t left = (size_t)(end - e) - 1;
		if (left < LEN_BYTES + 1)
			break;
		uint64_t l = le64(e + 1);
		if (l > EHS_JOURNAL_WIRE_DATA_MAX || !entry_fits(entry, key_len + 1 + l, n))
			return -1;
		const char *value = e + 1 + LEN_BYTES;
		if (l > left - LEN_BYTES - 1 || value[l] != '\n')
			break;
		if (ehs_journal_key_valid(p, key_len)) {
			field(ctx, p, key_len, value, (size_t)l);
			n++;
			entry += key_len + 1 + l;
		}
		p = value + l + 1;
	}
	/* journald adds _TRANSPORT=journal, and weighs the entry again. */
	static const char transport[] = "_TRANSPORT=journal";
	if (n == 0 || !entry_fits(entry + sizeof transport - 1, 0, n + 1))
		return -1;
	return 0;
}

static void put(void *ctx, const char *key, size_t key_len, const char *value, size_t value_len)
{
	ehs_journal_put(ctx, key, key_len, value, value_len);
}

int ehs_journal_wire_parse(struct ehs_journal *j, const char *bytes, size_t len)
{
	ehs_journal_init(j);
	return walk(bytes, len, put, j);
}

struct level {
	int severity, facility;
};

static void pick_level(void *ctx, const char *key, size_t key_len, const char *value,
		       size_t value_len)
{
	struct level *l = ctx;
	ehs_journal_level_field(key, key_len, value, value_len, &l->severity, &l->facility);
}

int ehs_journal_wire_level(const char *bytes, size_t len, int *severity, int *facility)
{
	struct level l = { LOG_INFO, -1 };
	int r = walk(bytes, len, pick_level, &l);
	*severity = l.severity;
	*facility = l.facility;
	return r;
}
