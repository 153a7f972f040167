/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/ident.h"

#include <errno.h>
#include <syslog.h>

static const char *ident;
static int facility = LOG_USER;
static int mask = 0xff;

void ehs_ident_openlog(const char *new_ident, int option, int new_facility)
{
	(void)option;	/* LOG_PID, LOG_PERROR...: only the real syslog uses them */
	if (new_ident)
		__atomic_store_n(&ident, new_ident, __ATOMIC_RELEASE);
	/* glibc ignores 0 (LOG_KERN) and values with bits outside LOG_FACMASK. */
	if (new_facility != 0 && (new_facility & ~LOG_FACMASK) == 0)
		__atomic_store_n(&facility, new_facility, __ATOMIC_RELAXED);
}

void ehs_ident_closelog(void)
{
	/* glibc forgets the ident but keeps the facility. */
	__atomic_store_n(&ident, NULL, __ATOMIC_RELEASE);
}

void ehs_ident_setlogmask(int new_mask)
{
	if (new_mask != 0)
		__atomic_store_n(&mask, new_mask, __ATOMIC_RELAXED);
}

int ehs_ident_mask(void)
{
	return __atomic_load_n(&mask, __ATOMIC_RELAXED);
}

int ehs_ident_facility(void)
{
	return __atomic_load_n(&facility, __ATOMIC_RELAXED);
}

const char *ehs_ident(void)
{
	return __atomic_load_n(&ident, __ATOMIC_ACQUIRE);
}

size_t ehs_event_name(char out[EHS_EVENT_NAME_MAX + 1], const char *id)
{
	if (!id || !*id)
		id = program_invocation_short_name;
	if (!id || !*id)
		id = "unknown";
	size_t n = 0;
	for (; id[n] && n < EHS_EVENT_NAME_MAX; n++) {
		unsigned char c = (unsigned char)id[n];
		out[n] = (c >= 0x20 && c < 0x7f && c != ';') ? (char)c : '_';
	}
	out[n] = '\0';
	return n;
}
