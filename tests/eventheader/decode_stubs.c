/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY until the builder branch is merged: stand-ins for
 * eh_tracepoint_parse and eh_strerror, which the builder branch
 * implements (src/eventheader/).  Linked only into the decoder's tests and
 * fuzz target.  The lead deletes this file at merge.
 */
#include <string.h>

#include "eventheader/eventheader.h"

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int eh_tracepoint_parse(const char *name, struct eh_tracepoint *out)
{
	const char *l = NULL, *p;
	size_t len;

	if (!name || !out)
		return EH_E_INVAL;
	len = strlen(name);
	if (len >= EH_NAME_MAX)
		return EH_E_NAME_TOO_LONG;
	for (p = name; (p = strstr(p, "_L")); p++)
		l = p;
	if (!l)
		return EH_E_NAME_SYNTAX;
	memset(out, 0, sizeof *out);
	out->provider = name;
	out->provider_len = (size_t)(l - name);
	if (!out->provider_len)
		return EH_E_PROVIDER_EMPTY;
	for (p = name; p < l; p++)
		if (*p == ' ' || *p == ':' || (unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e)
			return EH_E_PROVIDER_CHAR;
	p = l + 2;
	if (hexval(*p) < 0)
		return EH_E_NAME_SYNTAX;
	for (; hexval(*p) >= 0; p++) {
		out->level = out->level * 16 + (unsigned)hexval(*p);
		if (out->level > 255)
			return EH_E_LEVEL_RANGE;
	}
	if (out->level == 0)
		return EH_E_LEVEL_RANGE;
	if (*p++ != 'K' || hexval(*p) < 0)
		return EH_E_NAME_SYNTAX;
	for (int n = 0; hexval(*p) >= 0; p++, n++) {
		if (n == 16)
			return EH_E_NAME_SYNTAX;
		out->keyword = out->keyword * 16 + (uint64_t)hexval(*p);
	}
	out->options = p;
	while (*p) {
		if (*p < 'A' || *p > 'Z')
			return EH_E_OPTION_CHAR;
		p++;
		while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z'))
			p++;
	}
	return 0;
}

const char *eh_strerror(int err)
{
	switch (err) {
	case EH_OK: return "success";
	case EH_E_TRUNCATED: return "event truncated";
	case EH_E_FLAGS: return "unsupported header flags";
	default: return "eventheader error";
	}
}
