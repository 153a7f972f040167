/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/names.h"

#include <ehsyslog/settings.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

_Static_assert(SYSLOG_FACILITY_COUNT == EHS_FACILITIES &&
	       SYSLOG_KEYWORD_COUNT == EHS_FACILITY_SLOTS, "the bridge's schema changed");

static const char *const severity_names[SYSLOG_SEVERITY_COUNT] = {
	"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

/* glibc's <syslog.h> names 0..11 and 16..23; 12..15 have no name there. */
static const char *const facility_names[SYSLOG_FACILITY_COUNT] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", NULL, NULL, NULL, NULL,
	"local0", "local1", "local2", "local3",
	"local4", "local5", "local6", "local7",
};

struct alias {
	const char *name;
	int value;
};

static const struct alias severity_aliases[] = {
	{ "panic", 0 }, { "error", 3 }, { "warn", 4 },
};

static const struct alias facility_aliases[] = {
	{ "security", 4 },
};

/* Decimal 0..max-1 with nothing else, or -1. */
static int parse_number(const char *s, int max)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end == '\0' && v < max ? (int)v : -1;
}

/* Index of name in names[0..count), its alias, or its number below
 * numbers; -1 if none. */
static int lookup(const char *name, const char *const *names, int count,
		  const struct alias *aliases, size_t alias_count, int numbers)
{
	int i;
	size_t j;

	if (!name)
		return -1;
	if (strncasecmp(name, "LOG_", 4) == 0)
		name += 4;
	for (i = 0; i < count; i++)
		if (names[i] && strcasecmp(name, names[i]) == 0)
			return i;
	for (j = 0; j < alias_count; j++)
		if (strcasecmp(name, aliases[j].name) == 0)
			return aliases[j].value;
	return parse_number(name, numbers);
}

int syslog_severity_from_name(const char *name)
{
	return lookup(name, severity_names, SYSLOG_SEVERITY_COUNT,
		      severity_aliases, sizeof severity_aliases / sizeof *severity_aliases,
		      SYSLOG_SEVERITY_COUNT);
}

const char *syslog_severity_name(int severity)
{
	return severity >= 0 && severity < SYSLOG_SEVERITY_COUNT ? severity_names[severity] : NULL;
}

int syslog_facility_from_name(const char *name)
{
	return lookup(name, facility_names, SYSLOG_FACILITY_COUNT,
		      facility_aliases, sizeof facility_aliases / sizeof *facility_aliases,
		      SYSLOG_FACILITY_NUMBERS);
}

const char *syslog_facility_name(int facility)
{
	return facility >= 0 && facility < SYSLOG_FACILITY_COUNT ? facility_names[facility] : NULL;
}

int syslog_severity_level(int severity)
{
	/* The bridge owns the schema's mapping. */
	return severity >= 0 && severity < SYSLOG_SEVERITY_COUNT ? (int)ehs_severity_level(severity) : -1;
}

uint64_t syslog_facility_keyword(unsigned facility)
{
	return ehs_keyword(facility);
}

void facility_set_add(struct facility_set *s, unsigned facility)
{
	if (facility < SYSLOG_FACILITY_NUMBERS)
		s->bits[facility / 64] |= UINT64_C(1) << facility % 64;
}

void facility_set_all(struct facility_set *s)
{
	memset(s->bits, 0xff, sizeof s->bits);
}

bool facility_set_has(const struct facility_set *s, unsigned facility)
{
	return facility < SYSLOG_FACILITY_NUMBERS && (s->bits[facility / 64] >> facility % 64 & 1);
}

bool facility_set_empty(const struct facility_set *s)
{
	for (size_t i = 0; i < sizeof s->bits / sizeof s->bits[0]; i++)
		if (s->bits[i] != 0)
			return false;
	return true;
}

size_t facility_set_keywords(const struct facility_set *s, uint64_t *keywords)
{
	size_t n = 0;

	/* Keyword 0 first: every facility from SYSLOG_FACILITY_COUNT on. */
	for (unsigned f = SYSLOG_FACILITY_COUNT; f < SYSLOG_FACILITY_NUMBERS; f++)
		if (facility_set_has(s, f)) {
			keywords[n++] = syslog_facility_keyword(f);
			break;
		}
	for (unsigned f = 0; f < SYSLOG_FACILITY_COUNT; f++)
		if (facility_set_has(s, f))
			keywords[n++] = syslog_facility_keyword(f);
	return n;
}
