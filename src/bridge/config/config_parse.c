/* SPDX-License-Identifier: MIT */
#include "bridge/config/config_parse.h"

#include <string.h>
#include <sys/stat.h>

void ehs_config_defaults(struct ehs_config *c)
{
	memset(c, 0, sizeof *c);
	memcpy(c->provider, EHS_DEFAULT_PROVIDER, sizeof EHS_DEFAULT_PROVIDER);
	c->passthrough = true;
	c->disable = false;
	c->remote_syslog = false;
	/* syslog over UDP (RFC 5426) and over TCP (RFC 6587) */
	static const uint16_t ports[] = { 514, 601 };
	c->nports = sizeof ports / sizeof ports[0];
	memcpy(c->ports, ports, sizeof ports);
}

int ehs_provider_valid(const char *p, size_t len)
{
	if (len == 0 || len > EHS_PROVIDER_MAX)
		return -1;
	for (size_t i = 0; i < len; i++) {
		char ch = p[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_'))
			return -1;
	}
	return 0;
}

static bool word_is(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && memcmp(s, w, len) == 0;
}

int ehs_parse_bool(const char *s, size_t len, bool *out)
{
	if (word_is(s, len, "yes") || word_is(s, len, "on") ||
	    word_is(s, len, "true") || word_is(s, len, "1")) {
		*out = true;
		return 0;
	}
	if (word_is(s, len, "no") || word_is(s, len, "off") ||
	    word_is(s, len, "false") || word_is(s, len, "0")) {
		*out = false;
		return 0;
	}
	return -1;
}

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* Trims blanks at both ends of [*s, *s + *len). */
static void trim(const char **s, size_t *len)
{
	while (*len && is_space(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && is_space((*s)[*len - 1]))
		(*len)--;
}

/* Cuts a '#' comment off; '#' is never part of a value. */
static size_t strip_comment(const char *s, size_t len)
{
	const char *hash = memchr(s, '#', len);
	return hash ? (size_t)(hash - s) : len;
}

static bool is_port_separator(char ch)
{
	return ch == ',' || is_space(ch);
}

/* Reads 1..EHS_SYSLOG_PORTS_MAX ports 1..65535 separated by blanks and/or
 * commas into ports[]; returns how many, or 0 if s breaks that rule. */
static unsigned parse_ports(const char *s, size_t len, uint16_t ports[EHS_SYSLOG_PORTS_MAX])
{
	unsigned n = 0;
	size_t i = 0;

	for (;;) {
		while (i < len && is_port_separator(s[i]))
			i++;
		if (i == len)
			return n;
		if (n == EHS_SYSLOG_PORTS_MAX)
			return 0;
		size_t start = i;
		unsigned long v = 0;
		/* Stops past 65535, before a long number could overflow. */
		while (i < len && s[i] >= '0' && s[i] <= '9' && v <= 65535)
			v = v * 10 + (unsigned long)(s[i++] - '0');
		if (i == start || v == 0 || v > 65535 ||
		    (i < len && !is_port_separator(s[i])))
			return 0;
		ports[n++] = (uint16_t)v;
	}
}

/* Reads stdio's words (ehs_stdio_streams) in s[0..len) into *bits;
 * false for any other word or an empty one between commas. */
static bool parse_stdio(const char *s, size_t len, unsigned *bits)
{
	static const struct {
		const char *word;
		unsigned bits;
	} words[] = {
		{ "stdout", 1U << 1 },
		{ "stderr", 1U << 2 },
		{ "both", 1U << 1 | 1U << 2 },
		{ "none", 0 },
	};
	unsigned all = 0;
	for (size_t i = 0; i < len;) {
		const char *comma = memchr(s + i, ',', len - i);
		size_t n = comma ? (size_t)(comma - (s + i)) : len - i, w;
		const char *word = s + i;
		size_t word_len = n;
		trim(&word, &word_len);
		for (w = 0; w < sizeof words / sizeof words[0]; w++)
			if (word_is(word, word_len, words[w].word))
				break;
		if (w == sizeof words / sizeof words[0])
			return false;
		all |= words[w].bits;
		i += n;
		if (comma && ++i == len)
			return false;	/* a trailing comma: an empty word */
	}
	*bits = all;
	return true;
}

int ehs_stdio_streams(const char *value, unsigned *bits)
{
	return parse_stdio(value, strlen(value), bits) ? 0 : -1;
}

/* What the keys after a section header are for. */
enum section_kind {
	SECTION_APPLY,	/* the library's, for this program (or global) */
	SECTION_CHECK,	/* the library's, for another program: checked only */
	SECTION_TOOL,	/* a tool's ([export]): key = value, the tool checks the rest */
};

/* The name inside "[...]" (s already trimmed), trimmed; false if s is
 * not bracketed. */
static bool section_name(const char **s, size_t *len)
{
	if (*len < 2 || (*s)[*len - 1] != ']')
		return false;
	(*s)++;
	*len -= 2;
	trim(s, len);
	return true;
}

static enum ehs_config_error parse_section(const char *s, size_t len,
					   const char *program, enum section_kind *kind)
{
	if (!section_name(&s, &len))
		return EHS_CONF_SECTION;
	if (word_is(s, len, "export")) {
		*kind = SECTION_TOOL;
		return EHS_CONF_OK;
	}
	static const char kw[] = "program";
	if (len <= sizeof kw - 1 || memcmp(s, kw, sizeof kw - 1) != 0 ||
	    !is_space(s[sizeof kw - 1]))
		return EHS_CONF_SECTION;
	s += sizeof kw - 1;
	len -= sizeof kw - 1;
	trim(&s, &len);
	if (len == 0 || memchr(s, ']', len) || memchr(s, '[', len))
		return EHS_CONF_SECTION;
	*kind = program && strlen(program) == len && memcmp(s, program, len) == 0
			? SECTION_APPLY : SECTION_CHECK;
	return EHS_CONF_OK;
}

enum ehs_config_error ehs_config_set(struct ehs_config *c, const char *key, size_t klen,
				     const char *val, size_t vlen)
{
	bool b;
	/* Zero past the last port, as ehs_config_defaults leaves it: a short
	 * list keeps none of a longer one's ports behind it. */
	uint16_t ports[EHS_SYSLOG_PORTS_MAX] = { 0 };
	unsigned n;

	if (word_is(key, klen, "provider")) {
		if (ehs_provider_valid(val, vlen) < 0)
			return EHS_CONF_PROVIDER;
		memcpy(c->provider, val, vlen);
		c->provider[vlen] = '\0';
	} else if (word_is(key, klen, "passthrough")) {
		if (ehs_parse_bool(val, vlen, &b) < 0)
			return EHS_CONF_BOOL;
		c->passthrough = b;
	} else if (word_is(key, klen, "disable")) {
		if (ehs_parse_bool(val, vlen, &b) < 0)
			return EHS_CONF_BOOL;
		c->disable = b;
	} else if (word_is(key, klen, "remote_syslog")) {
		if (ehs_parse_bool(val, vlen, &b) < 0)
			return EHS_CONF_BOOL;
		c->remote_syslog = b;
	} else if (word_is(key, klen, "syslog_ports")) {
		if ((n = parse_ports(val, vlen, ports)) == 0)
			return EHS_CONF_PORTS;
		c->nports = n;
		memcpy(c->ports, ports, sizeof ports);
	} else if (word_is(key, klen, "stdio")) {
		if (!parse_stdio(val, vlen, &n))
			return EHS_CONF_STDIO;
		c->stdio = n;
	} else {
		return EHS_CONF_KEY;
	}
	return EHS_CONF_OK;
}

/* Splits "key = value" (s trimmed) into its trimmed halves; false
 * without an '='. */
static bool split_pair(const char *s, size_t len, const char **key, size_t *klen,
		       const char **val, size_t *vlen)
{
	const char *eq = memchr(s, '=', len);
	if (!eq)
		return false;
	*key = s;
	*klen = (size_t)(eq - s);
	*val = eq + 1;
	*vlen = len - *klen - 1;
	trim(key, klen);
	trim(val, vlen);
	return true;
}

static enum ehs_config_error parse_pair(const char *s, size_t len,
					struct ehs_config *c, enum section_kind kind)
{
	const char *key, *val;
	size_t klen, vlen;
	if (!split_pair(s, len, &key, &klen, &val, &vlen))
		return EHS_CONF_SYNTAX;
	if (kind == SECTION_TOOL)
		return EHS_CONF_OK;
	/* Another program's section is still checked, into a scratch copy. */
	struct ehs_config scratch = *c;
	return ehs_config_set(kind == SECTION_APPLY ? c : &scratch, key, klen, val, vlen);
}

/* The file's lines, one at a time, comments cut and blanks trimmed. */
struct lines {
	const char *buf;
	size_t len, pos;
	unsigned lineno;
};

/* The next line into *line, *n (possibly empty); false at the end.
 * *e is EHS_CONF_LINE for a line too long or holding a NUL byte. */
static bool next_line(struct lines *r, const char **line, size_t *n, enum ehs_config_error *e)
{
	if (r->pos >= r->len)
		return false;
	const char *l = r->buf + r->pos;
	const char *nl = memchr(l, '\n', r->len - r->pos);
	size_t k = nl ? (size_t)(nl - l) : r->len - r->pos;
	r->pos += k + (nl ? 1 : 0);
	r->lineno++;
	*e = EHS_CONF_OK;
	if (k > EHS_CONFIG_LINE_MAX || memchr(l, '\0', k))
		*e = EHS_CONF_LINE;
	k = strip_comment(l, k);
	trim(&l, &k);
	*line = l;
	*n = k;
	return true;
}

static void set_status(struct ehs_config_status *st, enum ehs_config_error e, unsigned line)
{
	if (st) {
		st->error = e;
		st->line = e == EHS_CONF_OK ? 0 : line;
	}
}

int ehs_config_parse(const char *buf, size_t len, const char *program,
		     struct ehs_config *out, struct ehs_config_status *st)
{
	struct ehs_config c = *out;
	enum section_kind kind = SECTION_APPLY;	/* global keys apply to everyone */
	struct lines r = { buf, len, 0, 0 };
	enum ehs_config_error e = EHS_CONF_OK;
	const char *line;
	size_t n;

	while (e == EHS_CONF_OK && next_line(&r, &line, &n, &e)) {
		if (e != EHS_CONF_OK || n == 0)
			continue;
		if (line[0] == '[')
			e = parse_section(line, n, program, &kind);
		else
			e = parse_pair(line, n, &c, kind);
	}
	set_status(st, e, r.lineno);
	if (e != EHS_CONF_OK)
		return -1;
	*out = c;
	return 0;
}

int ehs_config_section(const char *buf, size_t len, const char *section,
		       ehs_config_pair_fn *fn, void *ctx, struct ehs_config_status *st)
{
	struct lines r = { buf, len, 0, 0 };
	enum ehs_config_error e = EHS_CONF_OK;
	bool inside = false;
	const char *line, *key, *val;
	size_t n, klen, vlen;
	int rc;

	set_status(st, EHS_CONF_OK, 0);
	while (next_line(&r, &line, &n, &e)) {
		if (n > 0 && line[0] == '[') {
			/* The library's own headers are ehs_config_parse's to check. */
			inside = section_name(&line, &n) && word_is(line, n, section);
			continue;
		}
		if (!inside || (e == EHS_CONF_OK && n == 0))
			continue;
		if (e == EHS_CONF_OK && !split_pair(line, n, &key, &klen, &val, &vlen))
			e = EHS_CONF_SYNTAX;
		if (e != EHS_CONF_OK) {
			set_status(st, e, r.lineno);
			return -1;
		}
		if ((rc = fn(ctx, r.lineno, key, klen, val, vlen)) != 0)
			return rc;
	}
	return 0;
}

const char *ehs_config_strerror(enum ehs_config_error e)
{
	switch (e) {
	case EHS_CONF_OK: return "no error";
	case EHS_CONF_SYNTAX: return "expected key = value, [program NAME], [export] or a comment";
	case EHS_CONF_KEY:
		return "unknown key (provider, passthrough, disable, syslog_ports, remote_syslog, "
		       "stdio)";
	case EHS_CONF_BOOL: return "value must be yes, no, on, off, true, false, 1 or 0";
	case EHS_CONF_PROVIDER: return "provider must be " EHS_PROVIDER_RULE;
	case EHS_CONF_SECTION: return "section header must be [program NAME] or [export]";
	case EHS_CONF_LINE: return "line longer than 1024 bytes or holding a NUL byte";
	case EHS_CONF_PORTS:
		return "syslog_ports must be 1 to 8 ports 1-65535, separated by spaces or commas";
	case EHS_CONF_STDIO:
		return "stdio must be stdout, stderr, both or none, or several separated by commas";
	}
	return "unknown error";
}

const char *ehs_config_distrust(unsigned uid, unsigned mode)
{
	if (uid != 0)
		return "not owned by root";
	if (mode & (S_IWGRP | S_IWOTH))
		return "writable by group or others";
	return NULL;
}
