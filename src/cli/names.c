/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/schema.h"
#include "cli/names.h"

#include <stddef.h>
#include <stdlib.h>
#include <strings.h>

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

static int lookup(const char *name, const char *const *names, int count,
		  const struct alias *aliases, size_t alias_count)
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
	return parse_number(name, count);
}

int syslog_severity_from_name(const char *name)
{
	return lookup(name, severity_names, SYSLOG_SEVERITY_COUNT,
		      severity_aliases, sizeof severity_aliases / sizeof *severity_aliases);
}

const char *syslog_severity_name(int severity)
{
	return severity >= 0 && severity < SYSLOG_SEVERITY_COUNT ? severity_names[severity] : NULL;
}

int syslog_facility_from_name(const char *name)
{
	return lookup(name, facility_names, SYSLOG_FACILITY_COUNT,
		      facility_aliases, sizeof facility_aliases / sizeof *facility_aliases);
}

const char *syslog_facility_name(int facility)
{
	return facility >= 0 && facility < SYSLOG_FACILITY_COUNT ? facility_names[facility] : NULL;
}

int syslog_severity_level(int severity)
{
	/* The bridge owns the schema's mapping. */
	return severity >= 0 && severity < SYSLOG_SEVERITY_COUNT ? (int)ehs_level(severity) : -1;
}
