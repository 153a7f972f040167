/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint names: "<provider>_L<level>K<keyword><options>", level and
 * keyword in lowercase hex without leading zeros, the whole name with its
 * NUL shorter than EH_NAME_MAX.
 *
 * Provider characters: the format forbids only ' ' and ':'; we also refuse
 * control and non-ASCII bytes, leaving printable ASCII 0x21..0x7e except
 * ':'.  [A-Za-z0-9_] is what works everywhere (tracefs, perf's event
 * parser) and what callers should use, but it is not enforced: the same
 * rules serve the decoder, which must accept every name other producers
 * may legally register.
 */
#include <string.h>

#include "buf.h"

/* Shortest suffix a provider needs: "_L1K0". */
#define SUFFIX_MIN 5
/* Longest name without its NUL. */
#define NAME_LEN_MAX (EH_NAME_MAX - 2)

static int check_provider(const char *p, size_t len)
{
	size_t i;

	if (len == 0)
		return EH_E_PROVIDER_EMPTY;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c <= ' ' || c > '~' || c == ':')
			return EH_E_PROVIDER_CHAR;
	}
	return EH_OK;
}

EH_API int eh_provider_check(const char *provider)
{
	size_t len;
	int err;

	if (!provider)
		return EH_E_INVAL;
	len = strlen(provider);
	if ((err = check_provider(provider, len)))
		return err;
	return len + SUFFIX_MIN > NAME_LEN_MAX ? EH_E_NAME_TOO_LONG : EH_OK;
}

static bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool is_option_value(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
}

/*
 * Options: each an uppercase letter then [0-9a-z]*, letters strictly
 * increasing (so each at most once).  G is the provider group and needs a
 * non-empty value.  On success *group points at G's value, or is NULL.
 */
static int check_options(const char *o, const char **group, size_t *group_len)
{
	char last = 0;

	*group = NULL;
	*group_len = 0;
	while (*o) {
		char letter = *o++;
		const char *value = o;

		if (!is_upper(letter))
			return EH_E_OPTION_CHAR;
		if (letter <= last)
			return EH_E_OPTION_ORDER;
		last = letter;
		while (*o && !is_upper(*o)) {
			if (!is_option_value(*o))
				return letter == 'G' ? EH_E_GROUP : EH_E_OPTION_CHAR;
			o++;
		}
		if (letter == 'G') {
			if (o == value)
				return EH_E_GROUP;
			*group = value;
			*group_len = (size_t)(o - value);
		}
	}
	return EH_OK;
}

/* Lowercase hex of v without leading zeros into d; returns the length. */
static size_t put_hex(char *d, uint64_t v)
{
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v);
	for (i = 0; i < n; i++)
		d[i] = tmp[n - 1 - i];
	return n;
}

EH_API int eh_tracepoint_name(char *buf, size_t cap, const char *provider,
			      unsigned level, uint64_t keyword, const char *options)
{
	char num[2][16];
	size_t plen, llen, klen, olen, len;
	const char *group;
	size_t group_len;
	char *d;
	int err;

	if (!provider || (!buf && cap))
		return EH_E_INVAL;
	if (buf && cap)
		buf[0] = '\0';
	if (!options)
		options = "";
	plen = strlen(provider);
	if ((err = check_provider(provider, plen)))
		return err;
	if (level < 1 || level > 255)
		return EH_E_LEVEL_RANGE;
	if ((err = check_options(options, &group, &group_len)))
		return err;
	olen = strlen(options);
	llen = put_hex(num[0], level);
	klen = put_hex(num[1], keyword);
	/* Each part is checked on its own so no sum can wrap. */
	if (plen > NAME_LEN_MAX || olen > NAME_LEN_MAX)
		return EH_E_NAME_TOO_LONG;
	len = plen + 2 + llen + 1 + klen + olen;
	if (len > NAME_LEN_MAX)
		return EH_E_NAME_TOO_LONG;
	if (len + 1 > cap)
		return EH_E_NOSPACE;

	d = buf;
	memcpy(d, provider, plen);
	d += plen;
	*d++ = '_';
	*d++ = 'L';
	memcpy(d, num[0], llen);
	d += llen;
	*d++ = 'K';
	memcpy(d, num[1], klen);
	d += klen;
	memcpy(d, options, olen + 1);
	return EH_OK;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Reads canonical lowercase hex (no leading zeros) of at most 16 digits
 * at *s and moves *s past it. */
static int get_hex(const char **s, uint64_t *v)
{
	const char *p = *s;
	size_t n = 0;
	int d;

	*v = 0;
	while ((d = hex_digit(p[n])) >= 0) {
		if (n == 16)
			return EH_E_NAME_SYNTAX;
		*v = *v << 4 | (uint64_t)d;
		n++;
	}
	if (n == 0 || (n > 1 && p[0] == '0'))
		return EH_E_NAME_SYNTAX;
	*s = p + n;
	return EH_OK;
}

EH_API int eh_tracepoint_parse(const char *name, struct eh_tracepoint *out)
{
	const char *sep = NULL, *p, *s;
	uint64_t level;
	int err;

	if (!name || !out)
		return EH_E_INVAL;
	memset(out, 0, sizeof(*out));
	if (strnlen(name, EH_NAME_MAX) > NAME_LEN_MAX)
		return EH_E_NAME_TOO_LONG;
	/* Options hold no '_', so the last "_L" is the one before the level. */
	for (p = name; (p = strstr(p, "_L")); p++)
		sep = p;
	if (!sep)
		return EH_E_NAME_SYNTAX;
	if ((err = check_provider(name, (size_t)(sep - name))))
		return err;
	s = sep + 2;
	if ((err = get_hex(&s, &level)))
		return err;
	if (level < 1 || level > 255)
		return EH_E_LEVEL_RANGE;
	if (*s++ != 'K')
		return EH_E_NAME_SYNTAX;
	if ((err = get_hex(&s, &out->keyword)))
		return err;
	if ((err = check_options(s, &out->group, &out->group_len)))
		return err;
	out->provider = name;
	out->provider_len = (size_t)(sep - name);
	out->level = (unsigned)level;
	out->options = s;
	return EH_OK;
}
