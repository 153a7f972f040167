/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <strings.h>

#include "cli/syslog_names.h"

static const char *const severities[SYSLOG_SEVERITIES] = {
	"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

/* 12..15 have no glibc name; these are rsyslog's. */
static const char *const facilities[SYSLOG_FACILITIES] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "ntp", "security", "console", "clock",
	"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
};

const char *severity_name(unsigned severity)
{
	return severity < SYSLOG_SEVERITIES ? severities[severity] : NULL;
}

const char *facility_name(unsigned facility)
{
	return facility < SYSLOG_FACILITIES ? facilities[facility] : NULL;
}

static int parse(const char *s, const char *const *names, int n)
{
	char *end;
	long v;

	for (int i = 0; i < n; i++)
		if (strcasecmp(s, names[i]) == 0)
			return i;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end == '\0' && v < n ? (int)v : -1;
}

int severity_parse(const char *s)
{
	/* The two aliases syslog.conf still accepts. */
	if (strcasecmp(s, "error") == 0)
		return 3;
	if (strcasecmp(s, "warn") == 0)
		return 4;
	return parse(s, severities, SYSLOG_SEVERITIES);
}

int facility_parse(const char *s)
{
	return parse(s, facilities, SYSLOG_FACILITIES);
}

unsigned severity_level(unsigned severity)
{
	static const unsigned char level[SYSLOG_SEVERITIES] = { 1, 1, 1, 2, 3, 4, 4, 5 };

	return severity < SYSLOG_SEVERITIES ? level[severity] : 5;
}
