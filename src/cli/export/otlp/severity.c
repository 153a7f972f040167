/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/names.h"
#include "cli/export/otlp/severity.h"

int otlp_severity_number(unsigned sev)
{
	static const int number[8] = { 21, 19, 18, 17, 13, 10, 9, 5 };

	return sev < 8 ? number[sev] : 0;
}

const char *otlp_severity_text(unsigned sev)
{
	return sev < 8 ? syslog_severity_name(sev) : NULL;
}
