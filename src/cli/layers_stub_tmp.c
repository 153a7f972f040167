/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY, for building branch cli-admin before the layers below land:
 * minimal stand-ins for the writer and bridge functions the tool calls.  They are NOT the real thing (no registration happens, the
 * config syntax is a guess).  The lead deletes this file at merge.
 */
#include "config.h"

#include "bridge/config_load.h"
#include <ehsyslog/user_events.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ue_status stub_status;

int ue_tracepoint_register(struct ue_tracepoint *tp, unsigned flags)
{
	static const char path[] = "/sys/kernel/tracing/user_events_data";
	int fd;

	(void)tp;
	(void)flags;
	snprintf(stub_status.path, sizeof stub_status.path, "%s", path);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		stub_status.error = errno;
		stub_status.state = errno == ENOENT ? UE_STATUS_NO_USER_EVENTS :
			errno == EACCES || errno == EPERM ? UE_STATUS_NO_PERMISSION : UE_STATUS_ERROR;
		return -stub_status.error;
	}
	close(fd);
	stub_status.state = UE_STATUS_ERROR;
	stub_status.error = ENOSYS;
	return -ENOSYS;
}

void ue_status(struct ue_status *out)
{
	*out = stub_status;
}

void ue_close(void)
{
}

void ehs_config_defaults(struct ehs_config *c)
{
	snprintf(c->provider, sizeof c->provider, "%s", EHS_DEFAULT_PROVIDER);
	c->passthrough = true;
	c->disable = false;
}

int ehs_provider_valid(const char *p, size_t len)
{
	size_t i;

	if (len == 0 || len > EHS_PROVIDER_MAX)
		return -1;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '_')
			return -1;
	return 0;
}

int ehs_parse_bool(const char *v, size_t len, bool *out)
{
	static const char *const yes[] = { "yes", "on", "true", "1" }, *const no[] = { "no", "off", "false", "0" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (strlen(yes[i]) == len && !memcmp(v, yes[i], len))
			return *out = true, 0;
		if (strlen(no[i]) == len && !memcmp(v, no[i], len))
			return *out = false, 0;
	}
	return -1;
}

const char *ehs_config_strerror(enum ehs_config_error e)
{
	static const char *const text[] = { "ok", "syntax error", "unknown key", "not a boolean",
		"invalid provider", "bad section", "line too long" };

	return (unsigned)e < sizeof text / sizeof *text ? text[e] : "error";
}

/* Roughly the real parser's syntax: "key = value", "[program NAME]",
 * '#' comments; stops at the first error, *c unchanged then. */
int ehs_config_parse(const char *buf, size_t len, const char *program,
		     struct ehs_config *c, struct ehs_config_status *st)
{
	const char *p = buf, *end = buf + len;
	struct ehs_config r = *c;
	unsigned line = 0;
	bool applies = true;
	enum ehs_config_error e = EHS_CONF_OK;

	while (p < end && e == EHS_CONF_OK) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char text[EHS_CONFIG_LINE_MAX + 1], *key, *val, *eq, *hash;

		line++;
		if (n > EHS_CONFIG_LINE_MAX || memchr(p, '\0', n)) {
			e = EHS_CONF_LINE;
			break;
		}
		memcpy(text, p, n);
		text[n] = '\0';
		p = nl ? nl + 1 : end;
		if ((hash = strchr(text, '#')))
			*hash = '\0';
		key = text + strspn(text, " \t");
		for (val = key + strlen(key); val > key && isspace((unsigned char)val[-1]); val--)
			val[-1] = '\0';
		if (!*key)
			continue;
		if (*key == '[') {
			char name[256];

			if (sscanf(key, "[program %255[^]]]", name) != 1)
				e = EHS_CONF_SECTION;
			else
				applies = program && !strcmp(name, program);
			continue;
		}
		if (!(eq = strchr(key, '='))) {
			e = EHS_CONF_SYNTAX;
			break;
		}
		*eq = '\0';
		val = eq + 1 + strspn(eq + 1, " \t");
		for (eq = key + strlen(key); eq > key && isspace((unsigned char)eq[-1]); eq--)
			eq[-1] = '\0';
		if (!strcmp(key, "provider")) {
			if (ehs_provider_valid(val, strlen(val)) < 0)
				e = EHS_CONF_PROVIDER;
			else if (applies)
				snprintf(r.provider, sizeof r.provider, "%s", val);
		} else if (!strcmp(key, "passthrough") || !strcmp(key, "disable")) {
			bool b;

			if (ehs_parse_bool(val, strlen(val), &b) < 0)
				e = EHS_CONF_BOOL;
			else if (applies)
				*(key[0] == 'p' ? &r.passthrough : &r.disable) = b;
		} else {
			e = EHS_CONF_KEY;
		}
	}
	if (st) {
		st->error = e;
		st->line = e ? line : 0;
	}
	if (e)
		return -1;
	*c = r;
	return 0;
}

void ehs_config_apply_env(struct ehs_config *c)
{
	const char *v;
	bool b;

	if ((v = getenv("EHSYSLOG_PROVIDER")) && ehs_provider_valid(v, strlen(v)) == 0)
		snprintf(c->provider, sizeof c->provider, "%s", v);
	if ((v = getenv("EHSYSLOG_PASSTHROUGH")) && ehs_parse_bool(v, strlen(v), &b) == 0)
		c->passthrough = b;
	if ((v = getenv("EHSYSLOG_DISABLE")) && ehs_parse_bool(v, strlen(v), &b) == 0)
		c->disable = b;
}
