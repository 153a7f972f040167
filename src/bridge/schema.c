/* SPDX-License-Identifier: MIT */
#include "bridge/schema.h"

#include <eventheader/eventheader.h>

static const unsigned char level_of_severity[8] = {
	EH_LEVEL_CRITICAL,	/* LOG_EMERG */
	EH_LEVEL_CRITICAL,	/* LOG_ALERT */
	EH_LEVEL_CRITICAL,	/* LOG_CRIT */
	EH_LEVEL_ERROR,		/* LOG_ERR */
	EH_LEVEL_WARNING,	/* LOG_WARNING */
	EH_LEVEL_INFORMATION,	/* LOG_NOTICE */
	EH_LEVEL_INFORMATION,	/* LOG_INFO */
	EH_LEVEL_VERBOSE,	/* LOG_DEBUG */
};

/* Names live here rather than in the writer's struct so the provider can
 * come from the configuration, read on the first logging call. */
static char names[EHS_LEVELS][EHS_FACILITY_SLOTS][EH_NAME_MAX];
static struct ue_tracepoint table[EHS_LEVELS][EHS_FACILITY_SLOTS];

unsigned ehs_level(int severity)
{
	return level_of_severity[severity & 7];
}

uint64_t ehs_keyword(unsigned facility)
{
	return facility < EHS_FACILITIES ? UINT64_C(1) << facility : 0;
}

static unsigned slot(unsigned facility)
{
	return facility < EHS_FACILITIES ? facility : EHS_FACILITIES;
}

int ehs_tracepoints_init(const char *provider)
{
	for (unsigned l = 0; l < EHS_LEVELS; l++) {
		for (unsigned f = 0; f < EHS_FACILITY_SLOTS; f++) {
			uint64_t kw = f < EHS_FACILITIES ? ehs_keyword(f) : 0;
			int r = eh_tracepoint_name(names[l][f], sizeof names[l][f],
						   provider, l + 1, kw, NULL);
			if (r < 0)
				return r;
			table[l][f] = (struct ue_tracepoint)UE_TRACEPOINT_INIT(names[l][f]);
		}
	}
	return 0;
}

struct ue_tracepoint *ehs_tracepoint(int severity, unsigned facility)
{
	return &table[ehs_level(severity) - 1][slot(facility)];
}
