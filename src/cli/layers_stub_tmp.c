/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY, for building branch cli-admin before the layers below land:
 * minimal stand-ins for the eventheader, writer and bridge functions the
 * tool calls.  They are NOT the real thing (no registration happens, the
 * config syntax is a guess).  The lead deletes this file at merge.
 */
#include "config.h"

#include <eventheader/eventheader.h>
#include <ehsyslog.h>
#include <ehsyslog/user_events.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *eh_strerror(int err)
{
	switch (err) {
	case EH_OK: return "success";
	case EH_E_NAME_TOO_LONG: return "tracepoint name too long";
	case EH_E_PROVIDER_EMPTY: return "provider name is empty";
	case EH_E_PROVIDER_CHAR: return "provider name contains a space, ':' or a non-printable byte";
	default: return "error";
	}
}

int eh_provider_check(const char *provider)
{
	const unsigned char *p;

	if (!provider || !*provider)
		return EH_E_PROVIDER_EMPTY;
	for (p = (const unsigned char *)provider; *p; p++)
		if (*p <= ' ' || *p == ':' || *p >= 0x7f)
			return EH_E_PROVIDER_CHAR;
	return strlen(provider) + 20 < EH_NAME_MAX ? 0 : EH_E_NAME_TOO_LONG;
}

int eh_tracepoint_name(char *buf, size_t cap, const char *provider,
		       unsigned level, uint64_t keyword, const char *options)
{
	int err = eh_provider_check(provider);
	int n;

	if (err)
		return err;
	n = snprintf(buf, cap, "%s_L%xK%" PRIx64 "%s", provider, level, keyword,
		     options ? options : "");
	return n < 0 || (size_t)n >= cap ? EH_E_NOSPACE : 0;
}

int eh_tracepoint_parse(const char *name, struct eh_tracepoint *out)
{
	const char *l = NULL, *p, *k;
	char *end;

	for (p = name; (p = strstr(p, "_L")) != NULL; p++)
		l = p;
	if (!l || l == name)
		return EH_E_NAME_SYNTAX;
	out->provider = name;
	out->provider_len = (size_t)(l - name);
	out->level = (unsigned)strtoul(l + 2, &end, 16);
	k = end;
	if (end == l + 2 || *k != 'K' || !isxdigit((unsigned char)k[1]))
		return EH_E_NAME_SYNTAX;
	out->keyword = strtoull(k + 1, &end, 16);
	out->options = end;
	out->group = NULL;
	out->group_len = 0;
	return 0;
}

static struct ue_status stub_status = { UE_STATE_UNUSED, 0, NULL };

int ue_tracepoint_register(struct ue_tracepoint *tp, unsigned flags)
{
	static const char path[] = "/sys/kernel/tracing/user_events_data";
	int fd;

	(void)tp;
	(void)flags;
	stub_status.path = path;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		stub_status.error = errno;
		stub_status.state = errno == ENOENT ? UE_STATE_NO_USER_EVENTS :
			errno == EACCES || errno == EPERM ? UE_STATE_NO_PERMISSION : UE_STATE_ERROR;
		return -stub_status.error;
	}
	close(fd);
	stub_status.state = UE_STATE_ERROR;
	stub_status.error = ENOSYS;
	return -ENOSYS;
}

void ue_status(struct ue_status *st)
{
	*st = stub_status;
}

void ue_close(void)
{
}

void ehs_settings_default(struct ehs_settings *s)
{
	snprintf(s->provider, sizeof s->provider, "Syslog");
	s->passthrough = true;
	s->disabled = false;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "off"))
		*out = false;
	else
		return -1;
	return 0;
}

/* Guessed syntax: "key = value", "[program NAME]" sections, '#' comments. */
int ehs_config_parse(const char *buf, size_t len, const char *program,
		     struct ehs_settings *s, ehs_config_error_fn *on_error, void *ctx)
{
	const char *p = buf, *end = buf + len;
	unsigned line = 0;
	int errors = 0;
	bool applies = true;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char text[512], *key, *val, *eq, *hash;

		line++;
		if (n >= sizeof text) {
			on_error(ctx, line, "line too long");
			errors++;
			goto next;
		}
		memcpy(text, p, n);
		text[n] = '\0';
		if ((hash = strchr(text, '#')))
			*hash = '\0';
		key = text + strspn(text, " \t");
		for (val = key + strlen(key); val > key && isspace((unsigned char)val[-1]); val--)
			val[-1] = '\0';
		if (!*key)
			goto next;
		if (*key == '[') {
			char name[256];

			if (sscanf(key, "[program %255[^]]]", name) != 1) {
				on_error(ctx, line, "expected [program NAME]");
				errors++;
			} else {
				applies = program && !strcmp(name, program);
			}
			goto next;
		}
		eq = strchr(key, '=');
		if (!eq) {
			on_error(ctx, line, "expected key = value");
			errors++;
			goto next;
		}
		*eq = '\0';
		val = eq + 1 + strspn(eq + 1, " \t");
		for (eq = key + strlen(key); eq > key && isspace((unsigned char)eq[-1]); eq--)
			eq[-1] = '\0';
		if (!strcmp(key, "provider")) {
			if (eh_provider_check(val) != 0 || strlen(val) >= sizeof s->provider) {
				on_error(ctx, line, "invalid provider name");
				errors++;
			} else if (applies) {
				snprintf(s->provider, sizeof s->provider, "%s", val);
			}
		} else if (!strcmp(key, "passthrough") || !strcmp(key, "disable")) {
			bool b;

			if (parse_bool(val, &b) < 0) {
				on_error(ctx, line, "expected yes or no");
				errors++;
			} else if (applies) {
				*(key[0] == 'p' ? &s->passthrough : &s->disabled) = b;
			}
		} else {
			on_error(ctx, line, "unknown setting");
			errors++;
		}
next:
		p = nl ? nl + 1 : end;
	}
	return errors;
}

void ehs_settings_from_env(struct ehs_settings *s)
{
	const char *v;
	bool b;

	if ((v = getenv("EHSYSLOG_PROVIDER")) && eh_provider_check(v) == 0 &&
	    strlen(v) < sizeof s->provider)
		snprintf(s->provider, sizeof s->provider, "%s", v);
	if ((v = getenv("EHSYSLOG_PASSTHROUGH")) && parse_bool(v, &b) == 0)
		s->passthrough = b;
	if ((v = getenv("EHSYSLOG_DISABLE")) && parse_bool(v, &b) == 0)
		s->disabled = b;
}
