/* SPDX-License-Identifier: MIT */
/*
 * openlog/setlogmask state as the bridge sees it, and the rule that turns
 * an ident into an event name.  Kept without locks: each item is one
 * word read and written atomically, as a call racing with openlog in
 * glibc sees either the old or the new value too.  The words are read on
 * every logging call, so they are plain statics read inline (one load
 * each) and share their cache line with nothing written at run time.
 */
#ifndef EHS_BRIDGE_IDENT_H
#define EHS_BRIDGE_IDENT_H

#include <stddef.h>
#include <syslog.h>

#include "common/hidden.h"

/* Longest event name the bridge writes, without its NUL. */
#define EHS_EVENT_NAME_MAX 255

struct ehs_ident_state {
	const char *ident;	/* openlog's, or NULL */
	int facility;		/* LOG_FAC bits (pri form) */
	int mask;		/* setlogmask's */
	unsigned long gen;	/* moves on at every openlog/closelog */
} __attribute__((aligned(64)));	/* a cache line of its own */

extern EHS_HIDDEN struct ehs_ident_state ehs_ident_state;

/* Mirrors of glibc's openlog/closelog/setlogmask effects. */
void ehs_ident_openlog(const char *ident, int option, int facility);
void ehs_ident_closelog(void);
void ehs_ident_setlogmask(int mask);

/* The current mask (LOG_UPTO(LOG_DEBUG) until setlogmask changes it). */
static inline int ehs_ident_mask(void)
{
	return __atomic_load_n(&ehs_ident_state.mask, __ATOMIC_RELAXED);
}

/* openlog's facility as LOG_FAC bits (pri form, e.g. LOG_USER). */
static inline int ehs_ident_facility(void)
{
	return __atomic_load_n(&ehs_ident_state.facility, __ATOMIC_RELAXED);
}

/* The facility number of an event at priority: priority's own, else
 * openlog's. */
static inline unsigned ehs_priority_facility(int priority)
{
	int fac = priority & LOG_FACMASK;
	return (unsigned)LOG_FAC(fac ? fac : ehs_ident_facility());
}

/* openlog's ident, or NULL when none was given. */
static inline const char *ehs_ident(void)
{
	return __atomic_load_n(&ehs_ident_state.ident, __ATOMIC_ACQUIRE);
}

/*
 * A number that changes whenever openlog or closelog may have changed the
 * event name (openlog again with the same buffer, rewritten, included),
 * so a name derived from the ident can be kept until it moves.  Never 0.
 * Read it before ehs_ident(): an ident read after it is at least as new.
 */
static inline unsigned long ehs_ident_gen(void)
{
	return __atomic_load_n(&ehs_ident_state.gen, __ATOMIC_ACQUIRE);
}

/*
 * Writes the event name for ident (NULL or "" means the program's short
 * name, then "unknown") into out: printable ASCII except ';' is kept,
 * every other byte becomes '_', and the name is cut at
 * EHS_EVENT_NAME_MAX bytes.  Returns its length.
 */
size_t ehs_event_name(char out[EHS_EVENT_NAME_MAX + 1], const char *ident);

/* The same for the len bytes at ident (len > 0; a NUL byte among them
 * becomes '_' as any other unprintable byte): a name the caller has
 * without a NUL after it, such as a journal field's value. */
size_t ehs_event_name_bytes(char out[EHS_EVENT_NAME_MAX + 1], const char *ident, size_t len);

#endif
