/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/ident.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <syslog.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

/* A line of its own: a word written beside it on every call (by another
 * thread) would make every reader miss. */
struct ehs_ident_state ehs_ident_state = {
	.ident = NULL,
	.facility = LOG_USER,
	.mask = 0xff,
	.gen = 1,
};

/* After the ident is stored: a reader that sees the new number sees the
 * new ident.  0 is skipped so that it can mean "nothing built yet". */
static void next_gen(void)
{
	if (__atomic_add_fetch(&ehs_ident_state.gen, 1, __ATOMIC_RELEASE) == 0)
		__atomic_add_fetch(&ehs_ident_state.gen, 1, __ATOMIC_RELEASE);
}

/* glibc 2.34 and later take facility 0 (LOG_KERN) from openlog(); older
 * ones ignore it (glibc BZ #3604).  The event must carry what the daemon
 * gets, so follow the glibc the program runs with, not the one we were
 * built against.  Racing first calls store the same answer. */
static bool openlog_takes_kern(void)
{
	static int takes = -1;
	int t = __atomic_load_n(&takes, __ATOMIC_RELAXED);

	if (t < 0) {
		t = 1;
#ifdef __GLIBC__
		const char *v = gnu_get_libc_version();
		unsigned major = 0, minor = 0;

		while (*v >= '0' && *v <= '9')
			major = major * 10 + (unsigned)(*v++ - '0');
		if (*v++ == '.')
			while (*v >= '0' && *v <= '9' && minor < 1000)
				minor = minor * 10 + (unsigned)(*v++ - '0');
		t = major > 2 || (major == 2 && minor >= 34);
#endif
		__atomic_store_n(&takes, t, __ATOMIC_RELAXED);
	}
	return t;
}

void ehs_ident_openlog(const char *new_ident, int option, int new_facility)
{
	(void)option;	/* LOG_PID, LOG_PERROR...: only the real syslog uses them */
	if (new_ident) {
		__atomic_store_n(&ehs_ident_state.ident, new_ident, __ATOMIC_RELEASE);
		next_gen();
	}
	/* glibc ignores values with bits outside LOG_FACMASK, and before
	 * 2.34 also 0. */
	if ((new_facility & ~LOG_FACMASK) == 0 && (new_facility != 0 || openlog_takes_kern()))
		__atomic_store_n(&ehs_ident_state.facility, new_facility, __ATOMIC_RELAXED);
}

void ehs_ident_closelog(void)
{
	/* glibc forgets the ident but keeps the facility. */
	__atomic_store_n(&ehs_ident_state.ident, NULL, __ATOMIC_RELEASE);
	next_gen();
}

void ehs_ident_setlogmask(int new_mask)
{
	if (new_mask != 0)
		__atomic_store_n(&ehs_ident_state.mask, new_mask, __ATOMIC_RELAXED);
}

size_t ehs_event_name(char out[EHS_EVENT_NAME_MAX + 1], const char *id)
{
	if (!id || !*id)
		id = program_invocation_short_name;
	if (!id || !*id)
		id = "unknown";
	return ehs_event_name_bytes(out, id, strnlen(id, EHS_EVENT_NAME_MAX));
}

size_t ehs_event_name_bytes(char out[EHS_EVENT_NAME_MAX + 1], const char *id, size_t len)
{
	size_t n = len < EHS_EVENT_NAME_MAX ? len : EHS_EVENT_NAME_MAX;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)id[i];
		out[i] = (c >= 0x20 && c < 0x7f && c != ';') ? (char)c : '_';
	}
	out[n] = '\0';
	return n;
}
