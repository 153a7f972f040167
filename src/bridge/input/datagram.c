/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/input/datagram.h"

#include <stdbool.h>
#include <string.h>
#include <syslog.h>

#include "bridge/api/journal.h"

/* Where structured data goes (sd_extra_name). */
#define SD_PREFIX "syslog."

/* A cursor over the datagram: p moves, end never does. */
struct cur {
	const char *p, *end;
};

static bool at(const struct cur *c, char ch)
{
	return c->p < c->end && *c->p == ch;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* RFC 5424's PRINTUSASCII. */
static bool is_print(char ch)
{
	return ch > ' ' && ch < 0x7f;
}

/* "<N>", N 0..191: the priority, c moved past it; else -1, c unmoved. */
static int pri(struct cur *c)
{
	const char *p = c->p;
	int v = 0, n = 0;
	if (p == c->end || *p++ != '<')
		return -1;
	for (; p < c->end && is_digit(*p) && n < 3; p++, n++)
		v = v * 10 + (*p - '0');
	/* 191: the last severity of the last of glibc's 24 facilities. */
	if (n == 0 || p == c->end || *p != '>' || v > ((LOG_NFACILITIES - 1) << 3 | LOG_DEBUG))
		return -1;
	c->p = p + 1;
	return v;
}

/* ---- RFC 3164 ---- */

/* "Mmm dd hh:mm:ss " as glibc's strftime("%h %e %T") writes it. */
static bool timestamp_3164(const char *p, size_t n)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	if (n < 16)
		return false;
	bool month = false;
	for (size_t m = 0; m < 36 && !month; m += 3)
		month = memcmp(p, months + m, 3) == 0;
	/* "Mmm dd hh:mm:ss ": positions of the fixed bytes. */
	return month && p[3] == ' ' && (p[4] == ' ' || is_digit(p[4])) && is_digit(p[5]) &&
	       p[6] == ' ' && is_digit(p[7]) && is_digit(p[8]) && p[9] == ':' &&
	       is_digit(p[10]) && is_digit(p[11]) && p[12] == ':' && is_digit(p[13]) &&
	       is_digit(p[14]) && p[15] == ' ';
}

/* "TAG[PID]:" or "TAG:" and one space at c: the ident, and the
 * message after it.  False (d untouched) when it is not there. */
static bool tag(struct ehs_datagram *d, struct cur c)
{
	const char *t = c.p;
	while (c.p < c.end && *c.p != ' ' && *c.p != ':' && *c.p != '[')
		c.p++;
	size_t tag_len = (size_t)(c.p - t);
	if (tag_len == 0)
		return false;
	if (at(&c, '[')) {
		const char *pid = ++c.p;
		while (c.p < c.end && is_digit(*c.p) && c.p - pid < 10)
			c.p++;
		if (c.p == pid || !at(&c, ']'))
			return false;
		c.p++;
	}
	if (!at(&c, ':'))
		return false;
	c.p++;
	if (at(&c, ' '))
		c.p++;
	d->j.ident = t;
	d->j.ident_len = tag_len;
	d->j.msg = c.p;
	d->j.msg_len = (size_t)(c.end - c.p);
	return true;
}

static void parse_3164(struct ehs_datagram *d, struct cur c)
{
	d->kind = EHS_DATAGRAM_3164;
	d->j.msg = c.p;
	d->j.msg_len = (size_t)(c.end - c.p);
	if (!timestamp_3164(c.p, (size_t)(c.end - c.p))) {
		tag(d, c);
		return;
	}
	c.p += 16;
	d->j.msg = c.p;
	d->j.msg_len = (size_t)(c.end - c.p);
	if (tag(d, c))
		return;
	/* logger --rfc3164 writes a hostname after the timestamp, as RFC
	 * 3164 has it; glibc does not.  A word and a space are taken for
	 * one only when a tag follows them. */
	const char *host = c.p;
	while (c.p < c.end && is_print(*c.p))
		c.p++;
	if (c.p > host && at(&c, ' ')) {
		c.p++;
		tag(d, c);
	}
}

/* ---- RFC 5424 ---- */

/* One header field and the space after it: *f, *n the field, NULL for
 * "-".  False when it is not there. */
static bool field(struct cur *c, const char **f, size_t *n)
{
	const char *s = c->p;
	while (c->p < c->end && is_print(*c->p))
		c->p++;
	if (c->p == s || !at(c, ' '))
		return false;
	*n = (size_t)(c->p - s);
	*f = *n == 1 && *s == '-' ? NULL : s;
	c->p++;
	return true;
}

/* An SD-NAME: 1..32 printable bytes but '=', ']', '"'. */
static bool sd_name(struct cur *c, const char **s, size_t *n)
{
	*s = c->p;
	while (c->p < c->end && is_print(*c->p) && *c->p != '=' && *c->p != ']' && *c->p != '"')
		c->p++;
	*n = (size_t)(c->p - *s);
	return *n >= 1 && *n <= EHS_DATAGRAM_SD_NAME_MAX;
}

/* A PARAM-VALUE after its opening quote, c moved past the closing one:
 * its raw bytes at *v, *n of them, and how many bytes the escapes undone
 * leave. */
static bool sd_value(struct cur *c, const char **v, size_t *n, size_t *unescaped)
{
	*v = c->p;
	*unescaped = 0;
	while (c->p < c->end && *c->p != '"') {
		/* Only \" \\ \] are escapes; any other '\' is itself. */
		if (*c->p == '\\' && c->end - c->p >= 2 &&
		    (c->p[1] == '"' || c->p[1] == '\\' || c->p[1] == ']'))
			c->p++;
		c->p++;
		(*unescaped)++;
	}
	if (c->p == c->end)
		return false;
	*n = (size_t)(c->p - *v);
	c->p++;
	return true;
}

/* The value's bytes for an extra: the datagram's own when nothing is
 * escaped, else a copy in d->values with the escapes undone (NULL when
 * it does not fit, which the extra would not either). */
static const char *sd_value_bytes(struct ehs_datagram *d, const char *v, size_t n, size_t unescaped)
{
	if (unescaped == n)
		return v;
	if (unescaped > sizeof d->values - d->values_len)
		return NULL;
	char *out = d->values + d->values_len;
	for (size_t i = 0, o = 0; i < n; i++, o++) {
		if (v[i] == '\\' && i + 1 < n && (v[i + 1] == '"' || v[i + 1] == '\\' || v[i + 1] == ']'))
			i++;
		out[o] = v[i];
	}
	return out;
}

/* The name "syslog.SD-ID.NAME" of a parameter's extra, ';' made '_':
 * structured data under syslog.*, as the OpenTelemetry logs data
 * model's RFC5424 mapping puts it. */
static size_t sd_extra_name(char *out, const char *id, size_t id_len, const char *name, size_t name_len)
{
	memcpy(out, SD_PREFIX, sizeof SD_PREFIX - 1);
	memcpy(out + sizeof SD_PREFIX - 1, id, id_len);
	out[sizeof SD_PREFIX - 1 + id_len] = '.';
	memcpy(out + sizeof SD_PREFIX + id_len, name, name_len);
	size_t n = sizeof SD_PREFIX + id_len + name_len;
	for (size_t i = 0; i < n; i++)
		if (out[i] == ';')
			out[i] = '_';
	return n;
}

/*
 * STRUCTURED-DATA elements from c: true when they all parse, c then past
 * them.  With add, each parameter also becomes an extra of d; the first
 * pass runs without, so that structured data that does not parse adds
 * nothing and is all message.
 */
static bool sd_elements(struct ehs_datagram *d, struct cur *c, bool add)
{
	do {
		const char *id, *name, *v;
		size_t id_len, name_len, n, unescaped;
		c->p++;	/* '[' */
		if (!sd_name(c, &id, &id_len))
			return false;
		while (at(c, ' ')) {
			c->p++;
			if (!sd_name(c, &name, &name_len) || !at(c, '='))
				return false;
			c->p++;
			if (!at(c, '"'))
				return false;
			c->p++;
			if (!sd_value(c, &v, &n, &unescaped))
				return false;
			if (!add || d->j.full)
				continue;
			char key[sizeof SD_PREFIX + 2 * EHS_DATAGRAM_SD_NAME_MAX];
			size_t key_len = sd_extra_name(key, id, id_len, name, name_len);
			const char *bytes = sd_value_bytes(d, v, n, unescaped);
			if (!bytes)
				d->j.full = true;
			else if (ehs_journal_extra(&d->j, key, key_len, bytes, unescaped) && bytes != v)
				d->values_len += unescaped;
		}
		if (!at(c, ']'))
			return false;
		c->p++;
	} while (at(c, '['));
	return true;
}

static bool parse_5424(struct ehs_datagram *d, struct cur c)
{
	const char *f[5];
	size_t n[5];
	/* VERSION 1, the only one there is; an RFC 3164 message may start
	 * with "1 " too, which is why a header that fails falls back. */
	if (c.end - c.p < 2 || c.p[0] != '1' || c.p[1] != ' ')
		return false;
	c.p += 2;
	/* TIMESTAMP HOSTNAME APP-NAME PROCID MSGID */
	for (int i = 0; i < 5; i++)
		if (!field(&c, &f[i], &n[i]))
			return false;
	d->kind = EHS_DATAGRAM_5424;
	d->j.ident = f[2];
	d->j.ident_len = f[2] ? n[2] : 0;
	if (f[3])
		ehs_journal_extra(&d->j, "syslog.procid", 13, f[3], n[3]);
	if (f[4])
		ehs_journal_extra(&d->j, "syslog.msgid", 12, f[4], n[4]);

	struct cur sd = c;
	bool ok;
	if (at(&c, '-')) {
		c.p++;
		ok = true;
	} else {
		ok = at(&c, '[') && sd_elements(d, &c, false);
	}
	ok = ok && (c.p == c.end || at(&c, ' '));
	if (!ok) {
		d->j.msg = sd.p;
		d->j.msg_len = (size_t)(sd.end - sd.p);
		return true;
	}
	if (at(&sd, '['))
		sd_elements(d, &sd, true);
	if (c.p < c.end)
		c.p++;
	if (c.end - c.p >= 3 && memcmp(c.p, "\xef\xbb\xbf", 3) == 0)
		c.p += 3;
	d->j.msg = c.p;
	d->j.msg_len = (size_t)(c.end - c.p);
	return true;
}

/* The datagram without the senders' framing (one trailing NUL, then one
 * trailing newline): not their text, and taken off first so that every
 * branch ends the message alike. */
static struct cur trimmed(const char *bytes, size_t len)
{
	if (!bytes) {
		bytes = "";
		len = 0;
	}
	struct cur c = { bytes, bytes + len };
	if (c.p < c.end && c.end[-1] == '\0')
		c.end--;
	if (c.p < c.end && c.end[-1] == '\n')
		c.end--;
	return c;
}

int ehs_datagram_pri(const char *bytes, size_t len)
{
	/* The same steps as the parse's, so the two cannot disagree. */
	struct cur c = trimmed(bytes, len);
	int p = pri(&c);
	return p < 0 ? LOG_USER | LOG_NOTICE : p;
}

void ehs_datagram_parse(struct ehs_datagram *d, const char *bytes, size_t len)
{
	ehs_journal_init(&d->j);
	d->values_len = 0;
	struct cur c = trimmed(bytes, len);
	int p = pri(&c);
	if (p < 0) {
		/* What syslogd does with such a datagram: nothing in it is
		 * taken for a header. */
		d->kind = EHS_DATAGRAM_PLAIN;
		d->j.severity = LOG_NOTICE;
		d->j.facility = LOG_FAC(LOG_USER);
		d->j.msg = c.p;
		d->j.msg_len = (size_t)(c.end - c.p);
		return;
	}
	d->j.severity = LOG_PRI(p);
	d->j.facility = LOG_FAC(p);
	if (!parse_5424(d, c))
		parse_3164(d, c);
}
