/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/schema.h"

#include <string.h>
#include <sys/mman.h>

#include <eventheader/eventheader.h>
#include <ehsyslog/schema.h>

const unsigned char ehs_level_of_severity[8] = {
	EH_LEVEL_CRITICAL,	/* LOG_EMERG */
	EH_LEVEL_CRITICAL,	/* LOG_ALERT */
	EH_LEVEL_CRITICAL,	/* LOG_CRIT */
	EH_LEVEL_ERROR,		/* LOG_ERR */
	EH_LEVEL_WARNING,	/* LOG_WARNING */
	EH_LEVEL_INFORMATION,	/* LOG_NOTICE */
	EH_LEVEL_INFORMATION,	/* LOG_INFO */
	EH_LEVEL_VERBOSE,	/* LOG_DEBUG */
};

#define ROW(level) ((level - 1) * EHS_FACILITY_SLOTS)
const unsigned char ehs_row_of_severity[8] = {
	ROW(EH_LEVEL_CRITICAL), ROW(EH_LEVEL_CRITICAL), ROW(EH_LEVEL_CRITICAL),
	ROW(EH_LEVEL_ERROR), ROW(EH_LEVEL_WARNING), ROW(EH_LEVEL_INFORMATION),
	ROW(EH_LEVEL_INFORMATION), ROW(EH_LEVEL_VERBOSE),
};

/* Initialised data, not .bss: the words must start non-zero.  Aligned so
 * no other variable shares the lines the kernel writes into. */
struct ue_tracepoint ehs_table[EHS_LEVELS * EHS_FACILITY_SLOTS] __attribute__((aligned(64))) = {
	[0 ... EHS_LEVELS * EHS_FACILITY_SLOTS - 1] = UE_TRACEPOINT_INIT(NULL),
};

/* "_L" level "K" keyword: one hex digit of level, at most six of keyword. */
#define NAME_SUFFIX_MAX (2 + 1 + 1 + 6)

static char *names;
static size_t names_cap;

unsigned ehs_severity_level(int severity)
{
	return ehs_level(severity);
}

uint64_t ehs_keyword(unsigned facility)
{
	return ehs_facility_keyword(facility);
}

/* Room for every name with a provider of len bytes. */
static int names_reserve(size_t len)
{
	size_t need = (len + NAME_SUFFIX_MAX + 1) * EHS_LEVELS * EHS_FACILITY_SLOTS;
	if (need <= names_cap)
		return 0;
	void *m = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	if (names)
		munmap(names, names_cap);
	names = m;
	names_cap = need;
	return 0;
}

int ehs_tracepoints_init(const char *provider)
{
	int r = eh_provider_check(provider);
	if (r < 0)
		return r;
	size_t stride = strlen(provider) + NAME_SUFFIX_MAX + 1;
	if (stride > EH_NAME_MAX)
		return EH_E_NAME_TOO_LONG;
	if (names_reserve(stride - NAME_SUFFIX_MAX - 1) < 0)
		return -1;
	for (unsigned l = 0; l < EHS_LEVELS; l++) {
		for (unsigned f = 0; f < EHS_FACILITY_SLOTS; f++) {
			char *name = names + (l * EHS_FACILITY_SLOTS + f) * stride;
			r = eh_tracepoint_name(name, stride, provider, l + 1, ehs_keyword(f), NULL);
			if (r < 0)
				return r;
		}
	}
	for (unsigned i = 0; i < EHS_LEVELS * EHS_FACILITY_SLOTS; i++) {
		ehs_table[i].name = names + i * stride;
		__atomic_store_n(&ehs_table[i].state, UE_STATE_UNREGISTERED, __ATOMIC_RELAXED);
	}
	return 0;
}

void ehs_tracepoints_off(void)
{
	for (unsigned i = 0; i < EHS_LEVELS * EHS_FACILITY_SLOTS; i++)
		__atomic_store_n(&ehs_table[i].state, 0, __ATOMIC_RELAXED);
}
